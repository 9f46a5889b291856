/**
 * Name claims (src/core/namespace/dir/claim) on each store they speak: a local root (files), Azure (Azurite), S3
 * (a loopback server that honours `If-None-Match` / `If-Match` as S3 documents them; no S3 emulator on npm does) and
 * GCS (a loopback XML API that honours `x-goog-if-generation-match` as Google documents it, and checks the service
 * account's self-signed JWT; no GCS emulator is on npm either).
 * Of many claimers of one name exactly one wins; a released claim can be taken again; a claim whose holder died
 * (its lease expired, or its process on this machine exited) is taken over; a reservation is written once.
 */
import '../../../../helpers/no-cloud'
import { spawn } from 'node:child_process'
import { createHash, createVerify, generateKeyPairSync } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimsFor, type NameClaims } from '../../../../../src/core/namespace/dir/claim'
import { claimName } from '../../../../../src/core/namespace/dir/claim/lease'
import type { ClaimStore } from '../../../../../src/core/namespace/dir/claim/store'
import { FileClaimStore } from '../../../../../src/core/namespace/dir/claim/fileStore'
import { AzureClaimStore } from '../../../../../src/core/namespace/dir/claim/azureStore'
import { S3ClaimStore } from '../../../../../src/core/namespace/dir/claim/s3Store'
import { GcsClaimStore } from '../../../../../src/core/namespace/dir/claim/gcsStore'
import { gcsAccess } from '../../../../../src/core/namespace/objectStore/gcs'
import { azureAccess } from '../../../../../src/core/namespace/objectStore/azure'
import { parseRoot, type ObjectStoreLocation } from '../../../../../src/core/namespace/objectStore/location'
import { s3Access } from '../../../../../src/core/namespace/objectStore/s3'
import { startAzurite, type Azurite } from '../../../../helpers/azurite'

/** S3's conditional object writes and deletes, in memory: what the claim store relies on, as AWS documents it. */
function loopbackS3(): Promise<{ server: Server; endpoint: string }> {
  const objects = new Map<string, { body: string; etag: string; modified: Date }>()
  let n = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname)
      const current = objects.get(key)
      const ifNoneMatch = req.headers['if-none-match']
      const ifMatch = req.headers['if-match']
      const fail = (status: number) => res.writeHead(status).end(`<Error><Code>PreconditionFailed</Code></Error>`)
      if (req.method === 'PUT') {
        if (ifNoneMatch === '*' && current) return fail(412)
        if (ifMatch && ifMatch !== current?.etag) return fail(current ? 412 : 404)
        const etag = `"${++n}"`
        objects.set(key, { body: Buffer.concat(chunks).toString('utf8'), etag, modified: new Date() })
        return res.writeHead(200, { etag }).end()
      }
      if (req.method === 'GET') {
        if (!current) return res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>')
        return res.writeHead(200, { etag: current.etag, 'last-modified': current.modified.toUTCString() }).end(current.body)
      }
      if (req.method === 'DELETE') {
        if (ifMatch && ifMatch !== current?.etag) return fail(current ? 412 : 404)
        objects.delete(key)
        return res.writeHead(204).end()
      }
      res.writeHead(405).end()
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}` })))
}

/**
 * GCS's XML API for objects, in memory: conditions on the generation (`x-goog-if-generation-match`, 0 = absent),
 * answered as Google documents them, and every request's bearer JWT verified with the service account's public key.
 */
function loopbackGcs(publicKey: string, email: string): Promise<{ server: Server; baseUrl: string; refused: () => number }> {
  const objects = new Map<string, { body: string; generation: number; modified: Date }>()
  let generation = 1_700_000_000_000_000
  let refused = 0
  const authorized = (header: string | undefined) => {
    const [h, c, sig] = (header ?? '').replace(/^Bearer /, '').split('.')
    if (!h || !c || !sig) return false
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as { iss: string; exp: number; scope: string }
    const signed = createVerify('RSA-SHA256').update(`${h}.${c}`).verify(publicKey, Buffer.from(sig, 'base64url'))
    return signed && claims.iss === email && claims.exp * 1000 > Date.now() && claims.scope.includes('cloud-platform')
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (!authorized(req.headers.authorization)) {
        refused++
        return res.writeHead(401).end('<Error><Code>AuthenticationRequired</Code></Error>')
      }
      const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname)
      const current = objects.get(key)
      const condition = req.headers['x-goog-if-generation-match']
      const holds = condition === undefined || Number(condition) === (current?.generation ?? 0)
      const fail = () => res.writeHead(412).end('<Error><Code>PreconditionFailed</Code></Error>')
      if (req.method === 'PUT') {
        if (!holds) return fail()
        const next = { body: Buffer.concat(chunks).toString('utf8'), generation: ++generation, modified: new Date() }
        objects.set(key, next)
        return res.writeHead(200, { 'x-goog-generation': String(next.generation), etag: `"e${next.generation}"` }).end()
      }
      if (req.method === 'GET') {
        if (!current) return res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>')
        return res.writeHead(200, { 'x-goog-generation': String(current.generation), 'last-modified': current.modified.toUTCString() }).end(current.body)
      }
      if (req.method === 'DELETE') {
        if (!current) return res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>')
        if (!holds) return fail()
        objects.delete(key)
        return res.writeHead(204).end()
      }
      res.writeHead(405).end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, refused: () => refused })),
  )
}

/** The pid of a process that has exited (for a claim left by a dead holder on this machine). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

const key = (name: string) => `.lcb-claims/${createHash('sha256').update(name).digest('hex').slice(0, 40)}.claim`

let az: Azurite
let s3: { server: Server; endpoint: string }
let gcs: Awaited<ReturnType<typeof loopbackGcs>>
let dir: string
const stores: Array<{ name: string; store: () => ClaimStore; claims: () => NameClaims; ttlMs: number }> = []

beforeAll(async () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
  const email = 'claims@project.iam.gserviceaccount.com'
  ;[az, s3, dir, gcs] = await Promise.all([startAzurite(), loopbackS3(), mkdtemp(join(tmpdir(), 'lcb-claims-')), loopbackGcs(keys.publicKey, email)])
  const gcsOptions = {
    google_service_account_key: JSON.stringify({ type: 'service_account', client_email: email, private_key: keys.privateKey, private_key_id: 'k1', gcs_base_url: gcs.baseUrl }),
    allow_http: 'true',
  }
  const gcsLocation = (parseRoot('gs://bucket/claims') as { store: ObjectStoreLocation }).store
  const azRoot = await az.freshRoot('claims')
  const azLocation = (parseRoot(azRoot) as { store: ObjectStoreLocation }).store
  const s3Options = { aws_endpoint: s3.endpoint, allow_http: 'true', aws_access_key_id: 'AKIDEXAMPLE', aws_secret_access_key: 'secret', aws_region: 'us-east-1' }
  const s3Location = (parseRoot('s3://bucket/claims') as { store: ObjectStoreLocation }).store
  stores.push(
    { name: 'a local root', store: () => new FileClaimStore(dir), claims: () => claimsFor(dir)!, ttlMs: 1000 },
    // Azure's Last-Modified counts whole seconds: a lease must be longer than that to be measured.
    { name: 'Azure (Azurite)', store: () => new AzureClaimStore(azureAccess(az.storageOptions)!, azLocation), claims: () => claimsFor(azRoot, az.storageOptions)!, ttlMs: 2000 },
    { name: 'S3 (loopback)', store: () => new S3ClaimStore(s3Access(s3Options)!, s3Location), claims: () => claimsFor('s3://bucket/claims', s3Options)!, ttlMs: 2000 },
    { name: 'GCS (loopback)', store: () => new GcsClaimStore(gcsAccess(gcsOptions)!, gcsLocation), claims: () => claimsFor('gs://bucket/claims', gcsOptions)!, ttlMs: 2000 },
  )
})
afterAll(async () => {
  await az?.stop()
  s3?.server.close()
  gcs?.server.close()
  await rm(dir, { recursive: true, force: true })
})

describe.each(['a local root', 'Azure (Azurite)', 'S3 (loopback)', 'GCS (loopback)'])('name claims on %s', (storeName) => {
  const at = () => stores.find((s) => s.name === storeName)!

  it('lets exactly one of 12 concurrent claimers have a name, and the next one after it is released', async () => {
    const { claims, name } = at()
    const c = claims()
    const won = await Promise.all(Array.from({ length: 12 }, () => c.claim(['race', 'a'], { waitMs: 0 })))
    expect(won.filter((x) => x !== null), name).toHaveLength(1)
    // Another name is free meanwhile.
    const other = await c.claim(['race', 'b'], { waitMs: 0 })
    expect(other).not.toBeNull()
    await won.find((x) => x !== null)!.release()
    const again = await c.claim(['race', 'a'], { waitMs: 0 })
    expect(again, name).not.toBeNull()
    await again!.release()
    await other!.release()
  })

  it('lets waiting claimers have the name one after another, as each holder releases it', async () => {
    const c = at().claims()
    const holders: string[] = []
    // Each holds the name while it records itself twice: interleaving would show as a broken pair.
    await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const claim = await c.claim(['queue'])
        expect(claim).not.toBeNull()
        holders.push(`in ${i}`)
        await at().store().read(key('queue'))
        holders.push(`out ${i}`)
        await claim!.release()
      }),
    )
    for (let k = 0; k < holders.length; k += 2) expect(holders[k]!.replace('in', 'out')).toBe(holders[k + 1])
  })

  it('takes over a claim whose holder on this machine has exited, at once', async () => {
    const store = at().store()
    expect(await store.create(key('dead'), JSON.stringify({ token: 'x', host: hostname(), pid: await deadPid() }))).not.toBeNull()
    const claim = await at().claims().claim(['dead'])
    expect(claim).not.toBeNull()
    await claim!.release()
  })

  it('keeps a claim whose holder on this machine still runs, however late its renewals, and frees it when it exits', async () => {
    const { ttlMs } = at()
    const store = at().store()
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
    try {
      expect(await store.create(key('starved'), JSON.stringify({ token: 'z', host: hostname(), pid: holder.pid }))).not.toBeNull()
      // Past its lease (a starved holder that did not renew): still its.
      await expect.poll(async () => ((await store.read(key('starved')))?.ageMs ?? 0) > ttlMs, { timeout: 30_000, interval: 200 }).toBe(true)
      expect(await claimName(store, key('starved'), { ttlMs, waitMs: 0 })).toBeNull()
    } finally {
      holder.kill('SIGKILL')
      await new Promise((resolve) => holder.once('exit', resolve))
    }
    const claim = await claimName(store, key('starved'), { ttlMs, waitMs: 0 })
    expect(claim).not.toBeNull()
    await claim!.release()
  })

  it('takes over a claim of another machine only once its lease has expired', async () => {
    const { ttlMs } = at()
    const store = at().store()
    expect(await store.create(key('far'), JSON.stringify({ token: 'y', host: 'another-machine', pid: 1 }))).not.toBeNull()
    expect(await claimName(store, key('far'), { ttlMs, waitMs: 0 })).toBeNull()
    // The store's own clock says when the lease is over.
    await expect.poll(async () => ((await store.read(key('far')))?.ageMs ?? 0) > ttlMs, { timeout: 30_000, interval: 200 }).toBe(true)
    const claim = await claimName(store, key('far'), { ttlMs, waitMs: 0 })
    expect(claim).not.toBeNull()
    await claim!.release()
    expect(await store.read(key('far'))).toBeNull()
  })

  it('writes a reservation once, and removes it', async () => {
    const c = at().claims()
    const results = await Promise.all(Array.from({ length: 6 }, () => c.reserve('t.lance/.lance-reserved', 'reserved')))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await c.unreserve('t.lance/.lance-reserved')).toBe(true)
    expect(await c.unreserve('t.lance/.lance-reserved')).toBe(false)
    expect(await c.reserve('t.lance/.lance-reserved', 'reserved')).toBe(true)
  })
})

describe('GCS credentials', () => {
  it('signs every request with the service account (the loopback refused none)', () => {
    expect(gcs.refused()).toBe(0)
  })

  it('uses no claims where the credentials need a token exchange, and says what is wrong with a bad key', () => {
    expect(claimsFor('gs://bucket/claims', { google_service_account_key: JSON.stringify({ type: 'authorized_user', refresh_token: 'r' }) })).toBeNull()
    expect(claimsFor('gs://bucket/claims', {})).toBeNull()
    expect(() => claimsFor('gs://bucket/claims', { google_service_account_key: '{not json' })).toThrow(/not JSON/)
    expect(() => claimsFor('gs://bucket/claims', { google_service_account: '/nonexistent/key.json' })).toThrow(/cannot be read/)
    expect(() => claimsFor('gs://bucket/claims', { google_service_account_key: JSON.stringify({ client_email: 'a@b', private_key: 'x', gcs_base_url: 'http://127.0.0.1:1' }) })).toThrow(/allow_http/)
  })
})
