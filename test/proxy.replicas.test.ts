// Replicas of `flatmcp proxy --http` from one snapshot behind the balancers operators run (HAProxy and
// nginx, Debian's packages, with the configurations of examples/replicas that docs/proxy.md prints):
// modern-era calls served by any replica and carried past one killed mid-run by one retry; a 2025-era
// client served with no affinity, since the proxy keeps nothing per session; the health endpoints the
// balancers check; and the Kubernetes manifest read as Kubernetes would.
import type { Client } from '@modelcontextprotocol/client'
import type { Balancer } from './support/balancers'
import type { Listening } from './support/proxy'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { ensureBalancer, startBalancer } from './support/balancers'
import { ROOT } from './support/client'
import { REPLICA_UPSTREAM, replicaSnapshot } from './support/replica-snapshot'
import { CLI, freePort, httpClient, startListening } from './support/proxy'

const EXAMPLES = join(ROOT, 'examples/replicas')
const UPSTREAM = REPLICA_UPSTREAM
let snapshot = ''
let remove = (): void => {}

beforeAll(async () => {
  ({ snapshot, remove } = await replicaSnapshot())
})
afterAll(() => remove())

/** Three replicas of the proxy from the snapshot, each with its own upstream, which says its replica's name. */
async function replicas(): Promise<Record<'a' | 'b' | 'c', Listening>> {
  const started = await Promise.all((['a', 'b', 'c'] as const).map(name => startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--artifact', snapshot, '--', process.execPath, UPSTREAM], ROOT, { REPLICA: name })))
  return { a: started[0]!, b: started[1]!, c: started[2]! }
}

const portOf = (url: string): number => Number(new URL(url).port)

/** The documented configuration, its ports those of this run. */
function configFor(balancer: Balancer, port: number, served: Record<string, Listening>): string {
  const file = readFileSync(join(EXAMPLES, balancer === 'haproxy' ? 'haproxy.cfg' : 'nginx.conf'), 'utf8')
  return file
    .replace('127.0.0.1:8080', `127.0.0.1:${port}`)
    .replace('127.0.0.1:8081', `127.0.0.1:${portOf(served.a!.url)}`)
    .replace('127.0.0.1:8082', `127.0.0.1:${portOf(served.b!.url)}`)
    .replace('127.0.0.1:8083', `127.0.0.1:${portOf(served.c!.url)}`)
}

interface Answer { replica: string, n: number, meta: Record<string, unknown> }

/** One whoami call, `n` sent as text (the proxy repairs it): the upstream's answer, and how many tries it took (a client retries once). */
async function whoami(client: Client, n: number): Promise<Answer & { tries: number }> {
  for (let tries = 1; ; tries++) {
    try {
      const result = await client.callTool({ name: 'whoami', arguments: { n: String(n) } })
      return { ...JSON.parse((result.content as { text: string }[])[0]!.text) as Answer, tries }
    }
    catch (error) {
      if (tries === 2)
        throw error
    }
  }
}

/** `count` calls in waves of `wide` at once; `between(wave)` runs after each wave. */
async function waves(client: Client, count: number, wide: number, between: (wave: number) => Promise<void> = async () => {}): Promise<(Answer & { tries: number })[]> {
  const answers: (Answer & { tries: number })[] = []
  for (let wave = 0; wave * wide < count; wave++) {
    answers.push(...await Promise.all(Array.from({ length: Math.min(wide, count - wave * wide) }, (_, at) => whoami(client, wave * wide + at))))
    await between(wave)
  }
  return answers
}

async function readyz(url: string): Promise<[number, string]> {
  const answer = await fetch(new URL('/readyz', url))
  return [answer.status, await answer.text()]
}

describe.each(['haproxy', 'nginx'] as const)('replicas behind %s', (balancer) => {
  const installed = ensureBalancer(balancer)
  it.skipIf('missing' in installed)(`three replicas from one snapshot: 300 modern-era calls carried past one killed mid-run by one retry, and 100 of a 2025-era client with no affinity (${'missing' in installed ? installed.missing : 'installed'})`, async () => {
    const served = await replicas()
    const port = await freePort()
    const front = await startBalancer(balancer, (installed as { binary: string }).binary, configFor(balancer, port, served), port)
    const clients: Client[] = []
    try {
      for (const replica of Object.values(served))
        expect(await readyz(replica.url)).toEqual([200, 'ok\n'])
      const modern = await httpClient(front.url, 'modern')
      clients.push(modern)
      let killedAfter = -1
      const answers = await waves(modern, 300, 10, async (wave) => {
        if (wave === 14) {
          served.b.child.kill('SIGKILL')
          killedAfter = (wave + 1) * 10
        }
      })
      // Every call answered, its number repaired from text, by the replica the balancer chose.
      expect(answers.map(answer => answer.n)).toEqual(Array.from({ length: 300 }, (_, n) => n))
      expect(new Set(answers.slice(0, killedAfter).map(answer => answer.replica))).toEqual(new Set(['a', 'b', 'c']))
      // Past the kill, b answers nothing once the balancer has seen it gone (a wave or two).
      expect(answers.slice(killedAfter + 30).filter(answer => answer.replica === 'b')).toEqual([])
      expect(new Set(answers.slice(killedAfter).map(answer => answer.replica))).toEqual(new Set(['a', 'c']))
      const retried = answers.filter(answer => answer.tries > 1).length
      console.log(`${balancer}: 300 modern-era calls, ${retried} retried once after replica b was killed at call ${killedAfter}`)
      expect(retried).toBeLessThanOrEqual(10)
      const legacy = await httpClient(front.url, 'legacy')
      clients.push(legacy)
      const older = await waves(legacy, 100, 1)
      expect(older.map(answer => answer.n)).toEqual(Array.from({ length: 100 }, (_, n) => n))
      expect(older.every(answer => answer.tries === 1)).toBe(true)
      // No affinity: the session's calls went to both replicas left.
      expect(new Set(older.map(answer => answer.replica))).toEqual(new Set(['a', 'c']))
    }
    finally {
      await Promise.all(clients.map(client => client.close().catch(() => {})))
      await front.stop()
      await Promise.all(Object.values(served).map(replica => replica.close()))
    }
  })
})

describe('the health endpoints a balancer checks', () => {
  it('/healthz answers while the process does; /readyz only while the list is loaded and the upstream answers a ping, else 503 saying why; neither asks for the callers\' credential', async () => {
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--auth-token', 'secret', '--artifact', snapshot, '--', process.execPath, UPSTREAM])
    // An upstream that answers nothing once it has listed its tools: the replica is alive, not ready.
    const waiting = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--auth-token', 'secret', '--artifact', snapshot, '--', process.execPath, UPSTREAM], ROOT, { HUNG_AFTER_LIST: '1' })
    try {
      await expect.poll(() => readyz(served.url), { timeout: 10_000 }).toEqual([200, 'ok\n'])
      expect((await fetch(new URL('/healthz', waiting.url))).status).toBe(200)
      expect(await readyz(waiting.url)).toEqual([503, 'not ready: the upstream did not answer a ping within 2 s\n'])
      // The MCP endpoint still asks for the credential.
      expect((await fetch(waiting.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401)
    }
    finally {
      await Promise.all([served.close(), waiting.close()])
    }
  })
})

describe('the Kubernetes manifest of examples/replicas', () => {
  it('is a Deployment of three proxies from one snapshot, probed at /readyz and /healthz, and a Service in front', () => {
    const documents = parseAllDocuments(readFileSync(join(EXAMPLES, 'kubernetes.yaml'), 'utf8')).map(document => document.toJS() as Record<string, any>)
    expect(documents.map(document => document.kind)).toEqual(['Deployment', 'Service'])
    const [deployment, service] = documents as [Record<string, any>, Record<string, any>]
    expect(deployment.spec.replicas).toBe(3)
    const container = deployment.spec.template.spec.containers[0]
    expect(container.command.slice(0, 7)).toEqual(['npx', '-y', expect.stringMatching(/^flatmcp@\d/), 'proxy', '--http', '8080', '--host'])
    expect(container.command).toEqual(expect.arrayContaining(['--artifact', '--auth-token-file']))
    expect(container.readinessProbe.httpGet.path).toBe('/readyz')
    expect(container.livenessProbe.httpGet.path).toBe('/healthz')
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels)
    expect(service.spec.ports[0].targetPort).toBe(container.ports[0].name)
  })
})
