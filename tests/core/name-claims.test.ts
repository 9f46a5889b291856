/**
 * Name claims (src/core/namespace/dir/claim) on each store they speak: a local root (files), Azure (Azurite) and S3
 * (a loopback server that honours `If-None-Match` / `If-Match` as S3 documents them; no S3 emulator on npm does).
 * Of many claimers of one name exactly one wins; a released claim can be taken again; a claim whose holder died
 * (its lease expired, or its process on this machine exited) is taken over; a reservation is written once.
 */
import '../helpers/no-cloud'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimsFor, type NameClaims } from '../../src/core/namespace/dir/claim'
import { claimName } from '../../src/core/namespace/dir/claim/lease'
import type { ClaimStore } from '../../src/core/namespace/dir/claim/store'
import { FileClaimStore } from '../../src/core/namespace/dir/claim/fileStore'
import { AzureClaimStore } from '../../src/core/namespace/dir/claim/azureStore'
import { S3ClaimStore } from '../../src/core/namespace/dir/claim/s3Store'
import { azureAccess } from '../../src/core/namespace/objectStore/azure'
import { parseRoot, type ObjectStoreLocation } from '../../src/core/namespace/objectStore/location'
import { s3Access } from '../../src/core/namespace/objectStore/s3'
import { startAzurite, type Azurite } from '../helpers/azurite'

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

/** The pid of a process that has exited (for a claim left by a dead holder on this machine). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid!
}

const key = (name: string) => `.lcb-claims/${createHash('sha256').update(name).digest('hex').slice(0, 40)}.claim`

let az: Azurite
let s3: { server: Server; endpoint: string }
let dir: string
const stores: Array<{ name: string; store: () => ClaimStore; claims: () => NameClaims; ttlMs: number }> = []

beforeAll(async () => {
  ;[az, s3, dir] = await Promise.all([startAzurite(), loopbackS3(), mkdtemp(join(tmpdir(), 'lcb-claims-'))])
  const azRoot = await az.freshRoot('claims')
  const azLocation = (parseRoot(azRoot) as { store: ObjectStoreLocation }).store
  const s3Options = { aws_endpoint: s3.endpoint, allow_http: 'true', aws_access_key_id: 'AKIDEXAMPLE', aws_secret_access_key: 'secret', aws_region: 'us-east-1' }
  const s3Location = (parseRoot('s3://bucket/claims') as { store: ObjectStoreLocation }).store
  stores.push(
    { name: 'a local root', store: () => new FileClaimStore(dir), claims: () => claimsFor(dir)!, ttlMs: 1000 },
    // Azure's Last-Modified counts whole seconds: a lease must be longer than that to be measured.
    { name: 'Azure (Azurite)', store: () => new AzureClaimStore(azureAccess(az.storageOptions)!, azLocation), claims: () => claimsFor(azRoot, az.storageOptions)!, ttlMs: 2000 },
    { name: 'S3 (loopback)', store: () => new S3ClaimStore(s3Access(s3Options)!, s3Location), claims: () => claimsFor('s3://bucket/claims', s3Options)!, ttlMs: 2000 },
  )
})
afterAll(async () => {
  await az?.stop()
  s3?.server.close()
  await rm(dir, { recursive: true, force: true })
})

describe.each(['a local root', 'Azure (Azurite)', 'S3 (loopback)'])('name claims on %s', (storeName) => {
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
