import { describe, expect, it } from 'vitest'
import { ensureLanceThreads, MIN_LANCE_CPU_THREADS } from '../../src/core/lanceThreads'

describe('ensureLanceThreads', () => {
  it('gives a 2-core machine a pool large enough for the FTS index writer', () => {
    const env: NodeJS.ProcessEnv = {}
    expect(ensureLanceThreads(env, 2)).toBe(String(MIN_LANCE_CPU_THREADS))
    expect(env.LANCE_CPU_THREADS).toBe('4')
  })

  it('keeps one thread per core on larger machines', () => {
    const env: NodeJS.ProcessEnv = {}
    expect(ensureLanceThreads(env, 16)).toBe('16')
  })

  it("never overrides the user's own choice", () => {
    const env: NodeJS.ProcessEnv = { LANCE_CPU_THREADS: '2' }
    expect(ensureLanceThreads(env, 2)).toBe('2')
    expect(env.LANCE_CPU_THREADS).toBe('2')
  })
})
