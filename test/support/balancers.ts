// The balancers operators put in front of replicas, as Debian packages: installed with apt when
// absent (an operator's machine has them; a developer's may not), started on 127.0.0.1 with the
// configuration docs/proxy.md prints, and stopped. Without apt or root the tests that need them
// skip and say so; under CI (FLATMCP_REQUIRE_BALANCERS=1) that is a failure instead.
import type { ChildProcess } from 'node:child_process'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './client'
import { listening } from './proxy'

const REQUIRED = process.env.FLATMCP_REQUIRE_BALANCERS === '1'

/** Each balancer's Debian package and the program it installs. */
const PACKAGES = { haproxy: { name: 'haproxy', binary: '/usr/sbin/haproxy' }, nginx: { name: 'nginx-light', binary: '/usr/sbin/nginx' } } as const
export type Balancer = keyof typeof PACKAGES

const aptGet = (args: string[]): void => {
  execFileSync('apt-get', args, { stdio: 'ignore', timeout: 300_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
}

/** The balancer's program, installed with apt if absent (the package index refreshed once if the first try fails); why not, where it cannot be. */
export function ensureBalancer(balancer: Balancer): { binary: string } | { missing: string } {
  const { name, binary } = PACKAGES[balancer]
  if (!existsSync(binary)) {
    try {
      try {
        aptGet(['install', '-y', '--no-install-recommends', name])
      }
      catch {
        aptGet(['update'])
        aptGet(['install', '-y', '--no-install-recommends', name])
      }
    }
    catch (error) {
      const missing = `${name} is not installed and apt-get could not install it (${(error as Error).message.split('\n')[0]})`
      if (REQUIRED)
        throw new Error(`${missing}; it is required here (FLATMCP_REQUIRE_BALANCERS=1)`, { cause: error })
      return { missing }
    }
  }
  return { binary }
}

/**
 * The configuration docs/proxy.md prints (examples/replicas), listening on `port`, in front of the
 * replicas on `replicas`; those at the indices in `down` marked `down`, as docs/proxy.md's rolling
 * restart behind nginx has it (nginx only).
 */
export function documentedConfig(balancer: Balancer, port: number, replicas: readonly number[], down: readonly number[] = []): string {
  const file = readFileSync(join(ROOT, 'examples/replicas', balancer === 'haproxy' ? 'haproxy.cfg' : 'nginx.conf'), 'utf8')
  return replicas.reduce((config, replica, at) => config.replace(new RegExp(`127\\.0\\.0\\.1:808${at + 1}([^;\\n]*)(;?)`), `127.0.0.1:${replica}$1${down.includes(at) ? ' down' : ''}$2`), file.replace('127.0.0.1:8080', `127.0.0.1:${port}`))
}

export interface Running {
  url: string
  /** Rewrites the configuration and reloads it (nginx: `SIGHUP`), resolving once every worker of the old one has exited. */
  reload: (config: string) => Promise<void>
  stop: () => Promise<void>
}

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): Set<number> {
  const children = new Set<number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry))
      continue
    try {
      // The parent is the 2nd field after the command's parenthesised name.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        children.add(Number(entry))
    }
    catch {
      // Gone between the listing and the read: not a child any more.
    }
  }
  return children
}

/** Starts `binary` with `config` (written to a file of its own folder) and waits until `port` listens. */
export async function startBalancer(balancer: Balancer, binary: string, config: string, port: number): Promise<Running> {
  const folder = mkdtempSync(join(tmpdir(), `flatmcp-${balancer}-`))
  const file = join(folder, `${balancer}.conf`)
  writeFileSync(file, config)
  const args = balancer === 'haproxy' ? ['-db', '-f', file] : ['-p', folder, '-c', file, '-g', 'daemon off;']
  const child: ChildProcess = spawn(binary, args, { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = once(child, 'exit').then(() => {
    throw new Error(`${balancer} exited: ${stderr}`)
  })
  await Promise.race([listening(port), exited])
  exited.catch(() => {})
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    reload: async (next) => {
      if (balancer !== 'nginx')
        throw new Error('only nginx is reloaded here')
      const old = childrenOf(child.pid!)
      writeFileSync(file, next)
      child.kill('SIGHUP')
      // Done once the old workers, which finish what they hold, have all gone and new ones serve.
      for (let waited = 0; ; waited += 20) {
        const now = childrenOf(child.pid!)
        if (now.size > 0 && [...old].every(pid => !now.has(pid)))
          return
        if (waited > 10_000)
          throw new Error(`nginx did not reload within 10 s: ${stderr}`)
        await new Promise(resolve => setTimeout(resolve, 20))
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
    },
  }
}
