/** Long work as jobs: one registry for every kind (import, export, index builds, profiles, recovery notes). */
export { Job, JobRegistry, type CreateOptions, type JobRegistryOptions } from './registry'
