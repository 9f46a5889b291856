import { writeOptions } from '../queries/write'

// The window's own write: start the catalog host again (its rule: src/renderer/queries/invalidate.ts).
export const restartHost = writeOptions('app/restartHost')
