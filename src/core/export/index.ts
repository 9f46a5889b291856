export { ExportModule } from './module'
export { exportView, exportBatches } from './run'
export { scanView } from './scanFallback'
export { WRITERS } from './writers'
