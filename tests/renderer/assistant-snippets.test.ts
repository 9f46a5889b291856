import { describe, expect, it } from 'vitest'
import type { ConnectionInfo, SavedView } from '../../src/contract'
import { assistantSnippets } from '../../src/renderer/features/assistant/snippets'

const launcher = { command: 'npm', args: ['--prefix', '/repo', 'run', '--silent', 'mcp', '--'] }
const dir: ConnectionInfo = { id: 'c1', kind: 'dir', label: 'My Catalog', location: '/data/my catalog' }
const rest: ConnectionInfo = { id: 'c2', kind: 'rest', label: 'Team', location: 'https://lance.example/api', savedId: 's1' }
const restSaved: SavedView = {
  kind: 'rest',
  id: 's1',
  name: 'Team',
  endpoint: 'https://lance.example/api',
  auth: { kind: 'bearer', saved: true },
  database: { kind: 'name', value: 'prod' },
  headers: [
    { name: 'x-tenant', secret: false, value: 'acme', saved: true },
    { name: 'x-signature', secret: true, saved: true },
  ],
  createdAt: 0,
  updatedAt: 0,
}

const parsed = (set: ReturnType<typeof assistantSnippets>, id: string) => JSON.parse(set.snippets.find((s) => s.id === id)!.text)

describe('Connect an assistant… snippets', () => {
  it('start the checkout\'s server on the directory, read-only unless writes are allowed', () => {
    const set = assistantSnippets(dir, undefined, launcher, false)
    expect(set.snippets.map((s) => s.id)).toEqual(['claude', 'cursor', 'vscode'])
    const claude = parsed(set, 'claude').mcpServers['lance-my-catalog']
    expect(claude).toEqual({ command: 'npm', args: [...launcher.args, '--root', '/data/my catalog'] })
    expect(parsed(set, 'vscode').servers['lance-my-catalog']).toMatchObject({ type: 'stdio', command: 'npm' })
    expect(set.secrets).toEqual([])
    expect(set.placeholder).toBeNull()
    expect(parsed(assistantSnippets(dir, undefined, launcher, true), 'cursor').mcpServers['lance-my-catalog'].args).toContain('--allow-writes')
  })

  it('reference a REST catalog\'s secrets by environment variable, never by value, and keep plain headers as they are', () => {
    const set = assistantSnippets(rest, restSaved, launcher, false)
    const args: string[] = parsed(set, 'claude').mcpServers['lance-team'].args
    expect(args).toEqual([
      ...launcher.args,
      '--rest', 'https://lance.example/api',
      '--header-env', 'authorization=LCB_REST_AUTHORIZATION',
      '--header', 'x-service-database=prod',
      '--header', 'x-tenant=acme',
      '--header-env', 'x-signature=LCB_REST_X_SIGNATURE',
    ])
    expect(set.secrets.map((s) => s.variable)).toEqual(['LCB_REST_AUTHORIZATION', 'LCB_REST_X_SIGNATURE'])
    expect(parsed(set, 'cursor').mcpServers['lance-team'].env).toEqual({ LCB_REST_AUTHORIZATION: '${env:LCB_REST_AUTHORIZATION}', LCB_REST_X_SIGNATURE: '${env:LCB_REST_X_SIGNATURE}' })
    const vscode = parsed(set, 'vscode')
    expect(vscode.inputs.map((i: { id: string; password: boolean }) => [i.id, i.password])).toEqual([['lcb_rest_authorization', true], ['lcb_rest_x_signature', true]])
    expect(vscode.servers['lance-team'].env.LCB_REST_X_SIGNATURE).toBe('${input:lcb_rest_x_signature}')
  })

  it('name a placeholder for the checkout when the app does not run from one, and keep a bucket\'s plain options', () => {
    const bucket: ConnectionInfo = { id: 'c3', kind: 'dir', label: 'lake', location: 's3://bucket/lake', savedId: 'o1' }
    const saved: SavedView = { kind: 'object-store', id: 'o1', name: 'lake', uri: 's3://bucket/lake', options: { region: 'eu-west-1' }, secrets: ['aws_secret_access_key'], createdAt: 0, updatedAt: 0 }
    const set = assistantSnippets(bucket, saved, undefined, false)
    expect(set.placeholder).toMatch(/checkout/)
    const args: string[] = parsed(set, 'claude').mcpServers['lance-lake'].args
    expect(args).toContain(set.placeholder)
    expect(args.slice(-4)).toEqual(['--root', 's3://bucket/lake', '--storage-option', 'region=eu-west-1'])
    expect(set.snippets.every((s) => !s.text.includes('aws_secret_access_key'))).toBe(true)
  })
})
