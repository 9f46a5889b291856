import { describe, expect, it } from 'vitest'
import { namespaceKey, parseNamespaceKey, tableKey } from '../../src/renderer/lib/nodeKeys'
import { keys, namespaceOfPart } from '../../src/renderer/queries/keys'

describe('node keys: made and read in one place', () => {
  it('a namespace key reads back as its connection and path, whatever the names hold', () => {
    for (const namespace of [[], ['shop'], ['a:b', 'c"d', 'n:["x"]', ''], ['ü', '\u0000']]) {
      expect(parseNamespaceKey(namespaceKey('c:1', namespace))).toEqual({ connectionId: 'c:1', namespace })
    }
  })

  it('a table key is not read as a namespace key, and the two never collide', () => {
    expect(() => parseNamespaceKey(tableKey('c1', ['shop'], 'orders'))).toThrow(/not a namespace key/)
    expect(tableKey('c1', [], 'shop')).not.toBe(namespaceKey('c1', ['shop']))
  })

  it("a tree listing's key part reads back as its namespace path", () => {
    const [, , part] = keys.listing('c1', ['a', 'b/c'])
    expect(namespaceOfPart(part)).toEqual(['a', 'b/c'])
  })
})
