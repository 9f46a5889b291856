import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isAlive } from '../../../../src/core/procStat'
import { until, untilZombie } from '../../../helpers/processes'

/**
 * Whether a crashed writer's process runs, as recovery decides it: a zombie is dead, and a process that started
 * after the writer's mark was made is another process with the same id (pids are reused, in containers even by
 * the restarted app itself).
 */
const linux = process.platform === 'linux'
const started = Date.now() - process.uptime() * 1000

describe('isAlive', () => {
  it('this process: alive for marks it made, not for a mark older than it (its pid reused)', () => {
    expect(isAlive(process.pid)).toBe(true)
    expect(isAlive(process.pid, Date.now())).toBe(true)
    expect(isAlive(process.pid, started - 60_000)).toBe(false)
  })

  it('another running process: alive, unless the mark is older than it', async () => {
    const child = spawn('sleep', ['600'])
    try {
      await new Promise((resolve) => child.once('spawn', resolve))
      expect(isAlive(child.pid!)).toBe(true)
      expect(isAlive(child.pid!, Date.now())).toBe(true)
      if (linux) expect(isAlive(child.pid!, Date.now() - 3_600_000)).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it.runIf(linux)('a zombie (killed, never waited for by its parent) is not alive', async () => {
    // The killed process's parent must never reap it. `sh` reaps finished children between its commands, so the
    // kill waits until it has `exec`ed `sleep 601`, which never waits (runs 36-37: a kill that landed earlier left no
    // zombie, ENOENT on /proc/<pid>/stat). Killing that parent at the end hands the zombie to init.
    const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 601'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))))
      await until(() => readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8') === 'sleep\x00601\x00')
      expect(isAlive(pid, Date.now())).toBe(true)
      process.kill(pid, 'SIGKILL')
      await untilZombie(pid)
      expect(() => process.kill(pid, 0)).not.toThrow() // what made recovery leave a dead writer's staging table
      expect(isAlive(pid, Date.now())).toBe(false)
    } finally {
      parent.kill('SIGKILL')
    }
  })

  it('no process, or not a pid', () => {
    expect(isAlive(0)).toBe(false)
    expect(isAlive(-1)).toBe(false)
    expect(isAlive(Number.NaN)).toBe(false)
    expect(isAlive(2 ** 22 + 1)).toBe(false)
  })
})
