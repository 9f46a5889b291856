import type { HarnessRoute } from '../context'
import { apiRoute } from './api'
import { staticRoute } from './static'

/** Every route module of the harness, registered in this order. Add new modules here. */
export const routes: HarnessRoute[] = [apiRoute, staticRoute]
