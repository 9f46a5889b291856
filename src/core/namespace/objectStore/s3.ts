import { AppError } from '../../../contract'
import type { StorageOptions } from '../../../contract/objectStore'
import { storeRefusal, unreachable } from './errors'
import type { ObjectStoreLocation } from './location'
import { keyPrefix, listingOf, type RootListing } from './listing'
import { isTrue, option } from './options'
import { amzDateOf, sha256Hex, signV4 } from './sigv4'

/** object_store's S3 keys (and aliases) that the probe understands. */
const KEYS = {
  accessKeyId: ['aws_access_key_id', 'access_key_id'],
  secret: ['aws_secret_access_key', 'secret_access_key'],
  token: ['aws_session_token', 'session_token', 'aws_token', 'token'],
  region: ['aws_region', 'region', 'aws_default_region'],
  endpoint: ['aws_endpoint', 'aws_endpoint_url', 'endpoint', 'endpoint_url'],
  virtualHosted: ['aws_virtual_hosted_style_request', 'virtual_hosted_style_request'],
  skipSignature: ['aws_skip_signature', 'skip_signature'],
  allowHttp: ['aws_allow_http', 'allow_http'],
} as const

const EMPTY_SHA256 = sha256Hex('')

/**
 * List an `s3://` catalog root with ListObjectsV2 (signed with SigV4 from the access key in the options or the
 * `AWS_*` environment), to learn whether it has a `__manifest` before lancedb connects. Null when the
 * credentials come from elsewhere (a profile, SSO, instance metadata): the caller then opens the catalog without
 * its manifest, which never writes. Checked against AWS's published SigV4 example; S3 itself is not tested here
 * (no emulator that honours conditional writes installs from npm).
 */
export async function probeS3(location: ObjectStoreLocation, options: StorageOptions, env: NodeJS.ProcessEnv = process.env): Promise<RootListing | null> {
  const access = s3Access(options, env)
  if (!access) return null
  const { endpoint, virtualHosted, signer } = access
  let region = access.region
  const prefix = keyPrefix(location.prefix)
  const list = async (query: Record<string, string>) => {
    for (let attempt = 0; ; attempt++) {
      const answer = await listObjects(bucketUrl(location.bucket, endpoint, region, virtualHosted), location, region, signer, query)
      // A bucket in another region answers 301 with its region: ask there once, as the SDKs do.
      if ('redirect' in answer && answer.redirect && attempt === 0) region = answer.redirect
      else if ('names' in answer) return answer.names
      else throw storeRefusal(location, 301, 'PermanentRedirect', 'signed')
    }
  }
  const [children, manifest] = await Promise.all([
    list({ 'list-type': '2', prefix, delimiter: '/', 'max-keys': '1000' }),
    list({ 'list-type': '2', prefix: `${prefix}__manifest/`, 'max-keys': '1' }),
  ])
  return listingOf(children, manifest.length, prefix)
}

/** Where and how to reach an S3 bucket for signed requests of our own (the same options Lance takes). */
export interface S3Access {
  endpoint?: string
  region: string
  virtualHosted: boolean
  signer: { accessKeyId: string; secretAccessKey: string; token?: string } | null
}

/** The endpoint, region and access key the storage options name; null when the credentials come from elsewhere. */
export function s3Access(options: StorageOptions, env: NodeJS.ProcessEnv = process.env): S3Access | null {
  const anonymous = isTrue(option(options, KEYS.skipSignature, env))
  const accessKeyId = option(options, KEYS.accessKeyId, env)
  const secretAccessKey = option(options, KEYS.secret, env)
  if (!anonymous && (!accessKeyId || !secretAccessKey)) return null
  const endpoint = option(options, KEYS.endpoint, env)?.replace(/\/+$/, '')
  if (endpoint?.startsWith('http:') && !isTrue(option(options, KEYS.allowHttp, env))) {
    throw new AppError('invalid_input', `The endpoint ${new URL(endpoint).origin} is plain http: set the storage option allow_http=true to use it`)
  }
  return {
    endpoint,
    region: option(options, KEYS.region, env) ?? 'us-east-1',
    virtualHosted: endpoint ? isTrue(option(options, KEYS.virtualHosted, env)) : true,
    signer: anonymous ? null : { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey!, token: option(options, KEYS.token, env) },
  }
}

export function bucketUrl(bucket: string, endpoint: string | undefined, region: string, virtualHosted: boolean): URL {
  if (!endpoint) return new URL(`https://${bucket}.s3.${region}.amazonaws.com/`)
  const base = new URL(endpoint)
  if (virtualHosted) return new URL(`${base.protocol}//${bucket}.${base.host}${base.pathname.replace(/\/$/, '')}/`)
  return new URL(`${base.origin}${base.pathname.replace(/\/$/, '')}/${encodeURIComponent(bucket)}`)
}

async function listObjects(
  url: URL,
  location: ObjectStoreLocation,
  region: string,
  signer: { accessKeyId: string; secretAccessKey: string; token?: string } | null,
  query: Record<string, string>,
): Promise<{ names: string[] } | { redirect: string | null }> {
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  let headers: Record<string, string> = { 'x-amz-content-sha256': EMPTY_SHA256 }
  if (signer) {
    if (signer.token) headers['x-amz-security-token'] = signer.token
    headers = signV4({ method: 'GET', url, headers, payloadHash: EMPTY_SHA256, region, service: 's3', accessKeyId: signer.accessKeyId, secretAccessKey: signer.secretAccessKey, amzDate: amzDateOf(new Date()) })
    delete headers.host // fetch sets it from the URL (the signed value)
  }
  let response: Response
  try {
    response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) })
  } catch (error) {
    throw unreachable(url.origin, error)
  }
  const body = await response.text()
  if (response.status === 301 || response.status === 307) return { redirect: response.headers.get('x-amz-bucket-region') }
  if (!response.ok) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? ''
    if (code === 'AuthorizationHeaderMalformed') {
      const expected = /<Region>([^<]+)<\/Region>/.exec(body)?.[1]
      if (expected) return { redirect: expected }
    }
    throw storeRefusal(location, response.status, code, signer ? 'signed' : 'anonymous')
  }
  const names = [...body.matchAll(/<(Key|Prefix)>([^<]*)<\/\1>/g)].map((m) => decodeXml(m[2]!))
  // The echoed request prefix is not an entry.
  return { names: names.filter((name) => name !== query.prefix) }
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!)
}
