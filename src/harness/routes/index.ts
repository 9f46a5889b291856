import type { HarnessRoute } from '../context'
import { apiRoute } from './api'
import { rendererRoute } from './renderer'

/** Every route module of the harness, registered in this order. Add new modules here. */
export const routes: HarnessRoute[] = [apiRoute, rendererRoute]
