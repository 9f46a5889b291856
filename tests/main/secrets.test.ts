import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

// Electron's safeStorage cannot run without Electron; this stand-in encrypts reversibly with a key
// so the test can prove the file never holds the plain value.
const state = vi.hoisted(() => ({ available: true }))
vi.mock('electron', () => {
  const key = 0x5a
  const xor = (b: Buffer) => Buffer.from(b.map((x) => x ^ key))
  return {
    safeStorage: {
      isEncryptionAvailable: () => state.available,
      encryptString: (s: string) => Buffer.concat([Buffer.from('v10'), xor(Buffer.from(s, 'utf8'))]),
      decryptString: (b: Buffer) => xor(b.subarray(3)).toString('utf8'),
    },
  }
})

const { SafeStorageSecretStore } = await import('../../src/main/secrets')

describe('SafeStorageSecretStore', () => {
  beforeEach(() => {
    state.available = true
  })

  it('round-trips a secret and never writes it in plain text', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-secrets-')), 'secrets.json')
    const store = new SafeStorageSecretStore(path)
    await store.set('conn1/x-api-key', 'sk-live-SECRET-123')
    const onDisk = await readFile(path, 'utf8')
    expect(onDisk).not.toContain('sk-live-SECRET-123')
    expect(onDisk).not.toContain(Buffer.from('sk-live-SECRET-123').toString('base64'))
    expect(await new SafeStorageSecretStore(path).get('conn1/x-api-key')).toBe('sk-live-SECRET-123')
  })

  it('refuses to save when the keychain is unavailable, instead of storing plain text', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-secrets-')), 'secrets.json')
    const store = new SafeStorageSecretStore(path)
    state.available = false
    await expect(store.set('k', 'v')).rejects.toMatchObject({ code: 'unavailable' })
    await expect(readFile(path, 'utf8')).rejects.toThrow()
  })

  it('deletes only the named secret', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-secrets-')), 'secrets.json')
    const store = new SafeStorageSecretStore(path)
    await store.set('a', '1')
    await store.set('b', '2')
    await store.delete('a')
    const reread = new SafeStorageSecretStore(path)
    expect(await reread.get('a')).toBeUndefined()
    expect(await reread.get('b')).toBe('2')
  })
})
