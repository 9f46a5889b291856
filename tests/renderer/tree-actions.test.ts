import { describe, expect, it } from 'vitest'
import { operationLabels, type CapabilitySnapshot, type Operation } from '../../src/contract'
import { affectedNamespace, menuItemsFor, type TreeActionTarget } from '../../src/renderer/features/actions/treeActions'
import { nameProblem } from '../../src/renderer/lib/names'

function snapshot(unsupported: Partial<Record<Operation, string | undefined>>): CapabilitySnapshot {
  const all = Object.fromEntries(Object.keys(operationLabels).map((op) => [op, { supported: undefined }])) as CapabilitySnapshot
  for (const [op, reason] of Object.entries(unsupported)) all[op as Operation] = { supported: false, ...(reason ? { reason } : {}) }
  return all
}

const table: TreeActionTarget = { kind: 'table', connectionId: 'c1', namespace: ['a'], name: 't' }
const namespace: TreeActionTarget = { kind: 'namespace', connectionId: 'c1', namespace: ['a', 'b'], name: 'b' }
const root: TreeActionTarget = { kind: 'connection', connectionId: 'c1', namespace: [], name: 'cat' }

describe('tree actions', () => {
  it('offers the operations per kind of item; the root cannot be dropped', () => {
    expect(menuItemsFor(root, null).map((i) => i.label)).toEqual(['New namespace…', 'New table…', 'Refresh'])
    expect(menuItemsFor(namespace, null).map((i) => i.label)).toEqual(['New namespace…', 'New table…', 'Drop namespace…', 'Refresh'])
    expect(menuItemsFor(table, null).map((i) => i.label)).toEqual(['Rename table…', 'Drop table…', 'Open in new tab'])
  })

  it('disables only what the server is known not to support, with the reason', () => {
    expect(menuItemsFor(table, snapshot({})).every((i) => !i.disabled)).toBe(true)
    const items = menuItemsFor(table, snapshot({ 'table.rename': 'Renaming is off here' }))
    expect(items[0]).toMatchObject({ label: 'Rename table…', disabled: true })
    expect(items[0]?.reason).toBe('This server does not support renaming tables: Renaming is off here')
    expect(items[1]?.disabled).toBe(false)
    expect(menuItemsFor(namespace, snapshot({ 'namespace.create': undefined }))[0]?.reason).toBe('This server does not support creating namespaces')
  })

  it('shows a reason that names the operation itself as it is (a catalog on object storage)', () => {
    const items = menuItemsFor(table, snapshot({ 'table.rename': 'Renaming tables is not possible on object storage' }))
    expect(items[0]?.reason).toBe('Renaming tables is not possible on object storage')
  })

  it('reloads the parent after dropping a namespace, the namespace itself otherwise', () => {
    expect(affectedNamespace('drop-namespace', namespace)).toEqual(['a'])
    expect(affectedNamespace('create-namespace', namespace)).toEqual(['a', 'b'])
    expect(affectedNamespace('drop-table', table)).toEqual(['a'])
  })

  it('checks new names with the component rule', () => {
    expect(nameProblem('ok_name-1.v2')).toBeUndefined()
    expect(nameProblem('')).toBe('Enter a name')
    expect(nameProblem('a/b')).toMatch(/^The name contains "\/"/)
    expect(nameProblem('..')).toMatch(/not allowed/)
  })
})
