// An OTLP collector that takes connections and never answers (issue 68): the spans still held are
// flushed on the way out for a bounded time, so a drained replica exits within its drain's bound and
// the flush's, not the exporter's own time limit (here ten minutes: past Kubernetes' 30 s, a kill).
import type { ChildProcess } from 'node:child_process'
import type { AddressInfo, Socket } from 'node:net'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, startListening } from './support/proxy'

const WELL = [process.execPath, join(ROOT, 'test/support/misbehaving-upstream.mjs'), 'well']
const exited = (child: ChildProcess): Promise<number | null> => new Promise(resolve => child.once('exit', code => resolve(code)))

describe('a collector that never answers', () => {
  it('holds no call, and a SIGTERM still ends the replica with 0 once drained, not at the exporter\'s time limit', async () => {
    const sockets: Socket[] = []
    const collector = createServer(socket => void sockets.push(socket.on('error', () => {})))
    await new Promise<void>(resolve => collector.listen(0, '127.0.0.1', resolve))
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--drain-timeout', '1000', '--', ...WELL], ROOT, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
      OTEL_BSP_EXPORT_TIMEOUT: '600000',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '1000',
    })
    try {
      for (let id = 1; id <= 3; id++) {
        const answer = await fetch(served.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
        })
        expect(await answer.text()).toContain('\\"text\\":\\"hi\\"')
      }
      await expect.poll(() => sockets.length, { timeout: 10_000 }).toBeGreaterThan(0)
      const code = exited(served.child)
      served.child.kill('SIGTERM')
      expect(await code).toBe(0)
    }
    finally {
      await served.close()
      sockets.forEach(socket => socket.destroy())
      collector.close()
    }
  }, 60_000)
})
