/** Long work as jobs: one registry for every kind (import, export, index builds, profiles, recovery notes). */
export { Job, JobRegistry, JobsOfKind, type CreateOptions, type JobRegistryOptions } from './registry'
export { copyScanInfo, runScan, type Scan } from './scan'
