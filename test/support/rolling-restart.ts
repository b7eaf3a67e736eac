// Replicas of `flatmcp proxy --http` on ports of their own (a replica started again takes its port
// back, as a restarted pod or unit does), steady load from one real SDK 2.x client through a
// balancer with no retry by hand, and the two ways a replica goes away: a rolling restart (SIGTERM,
// wait for its exit, start it again, wait until ready) and a crash (SIGKILL). What the tests of
// test/proxy.replicas.test.ts and the bench's replicas section count.
import type { Client } from '@modelcontextprotocol/client'
import type { Balancer, Running } from './balancers'
import type { Listening } from './proxy'
import { once } from 'node:events'
import { ROOT } from './client'
import { CLI, freePort, startListening } from './proxy'
import { REPLICA_UPSTREAM } from './replica-snapshot'

export interface Replica {
  name: string
  port: number
  served: Listening
  /** The proxy's own flags it was started with (and is started again with). */
  flags?: string[]
}

/** One replica from `snapshot` on `port`, its upstream saying `name` (and answering after `env.DELAY_MS`, where given), with the proxy's `flags`. */
export function startReplica(snapshot: string, name: string, port: number, env: Record<string, string> = {}, flags: readonly string[] = []): Promise<Listening> {
  return startListening(process.execPath, [CLI, 'proxy', '--http', String(port), ...flags, '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM], ROOT, { REPLICA: name, ...env })
}

/** Three replicas, a, b and c, each on a free port of its own. */
export async function startReplicas(snapshot: string, env: Record<string, string> = {}, flags: string[] = []): Promise<Replica[]> {
  const ports = [await freePort(), await freePort(), await freePort()]
  return Promise.all(['a', 'b', 'c'].map(async (name, at) => ({ name, port: ports[at]!, flags, served: await startReplica(snapshot, name, ports[at]!, env, flags) })))
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** Resolves once `met` holds, looked at every 20 ms (bounded: `ms`, then an error saying `what`). */
export async function until(met: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (let waited = 0; !met(); waited += 20) {
    if (waited > ms)
      throw new Error(`not within ${ms / 1000} s: ${what}`)
    await sleep(20)
  }
}

export async function readyz(url: string): Promise<[number, string]> {
  try {
    const answer = await fetch(new URL('/readyz', url))
    return [answer.status, await answer.text()]
  }
  catch {
    return [0, 'refused']
  }
}

/** What steady load counted: calls sent, answered, and failed (each failure's message, once). */
export interface Counted {
  sent: number
  answered: number
  failed: number
  errors: string[]
  /** The replica that answered each call, in the order answered. */
  by: string[]
}

/** `wide` callers on `client`, each calling whoami in turn, until `stop` is called: then what they counted (`counted` meanwhile). */
export function steadyLoad(client: Client, wide: number): { counted: Readonly<Counted>, stop: () => Promise<Counted> } {
  const counted: Counted = { sent: 0, answered: 0, failed: 0, errors: [], by: [] }
  let running = true
  const caller = async (): Promise<void> => {
    while (running) {
      const n = counted.sent++
      try {
        const result = await client.callTool({ name: 'whoami', arguments: { n: String(n) } })
        const answer = JSON.parse((result.content as { text: string }[])[0]!.text) as { replica: string, n: number }
        if (answer.n !== n)
          throw new Error(`call ${n} answered as ${answer.n}`)
        counted.answered++
        counted.by.push(answer.replica)
      }
      catch (error) {
        counted.failed++
        const message = (error as Error).message
        if (!counted.errors.includes(message))
          counted.errors.push(message)
      }
    }
  }
  const callers = Array.from({ length: wide }, caller)
  return {
    counted,
    stop: async () => {
      running = false
      await Promise.all(callers)
      return counted
    },
  }
}

/** What the operator does around each replica's stop: behind nginx, mark it `down` and reload first, and back up after. */
export interface AroundStop {
  before: (at: number) => Promise<void>
  after: (at: number) => Promise<void>
}

/** What docs/proxy.md has an operator do around each replica's SIGTERM: behind nginx, mark it `down` and reload, then back. */
export function operatorSteps(balancer: Balancer, front: Running, configured: (down: number[]) => string): AroundStop | undefined {
  if (balancer === 'haproxy')
    return undefined
  return { before: at => front.reload(configured([at])), after: () => front.reload(configured([])) }
}

/** Resolves once the load's callers have had a call answered by `replica` since now: the balancer sends it work again. */
export function answeredBy(load: { counted: Readonly<Counted> }, replica: Replica): Promise<void> {
  const from = load.counted.by.length
  return until(() => load.counted.by.includes(replica.name, from), `a call answered by replica ${replica.name} through the balancer`)
}

/**
 * Each replica in turn stopped with SIGTERM (its exit code kept), started again on its port (with
 * the flags it had), and waited for until ready and `settle` more (ms, or until it resolves);
 * `around` runs before the stop and once it is ready.
 */
export async function rollingRestart(replicas: Replica[], snapshot: string, settle: number | ((replica: Replica) => Promise<void>), env: Record<string, string> = {}, around?: AroundStop): Promise<(number | null)[]> {
  const codes: (number | null)[] = []
  for (const [at, replica] of replicas.entries()) {
    await around?.before(at)
    const exited = once(replica.served.child, 'exit')
    replica.served.child.kill('SIGTERM')
    codes.push((await exited)[0] as number | null)
    replica.served = await startReplica(snapshot, replica.name, replica.port, env, replica.flags)
    while ((await readyz(replica.served.url))[0] !== 200)
      await sleep(100)
    await around?.after(at)
    // The balancer's own check sees it up (HAProxy's every second).
    await (typeof settle === 'number' ? sleep(settle) : settle(replica))
  }
  return codes
}
