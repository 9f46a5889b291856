import { createSign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { AppError } from '../../../contract'
import type { StorageOptions } from '../../../contract/objectStore'
import { isTrue, option } from './options'

/** object_store's GCS keys (and aliases) for a service account. */
const KEYS = {
  key: ['google_service_account_key', 'service_account_key'],
  path: ['google_service_account', 'service_account', 'google_service_account_path', 'service_account_path', 'google_application_credentials'],
  allowHttp: ['google_allow_http', 'allow_http'],
} as const

/** What object_store reads from a service-account key file (`gcs_base_url`, `disable_oauth`: its test knobs). */
interface ServiceAccountKey {
  type?: string
  client_email?: string
  private_key?: string
  private_key_id?: string
  gcs_base_url?: string
  disable_oauth?: boolean
}

/** Where and how to reach GCS for signed requests of our own (the same service account Lance uses). */
export interface GcsAccess {
  /** The XML API's base, `https://storage.googleapis.com` unless the key names another (a local emulator). */
  baseUrl: string
  /** A bearer token for the next request; empty when the key disables OAuth. */
  token(): string
}

const DEFAULT_BASE_URL = 'https://storage.googleapis.com'
/** The scope object_store puts in its self-signed JWTs. */
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
const TOKEN_LIFETIME_S = 3600

/**
 * The service account the storage options (or `GOOGLE_*` environment) name; null when the credentials come from
 * elsewhere (user credentials, instance metadata, workload identity) — those need a token exchange we do not make.
 * Like object_store, a service account signs its own JWT (no token endpoint is called).
 */
export function gcsAccess(options: StorageOptions, env: NodeJS.ProcessEnv = process.env): GcsAccess | null {
  const key = serviceAccountKey(options, env)
  if (!key) return null
  const baseUrl = (key.gcs_base_url ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  if (baseUrl.startsWith('http:') && !key.disable_oauth && !isTrue(option(options, KEYS.allowHttp, env))) {
    throw new AppError('invalid_input', `The endpoint ${new URL(baseUrl).origin} is plain http: set the storage option allow_http=true to use it`)
  }
  if (key.disable_oauth) return { baseUrl, token: () => '' }
  const { client_email: email, private_key: privateKey } = key
  if (!email || !privateKey) return null
  let cached: { token: string; expiresAt: number } | null = null
  return {
    baseUrl,
    token: () => {
      const now = Math.floor(Date.now() / 1000)
      // Renewed a minute before it expires, so no request carries a token that lapses in flight.
      if (!cached || cached.expiresAt - 60 <= now) cached = { token: selfSignedJwt(email, privateKey, key.private_key_id, now), expiresAt: now + TOKEN_LIFETIME_S }
      return cached.token
    },
  }
}

function serviceAccountKey(options: StorageOptions, env: NodeJS.ProcessEnv): ServiceAccountKey | null {
  const inline = option(options, KEYS.key, env)
  const path = inline ? undefined : option(options, KEYS.path, env)
  if (!inline && !path) return null
  let text: string
  try {
    text = inline ?? readFileSync(path!, 'utf8')
  } catch {
    throw new AppError('invalid_input', `The Google service account file ${path} cannot be read`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new AppError('invalid_input', 'The Google service account key is not JSON')
  }
  if (typeof parsed !== 'object' || parsed === null) throw new AppError('invalid_input', 'The Google service account key is not a JSON object')
  const key = parsed as ServiceAccountKey
  // User credentials (`authorized_user`) and external accounts need a token exchange: not ours to make.
  if (key.type !== undefined && key.type !== 'service_account') return null
  return key
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url')

/** A JWT signed with the service account's key (RS256), accepted by Google APIs as a bearer token. */
function selfSignedJwt(email: string, privateKey: string, keyId: string | undefined, now: number): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(keyId ? { kid: keyId } : {}) }))
  const claims = base64url(JSON.stringify({ iss: email, sub: email, scope: SCOPE, iat: now, exp: now + TOKEN_LIFETIME_S }))
  let signature: Buffer
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(privateKey)
  } catch {
    throw new AppError('invalid_input', 'The Google service account key holds no usable private key')
  }
  return `${header}.${claims}.${base64url(signature)}`
}
