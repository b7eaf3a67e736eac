// Redis as operators run it beside replicas, from Debian's package: installed with apt when absent,
// started on 127.0.0.1 on a free port with no persistence, stopped after. Without apt or root the
// tests that need it skip and say so; under CI (FLATMCP_REQUIRE_REDIS=1) that is a failure instead.
import type { ChildProcess } from 'node:child_process'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { freePort, listening } from './proxy'

const REQUIRED = process.env.FLATMCP_REQUIRE_REDIS === '1'
const BINARY = '/usr/bin/redis-server'

const aptGet = (args: string[]): void => {
  execFileSync('apt-get', args, { stdio: 'ignore', timeout: 300_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}

/** redis-server, installed with apt if absent (the package index refreshed once if the first try fails); why not, where it cannot be. */
export function ensureRedis(): { binary: string } | { missing: string } {
  if (!existsSync(BINARY)) {
    try {
      try {
        aptGet(['install', '-y', '--no-install-recommends', 'redis-server'])
      }
      catch {
        aptGet(['update'])
        aptGet(['install', '-y', '--no-install-recommends', 'redis-server'])
      }
    }
    catch (error) {
      const missing = `redis-server is not installed and apt-get could not install it (${(error as Error).message.split('\n')[0]})`
      if (REQUIRED)
        throw new Error(`${missing}; it is required here (FLATMCP_REQUIRE_REDIS=1)`, { cause: error })
      return { missing }
    }
  }
  return { binary: BINARY }
}

export interface RunningRedis {
  port: number
  url: string
  /** Stops it (its counts are gone: nothing is saved). */
  stop: () => Promise<void>
  /** Starts it again on the same port, empty. */
  start: () => Promise<void>
}

/** A Redis on 127.0.0.1 on a free port, saving nothing. */
export async function startRedis(binary: string): Promise<RunningRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async (): Promise<void> => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' })
    await listening(port)
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
    },
  }
}
