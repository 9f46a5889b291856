import '../../../helpers/no-cloud'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/contract'
import { inspectStoreRoot, parseRoot, type ObjectStoreLocation } from '../../../../src/core/namespace/objectStore'
import { probeS3 } from '../../../../src/core/namespace/objectStore/s3'
import { sha256Hex, signV4 } from '../../../../src/core/namespace/objectStore/sigv4'

/**
 * The read-only listing that tells an `s3://` root's layout before lancedb connects (which would write a
 * `__manifest`). No S3 emulator that honours conditional writes installs from npm, so the signer is checked
 * against AWS's published example and the listing against a loopback server that answers ListObjectsV2 as S3
 * documents it (a stand-in for S3's answers, not for any part of ours).
 */
describe('SigV4', () => {
  it('signs AWS’s documented example exactly', () => {
    const headers = signV4({
      method: 'GET',
      url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payloadHash: sha256Hex(''),
      region: 'us-east-1',
      service: 'iam',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      amzDate: '20150830T123600Z',
    })
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    )
  })
})

describe('s3:// root listing', () => {
  let server: Server
  let endpoint: string
  const seen: IncomingMessage[] = []
  /** bucket → keys it holds; `denied` answers AccessDenied, `elsewhere` lives in eu-west-1. */
  const buckets: Record<string, string[]> = {
    withmanifest: ['cat/__manifest/_versions/1.manifest', 'cat/t.lance/_versions/1.manifest'],
    bare: ['cat/t.lance/_versions/1.manifest', 'cat/t.lance/data/x.lance'],
    empty: [],
    elsewhere: ['cat/__manifest/_versions/1.manifest'],
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request)
      const url = new URL(request.url!, 'http://x')
      const bucket = url.pathname.split('/')[1]!
      const region = /Credential=[^/]+\/\d+\/([^/]+)\//.exec(request.headers.authorization ?? '')?.[1]
      const fail = (status: number, code: string, extra = '') => response.writeHead(status).end(`<Error><Code>${code}</Code>${extra}</Error>`)
      if (!request.headers.authorization?.startsWith('AWS4-HMAC-SHA256 ')) return fail(403, 'AccessDenied')
      if (request.headers.authorization.includes('Credential=WRONG/')) return fail(403, 'InvalidAccessKeyId')
      if (bucket === 'denied') return fail(403, 'AccessDenied')
      if (bucket === 'elsewhere' && region !== 'eu-west-1') return fail(400, 'AuthorizationHeaderMalformed', '<Region>eu-west-1</Region>')
      const keys = buckets[bucket]
      if (!keys) return fail(404, 'NoSuchBucket')
      const prefix = url.searchParams.get('prefix') ?? ''
      const delimiter = url.searchParams.get('delimiter')
      const max = Number(url.searchParams.get('max-keys') ?? 1000)
      const under = keys.filter((k) => k.startsWith(prefix))
      const common = delimiter ? [...new Set(under.map((k) => k.slice(prefix.length)).filter((k) => k.includes('/')).map((k) => prefix + k.split('/')[0] + '/'))] : []
      const contents = (delimiter ? under.filter((k) => !k.slice(prefix.length).includes('/')) : under).slice(0, max)
      response.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix>${contents.map((k) => `<Contents><Key>${k}</Key></Contents>`).join('')}${common.map((p) => `<CommonPrefixes><Prefix>${p}</Prefix></CommonPrefixes>`).join('')}</ListBucketResult>`,
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const options = () => ({ aws_endpoint: endpoint, allow_http: 'true', aws_access_key_id: 'AKID', aws_secret_access_key: 'secret', aws_region: 'us-east-1' })
  const at = (uri: string) => (parseRoot(uri) as { store: ObjectStoreLocation }).store
  async function refused(uri: string, extra: Record<string, string> = {}): Promise<AppError> {
    const error = await inspectStoreRoot(at(uri), { ...options(), ...extra }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }

  it('tells a catalog with __manifest, one with only *.lance tables, and an empty prefix apart', async () => {
    expect(await inspectStoreRoot(at('s3://withmanifest/cat'), options())).toBe('manifest')
    expect(await inspectStoreRoot(at('s3://bare/cat'), options())).toBe('tables-only')
    expect((await refused('s3://empty/cat')).code).toBe('not_a_catalog')
    expect(await inspectStoreRoot(at('s3://empty/cat'), options(), { create: true })).toBe('manifest')
    // Path-style requests, signed; only GETs.
    expect(seen.every((r) => r.method === 'GET' && r.url!.startsWith('/'))).toBe(true)
  })

  it('follows a bucket to its region once', async () => {
    expect(await inspectStoreRoot(at('s3://elsewhere/cat'), options())).toBe('manifest')
  })

  it('answers refusals in words', async () => {
    expect((await refused('s3://nosuch/cat')).message).toBe('The bucket "nosuch" does not exist')
    expect((await refused('s3://denied/cat')).code).toBe('permission_denied')
    expect((await refused('s3://bare/cat', { aws_access_key_id: 'WRONG' })).code).toBe('unauthenticated')
    expect((await refused('s3://bare/cat', { allow_http: 'false' })).message).toMatch(/allow_http=true/)
  })

  it('does not guess when the credentials come from elsewhere (a profile, SSO, instance metadata)', async () => {
    const before = seen.length
    expect(await probeS3(at('s3://bare/cat'), { aws_endpoint: endpoint, allow_http: 'true' }, {})).toBeNull()
    expect(seen.length).toBe(before)
  })
})
