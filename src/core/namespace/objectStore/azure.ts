import { AppError } from '../../../contract'
import type { StorageOptions } from '../../../contract/objectStore'
import { storeRefusal, unreachable } from './errors'
import type { ObjectStoreLocation } from './location'
import { keyPrefix, listingOf, type RootListing } from './listing'
import { isTrue, option } from './options'
import { authorizeAzure } from './sharedKey'

/** The Azure emulator's published account and key (object_store uses them when `use_emulator` is set). */
const EMULATOR_ACCOUNT = 'devstoreaccount1'
const EMULATOR_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

/** object_store's Azure keys (and aliases) that the probe understands. */
const KEYS = {
  account: ['azure_storage_account_name', 'account_name'],
  key: ['azure_storage_account_key', 'azure_storage_access_key', 'account_key', 'access_key'],
  sas: ['azure_storage_sas_key', 'azure_storage_sas_token', 'sas_key', 'sas_token'],
  token: ['azure_storage_token', 'bearer_token', 'token'],
  endpoint: ['azure_storage_endpoint', 'azure_endpoint', 'endpoint'],
  emulator: ['azure_storage_use_emulator', 'use_emulator'],
  skipSignature: ['azure_skip_signature', 'skip_signature'],
  allowHttp: ['azure_allow_http', 'allow_http'],
} as const

export type AzureCredential = { kind: 'key'; key: Buffer } | { kind: 'sas'; query: string } | { kind: 'token'; token: string } | { kind: 'anonymous' }

/**
 * List an `az://` catalog root with one pair of signed GET requests (Blob service "List Blobs"), to learn
 * whether it has a `__manifest` BEFORE lancedb connects (lancedb writes one when it is missing). Answers null
 * when the credentials are of a kind this probe cannot use (service principal, managed identity): the caller
 * then opens the catalog without its manifest, which never writes.
 */
export async function probeAzure(location: ObjectStoreLocation, options: StorageOptions, env: NodeJS.ProcessEnv = process.env): Promise<RootListing | null> {
  const access = azureAccess(options, env)
  if (!access) return null
  const prefix = keyPrefix(location.prefix)
  const list = (query: Record<string, string>) => listBlobs(access, location, query)
  const [children, manifest] = await Promise.all([
    list({ restype: 'container', comp: 'list', prefix, delimiter: '/', maxresults: '5000' }),
    list({ restype: 'container', comp: 'list', prefix: `${prefix}__manifest/`, maxresults: '1' }),
  ])
  return listingOf(children, manifest.length, prefix)
}

/** Where and how to reach an Azure account for signed requests of our own (the same options Lance takes). */
export interface AzureAccess {
  endpoint: string
  account: string
  credential: AzureCredential
}

/** The account, endpoint and credential the storage options name; null when they name none this module can use. */
export function azureAccess(options: StorageOptions, env: NodeJS.ProcessEnv = process.env): AzureAccess | null {
  const emulator = isTrue(option(options, KEYS.emulator, env))
  const account = option(options, KEYS.account, env) ?? (emulator ? EMULATOR_ACCOUNT : undefined)
  if (!account) return null
  const credential = credentialOf(options, env, emulator)
  if (!credential) return null
  const endpoint = (option(options, KEYS.endpoint, env) ?? (emulator ? `${env.AZURITE_BLOB_STORAGE_URL ?? 'http://127.0.0.1:10000'}/${account}` : `https://${account}.blob.core.windows.net`)).replace(/\/+$/, '')
  if (endpoint.startsWith('http:') && !isTrue(option(options, KEYS.allowHttp, env)) && !emulator) {
    throw new AppError('invalid_input', `The endpoint ${new URL(endpoint).origin} is plain http: set the storage option allow_http=true to use it`)
  }
  return { endpoint, account, credential }
}

function credentialOf(options: StorageOptions, env: NodeJS.ProcessEnv, emulator: boolean): AzureCredential | null {
  const key = option(options, KEYS.key, env) ?? (emulator ? EMULATOR_KEY : undefined)
  if (key) return { kind: 'key', key: Buffer.from(key, 'base64') }
  const sas = option(options, KEYS.sas, env)
  if (sas) return { kind: 'sas', query: sas.replace(/^\?/, '') }
  const token = option(options, KEYS.token, env)
  if (token) return { kind: 'token', token }
  if (isTrue(option(options, KEYS.skipSignature, env))) return { kind: 'anonymous' }
  return null
}

/** One "List Blobs" request; answers the names of blobs and virtual directories found. */
async function listBlobs(access: AzureAccess, location: ObjectStoreLocation, query: Record<string, string>): Promise<string[]> {
  const { endpoint, credential } = access
  const url = new URL(`${endpoint}/${encodeURIComponent(location.bucket)}`)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  const headers: Record<string, string> = {}
  authorizeAzure(access, 'GET', url, headers)
  let response: Response
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
  } catch (error) {
    throw unreachable(endpoint, error)
  }
  const body = await response.text()
  if (!response.ok) {
    const code = response.headers.get('x-ms-error-code') ?? /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? ''
    throw storeRefusal(location, response.status, code, credential.kind === 'anonymous' ? 'anonymous' : 'signed')
  }
  return [...body.matchAll(/<Name>([^<]*)<\/Name>/g)].map((m) => decodeXml(m[1]!))
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!)
}
