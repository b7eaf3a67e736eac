// The limits' store answering the take script with what the script never returns (a hostile or
// broken store, or another program on its port): a charge number no charge has, a kind or a wait that
// is no number, a wait that would go in a header as anything. Each is the store answering wrongly:
// the call is decided as when the store does not answer (refused, 503), never a crash, never a
// header built from the store's bytes.
import type { AddressInfo, Socket } from 'node:net'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { redisCount } from '../src/proxy/serve/redis-limits'

/** A store that answers every command after the first `+OK`s with `reply`. */
async function storeAnswering(reply: string): Promise<{ port: number, close: () => Promise<void> }> {
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => {})
    socket.on('data', chunk => socket.write(chunk.toString().includes('EVAL') ? reply : '+OK\r\n'))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise(resolve => {
      sockets.forEach(socket => socket.destroy())
      server.close(() => resolve())
    }),
  }
}

const charge = [{ key: 'c:ci', limit: { callsPerMinute: 6 }, count: 1, of: '' }]

describe('a store that answers the take script wrongly', () => {
  it.each([
    ['a charge no charge has', '*3\r\n:7\r\n:1\r\n:5\r\n'],
    ['a negative charge', '*1\r\n:-1\r\n'],
    ['a wait that is a string with a line break', '*3\r\n:1\r\n:1\r\n$12\r\n1\r\nx-evil: 1\r\n'],
    ['a wait of a million years', '*3\r\n:1\r\n:1\r\n:999999999999999\r\n'],
    ['a status where the array belongs', '+OK\r\n'],
    ['an array of arrays', '*1\r\n*1\r\n:0\r\n'],
  ])('%s: refused as a store that does not answer, said once', async (_, reply) => {
    const store = await storeAnswering(reply)
    const lines: string[] = []
    const count = redisCount({ host: '127.0.0.1', port: store.port, timeoutMs: 500, whenDown: 'refuse', name: 'redis://127.0.0.1', log: line => lines.push(line) })
    try {
      const taken = await count.take(charge)
      expect(taken).toEqual({ unavailable: 'its limits store does not answer', retryAfter: 1 })
      expect(lines).toEqual([expect.stringMatching(/is unreachable \(it answered the limits script with .*\); calls with limits are refused/)])
    }
    finally {
      count.close()
      await store.close()
    }
  })

  it('the script\'s own answers still decide: {0} passes, {1, 1, 9} waits 9 s', async () => {
    for (const [reply, expected] of [['*1\r\n:0\r\n', { release: expect.any(Function) }], ['*3\r\n:1\r\n:1\r\n:9\r\n', { retryAfter: 9, why: '6 calls a minute' }]] as const) {
      const store = await storeAnswering(reply)
      const count = redisCount({ host: '127.0.0.1', port: store.port, timeoutMs: 500, whenDown: 'refuse', name: 'redis://127.0.0.1', log: () => {} })
      try {
        expect(await count.take(charge)).toEqual(expected)
      }
      finally {
        count.close()
        await store.close()
      }
    }
  })
})
