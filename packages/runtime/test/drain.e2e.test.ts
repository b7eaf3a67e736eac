// A replica's drain on SIGTERM, on a plain HTTP server: served through the grace, then each request
// answered 503 unread on the connection it came on, new ones included (a listener closed while a late
// balancer connects resets the connections the process had not taken yet, their requests lost), and
// the listener closed only once the calls in flight finished and no request came for a second.
import type { AddressInfo } from 'node:net'
import { createServer, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { drainer } from '../src/proxy/http/drain'

/** One request on a connection of its own: its status and body, or the socket error's code. */
function ask(port: number): Promise<{ status: number, body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => body += chunk).on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', error => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }))
    req.end('{}')
  })
}

describe('a replica\'s drain', () => {
  it('serves through the grace, then answers new connections 503 unread while it listens, and stops listening once its calls finished and none came for a second', async () => {
    const handled: string[] = []
    let release = (): void => {}
    const held = new Promise<void>(resolve => release = resolve)
    const server = createServer((req, res) => {
      if (!drain.admit(req, res))
        return
      handled.push(req.headers['x-call'] as string ?? 'call')
      void (handled.length === 1 ? held : Promise.resolve()).then(() => res.end('served'))
    })
    const drain = drainer(server)
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const inFlight = ask(port)
    await expect.poll(() => handled.length).toBe(1)
    const drained = drain.drain({ graceMs: 200, timeoutMs: 30_000 })
    expect(drain.draining).toBe(true)
    // Within the grace, served.
    expect(await ask(port)).toEqual({ status: 200, body: 'served' })
    // Past it, a new connection is taken and answered 503, its request not handled.
    await expect.poll(() => ask(port), { interval: 50 }).toMatchObject({ status: 503, body: expect.stringContaining('not processed') })
    const served = handled.length
    expect(await ask(port)).toMatchObject({ status: 503 })
    expect(handled).toHaveLength(served)
    release()
    expect(await inFlight).toEqual({ status: 200, body: 'served' })
    const counts = await drained
    expect(counts.cut).toBe(0)
    expect(counts.finished).toBe(served)
    expect(counts.refused).toBeGreaterThanOrEqual(2)
    // Then it no longer listens.
    expect(await ask(port)).toEqual({ error: 'ECONNREFUSED' })
  })
})
