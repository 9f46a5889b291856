import { fileURLToPath } from 'node:url'
import { AppError } from '../../../contract'
import { objectStoreScheme, objectStoreUriProblem, type ObjectStoreScheme } from '../../../contract/objectStore'

/** A catalog root on object storage: `az://container/prefix`, `s3://bucket/prefix`, `gs://bucket/prefix`. */
export interface ObjectStoreLocation {
  scheme: Exclude<ObjectStoreScheme, 'file'>
  /** The bucket (S3, GCS) or container (Azure). */
  bucket: string
  /** The key prefix of the catalog inside the bucket, without leading or trailing `/` ('' = the whole bucket). */
  prefix: string
  /** The root as given to lancedb (no trailing `/`). */
  uri: string
}

/**
 * What a catalog root names: a local directory (a plain path, or a `file://` URI turned into its path) or an
 * object-store location. Object-store URIs are checked with the shared rules (no credentials, no `..`).
 */
export function parseRoot(root: string): { local: string } | { store: ObjectStoreLocation } {
  const scheme = objectStoreScheme(root)
  if (scheme === null) return { local: root }
  const problem = objectStoreUriProblem(root)
  if (problem) throw new AppError('invalid_input', `The catalog location ${root.slice(0, 200)} ${problem}`)
  if (scheme === 'file') return { local: fileURLToPath(root) }
  const url = new URL(root)
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '')
  const bucket = url.host
  return { store: { scheme, bucket, prefix, uri: `${scheme}://${bucket}${prefix ? `/${prefix}` : ''}` } }
}

/** `az` → "container", others → "bucket": the word a person knows for the top level of their store. */
export function bucketWord(scheme: ObjectStoreLocation['scheme']): string {
  return scheme === 'az' ? 'container' : 'bucket'
}

/** A short label for the tree: the prefix's last part, or the bucket. */
export function locationLabel(location: ObjectStoreLocation): string {
  const parts = location.prefix.split('/').filter(Boolean)
  return parts[parts.length - 1] ?? location.bucket
}
