import { safeStorage } from 'electron'
import { readFile } from 'node:fs/promises'
import { AppError } from '../contract'
import type { SecretStore } from '../core'
import { AtomicFile } from '../core/atomicFile'

/**
 * Secrets (API keys, tokens, secret headers) encrypted with Electron `safeStorage` (the OS keychain /
 * DPAPI / libsecret) and kept as base64 ciphertext in one file. Never plain text on disk: when the OS
 * offers no encryption we refuse to save rather than fall back. Values never leave main.
 */
export class SafeStorageSecretStore implements SecretStore {
  private cache: Record<string, string> | null = null
  private readonly file: AtomicFile

  constructor(private readonly path: string) {
    this.file = new AtomicFile(path, 0o600)
  }

  private async load(): Promise<Record<string, string>> {
    if (this.cache) return this.cache
    try {
      const parsed: unknown = JSON.parse(await readFile(this.path, 'utf8'))
      this.cache = parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {}
    } catch {
      this.cache = {}
    }
    return this.cache
  }

  private persist(next: Record<string, string>): Promise<void> {
    this.cache = next
    return this.file.write(JSON.stringify(next))
  }

  async get(key: string): Promise<string | undefined> {
    const stored = (await this.load())[key]
    if (stored === undefined) return undefined
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError('unavailable', 'The system keychain is not available, so saved secrets cannot be read', {
        hint: 'Unlock the keychain (or install a secret service) and try again',
      })
    }
    return safeStorage.decryptString(Buffer.from(stored, 'base64'))
  }

  async set(key: string, value: string): Promise<void> {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError('unavailable', 'The system keychain is not available, so the secret was not saved', {
        hint: 'Secrets are never stored in plain text; unlock the keychain and save again',
      })
    }
    const encrypted = safeStorage.encryptString(value).toString('base64')
    await this.persist({ ...(await this.load()), [key]: encrypted })
  }

  async delete(key: string): Promise<void> {
    const current = await this.load()
    if (!(key in current)) return
    const { [key]: _removed, ...rest } = current
    await this.persist(rest)
  }
}
