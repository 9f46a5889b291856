import type { HarnessRoute } from '../context'
import { apiRoute } from './api'
import { exportRoutes } from './exports'
import { importRoutes } from './imports'
import { staticRoute } from './static'

/** Every route module of the harness, registered in this order. Add new modules here. */
export const routes: HarnessRoute[] = [importRoutes, exportRoutes, apiRoute, staticRoute]
