import { describe, expect, it } from 'vitest'
import { componentProblem, isValidComponent, namespacePathSchema } from '../../../src/contract'
import { assertNamespacePath, assertTableId } from '../../../src/core/namespace/path'

describe('component rule', () => {
  it.each([
    ['demo'],
    ['images_2024'],
    ['a.b-c_d'],
    ['A1'],
    ['...'], // dots are allowed characters; only "." and ".." as a whole are refused
    ['.hidden'],
    ['x'.repeat(255)],
  ])('accepts %j', (value) => {
    expect(componentProblem(value)).toBeNull()
    expect(isValidComponent(value)).toBe(true)
  })

  it.each([
    ['', 'must not be empty'],
    ['.', 'not allowed'],
    ['..', 'not allowed'],
    ['a/b', '"/"'],
    ['a\\b', '"\\"'],
    ['with space', 'whitespace (U+0020)'],
    ['tab\t', 'whitespace (U+0009)'],
    ['é', '"é"'],
    ['東京', '"東"'],
    ['emoji🌅', '"🌅"'],
    ['a$b', '"$"'],
    ['nul\u0000', '"\u0000"'],
    ['x'.repeat(256), 'at most 255'],
    [42, 'must be a string'],
    [null, 'must be a string'],
  ])('refuses %j', (value, why) => {
    const problem = componentProblem(value)
    expect(problem).not.toBeNull()
    expect(problem).toContain(why)
    expect(isValidComponent(value)).toBe(false)
  })

  it('validates whole namespace paths and table ids before any disk access', () => {
    expect(() => assertNamespacePath(['a', 'b'])).not.toThrow()
    expect(() => assertNamespacePath([])).not.toThrow()
    expect(() => assertNamespacePath(['a', '..'])).toThrow(/namespace component 2/)
    expect(() => assertNamespacePath('a/b')).toThrow(/must be a list/)
    expect(() => assertTableId({ namespace: ['a'], name: '../etc' })).toThrow(/table name/)
    const parsed = namespacePathSchema.safeParse(['ok', '..'])
    expect(parsed.success).toBe(false)
  })
})
