import { NO_CLOUD_ENV } from './azurite'

/**
 * Import this FIRST in a test file that touches object storage: its environment then makes any fallback to a
 * real cloud impossible (Lance's S3 path resolves a bucket's region from AWS when options are missing) before
 * lancedb reads anything.
 */
Object.assign(process.env, NO_CLOUD_ENV)
