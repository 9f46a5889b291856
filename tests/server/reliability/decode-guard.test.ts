import { describe, expect, it } from 'vitest'
import { DecodeGuard } from '../../../src/server/decodeGuard'
import { arrowStream } from '../support'

/** A decoder that never finishes (what apache-arrow did with some damaged bodies before the framing check). */
const SPIN = `require('node:worker_threads').parentPort.on('message', () => { for (;;) {} })`

describe('the decode guard (a worker under a deadline)', () => {
  it('passes a valid body and refuses an unreadable one with invalid_input', async () => {
    const guard = new DecodeGuard()
    try {
      await expect(guard.check(arrowStream())).resolves.toBeUndefined()
      await expect(guard.check(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]))).rejects.toMatchObject({ code: 'invalid_input' })
      // The worker survives a refusal and keeps working.
      await expect(guard.check(arrowStream())).resolves.toBeUndefined()
    } finally {
      await guard.close()
    }
  })

  it('terminates a decoder that spins, refuses the body, and keeps the event loop free meanwhile', async () => {
    const guard = new DecodeGuard(300, SPIN)
    try {
      let ticks = 0
      const ticking = setInterval(() => ticks++, 1)
      const outcome = guard.check(arrowStream())
      await expect(outcome).rejects.toMatchObject({ code: 'invalid_input', detail: expect.stringMatching(/longer than 300 ms/) })
      clearInterval(ticking)
      expect(ticks).toBeGreaterThan(0)
      // A second body gets a fresh worker (which spins too, and is stopped too): the guard does not wedge.
      await expect(guard.check(arrowStream())).rejects.toMatchObject({ code: 'invalid_input' })
    } finally {
      await guard.close()
    }
  })

  it('refuses work after close', async () => {
    const guard = new DecodeGuard()
    await guard.close()
    await expect(guard.check(arrowStream())).rejects.toMatchObject({ code: 'unavailable' })
  })
})
