import { AppError } from '../../../contract'
import { isSecretStorageKey, type StorageOptions } from '../../../contract/objectStore'
import { bucketWord, type ObjectStoreLocation } from './location'

/** What a store's refusal means, decided from its status and error code (Azure `x-ms-error-code`, S3 `<Code>`). */
export function storeRefusal(location: ObjectStoreLocation, status: number, code: string, credentials: 'signed' | 'anonymous'): AppError {
  const where = `${location.scheme}://${location.bucket}`
  const detail = `HTTP ${status}${code ? ` ${code}` : ''}`
  const bucket = bucketWord(location.scheme)
  if (/^(ContainerNotFound|NoSuchBucket)$/.test(code) || (status === 404 && credentials === 'signed')) {
    return new AppError('not_found', `The ${bucket} "${location.bucket}" does not exist`, { detail, hint: `Check the ${bucket} name in the location, or create the ${bucket} first` })
  }
  if (/Mismatch$|^AccessDenied$|^AllAccessDisabled$/.test(code) || (status === 403 && credentials === 'anonymous')) {
    return new AppError('permission_denied', `Access denied: the credentials given may not list ${where}`, {
      detail,
      hint: credentials === 'anonymous' ? 'Give credentials as storage options (this store does not allow anonymous reads)' : 'Ask for read and list permission on the location, or use other credentials',
    })
  }
  if (status === 404) {
    return new AppError('not_found', `The ${bucket} "${location.bucket}" does not exist or is not public`, { detail, hint: 'Check the name, or give credentials as storage options' })
  }
  if (status === 401 || status === 403 || /^(AuthenticationFailed|AuthorizationFailure|InvalidAccessKeyId|SignatureDoesNotMatch|InvalidAuthenticationInfo|NoAuthenticationInformation|ExpiredToken|InvalidToken)$/.test(code)) {
    return new AppError('unauthenticated', `${where} refused the credentials (wrong account, key, token or signature)`, { detail, hint: 'Check the account name and key (or SAS token, access key and secret) in the storage options' })
  }
  if (/^(PermanentRedirect|AuthorizationHeaderMalformed|IllegalLocationConstraintException)$/.test(code) || status === 301) {
    return new AppError('invalid_input', `The ${bucket} "${location.bucket}" is in another region than the one given`, { detail, hint: 'Set the region storage option (aws_region) to the bucket’s region' })
  }
  if (status === 400 && /^(InvalidResourceName|InvalidBucketName|InvalidUri|OutOfRangeInput)$/.test(code)) {
    return new AppError('invalid_input', `"${location.bucket}" is not a valid ${bucket} name`, { detail, hint: `Check the ${bucket} name in the location` })
  }
  if (status === 429 || status === 503) return new AppError('throttled', `${where} is busy (it answered ${status}); try again shortly`, { detail })
  return new AppError('unavailable', `${where} answered ${detail} while listing the catalog`, { detail })
}

/** The endpoint did not answer at all (refused, no such host, TLS failure). */
export function unreachable(endpoint: string, error: unknown): AppError {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  const detail = [cause?.code, cause?.message ?? (error as Error)?.message].filter(Boolean).join(': ')
  return new AppError('unavailable', `Cannot reach the storage endpoint ${safeOrigin(endpoint)}`, {
    detail,
    hint: 'Check the endpoint storage option and your network (is the service running?)',
    cause: error,
  })
}

function safeOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin
  } catch {
    return 'given'
  }
}

/**
 * The words lancedb/Lance (object_store) use when a store refuses or cannot be reached, mapped like the probe's
 * answers. Null when the text is not about the store. Tested against Azurite (tests/core/namespace/objectStore/errors.test.ts).
 */
export function fromStoreMessage(text: string, location: ObjectStoreLocation | null): AppError | null {
  const status = /status: (\d{3})/.exec(text)?.[1]
  const code = /<Code>([A-Za-z]+)<\/Code>/.exec(text)?.[1] ?? ''
  const where: ObjectStoreLocation = location ?? { scheme: 'az', bucket: 'the store', prefix: '', uri: '' }
  if (/ConnectError|tcp connect error|Connection refused|dns error|failed to lookup address|error trying to connect|error sending request/i.test(text)) {
    const host = /(?:uri: Some\(|Error performing [A-Z]+ )(https?:\/\/[^/\s)]+)/.exec(text)?.[1] ?? ''
    return new AppError('unavailable', `Cannot reach the storage endpoint${host ? ` ${host}` : ''}`, { hint: 'Check the endpoint storage option and your network (is the service running?)' })
  }
  if (/Failed to resolve region|PermanentRedirect|wrong region|region .* is wrong/i.test(text)) {
    return storeRefusal(where, 301, 'PermanentRedirect', 'signed')
  }
  if (/no Azure account name|Missing (required )?(configuration|credentials)|no credentials/i.test(text)) {
    return new AppError('invalid_input', 'The storage options are incomplete: Lance found no account name or credentials for this store', { hint: 'Give the account name and key (or another credential) as storage options' })
  }
  // Only what is about the store itself: a missing object (404) is the catalog's business (a missing or damaged table).
  const aboutStore = /^(ContainerNotFound|NoSuchBucket|PermanentRedirect|AuthorizationHeaderMalformed)$/.test(code) || ['401', '403', '429', '503'].includes(status ?? '')
  if (aboutStore && /ObjectStore|object_store|MicrosoftAzure|Azure|S3|GCS|Generic \{ store/.test(text)) {
    return storeRefusal(where, Number(status ?? 400), code, 'signed')
  }
  return null
}

/** Remove what could be a secret from an error text: every secret option's value and URL signatures. */
export function redactSecrets(text: string, options: StorageOptions = {}): string {
  let out = text
  for (const [key, value] of Object.entries(options)) {
    if (isSecretStorageKey(key) && value.length >= 4) out = out.split(value).join('•••')
  }
  return out.replace(/\b(sig|X-Amz-Signature|X-Amz-Security-Token|X-Amz-Credential|X-Goog-Signature|X-Goog-Credential)=[^&\s)"'<]+/gi, '$1=•••')
}
