/** Long work as jobs: one registry for every kind (import, export, index builds, profiles, recovery notes), one budget for all. */
export { Job, JobRegistry, JobsOfKind, type CreateOptions, type JobRegistryOptions } from './registry'
export { copyScanInfo, runScan, type RunScanOptions, type Scan } from './scan'
export { DEFAULT_JOB_LIMITS, JobBudget, jobLimitsFromEnv, type BudgetedKind, type JobBudgetOptions, type JobLimits, type Ticket } from './budget'
