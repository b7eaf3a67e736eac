// A call the upstream never finishes while its replica drains (issue 68): the drain's bound holds, and
// the caller is answered at it, an error saying the replica stopped, rather than a 200 whose stream
// ends with no answer (a client then waits for its own time limit, not knowing what became of it).
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, startListening } from './support/proxy'
import { SLOW } from './support/timeouts'

const STALL = [process.execPath, join(ROOT, 'test/support/misbehaving-upstream.mjs'), 'stall']
const exited = (child: ChildProcess): Promise<number | null> => new Promise(resolve => child.once('exit', code => resolve(code)))

describe('a drain meets a call that never finishes', () => {
  it.each([['a stream', 'application/json, text/event-stream'], ['JSON', 'application/json, text/event-stream;q=0']])('answered as %s: the caller gets an error for its call at the bound, and the replica exits 0', async (_, accept) => {
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--drain-timeout', '2000', '--', ...STALL])
    try {
      const answer = fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
      }).then(response => response.text())
      await expect.poll(() => served.stderr()).toContain('listening on')
      await new Promise(resolve => setTimeout(resolve, 200))
      const code = exited(served.child)
      served.child.kill('SIGTERM')
      const body = await answer
      expect(body).toMatch(/"id":7/)
      expect(body).toMatch(/"isError":true|"error":/)
      expect(await code).toBe(0)
      expect(served.stderr()).toContain('1 cut at the bound')
    }
    finally {
      await served.close()
    }
  }, SLOW)
})
