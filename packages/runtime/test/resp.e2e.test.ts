// The limits store's connection against replies a broken or hostile store sends: garbage, a bulk
// string or an array larger than any the proxy asks for, a reply that never comes, a store that
// closes. Each fails its command with a reason, at once or at the command's time limit, and the next
// command connects again; nothing crashes or waits for ever.
import type { AddressInfo, Socket } from 'node:net'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { respClient } from '../src/proxy/serve/resp-client'
import { encodeCommand, readReplies, RespError } from '../src/proxy/serve/resp-parse'

/** A store that answers each chunk it reads with `answer(chunk, connection number)`; undefined answers nothing. */
async function fakeStore(answer: (chunk: string, connection: number) => string | undefined | 'close'): Promise<{ port: number, connections: () => number, close: () => Promise<void> }> {
  let connections = 0
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    const connection = ++connections
    sockets.push(socket)
    socket.on('data', (chunk) => {
      const reply = answer(chunk.toString(), connection)
      if (reply === 'close')
        socket.destroy()
      else if (reply !== undefined)
        socket.write(reply)
    })
    socket.on('error', () => {})
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise(resolve => {
      sockets.forEach(socket => socket.destroy())
      server.close(() => resolve())
    }),
  }
}

describe('RESP replies', () => {
  it('reads each kind whole, waits for a reply still arriving, and refuses what is no RESP or too large', () => {
    const { replies, rest } = readReplies(Buffer.from('+OK\r\n-NOSCRIPT no\r\n:42\r\n$3\r\nabc\r\n$-1\r\n*2\r\n:0\r\n$1\r\nx\r\n*1\r\n$5\r\nab'))
    expect(replies.slice(0, 3)).toEqual(['OK', expect.any(RespError), 42])
    expect(replies.slice(3)).toEqual(['abc', null, [0, 'x']])
    expect(rest.toString()).toBe('*1\r\n$5\r\nab')
    for (const [bytes, why] of [
      ['?what\r\n', /starts with byte 63/],
      ['$99999999999\r\n', /bulk reply of 99999999999 bytes/],
      ['*100000\r\n', /array reply of 100000 items/],
      ['*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n', /nested too deep/],
      [':12x\r\n', /where a number belongs/],
      ['$2\r\nabcd\r\n', /longer than its length says/],
      [`+${'a'.repeat(5000)}`, /longer than any/],
    ] as const)
      expect(() => readReplies(Buffer.from(bytes)), bytes.slice(0, 20)).toThrow(why)
    expect(encodeCommand(['ZREM', 'k', 7]).toString()).toBe('*3\r\n$4\r\nZREM\r\n$1\r\nk\r\n$1\r\n7\r\n')
  })

  it('a store that answers garbage, a huge bulk length, nothing, or hangs up fails the command with why, and the next command connects again', async () => {
    const store = await fakeStore((chunk, connection) => {
      if (!chunk.includes('PING'))
        return '+OK\r\n'
      const replies: Record<number, string | undefined> = { 1: '%garbage\r\n', 2: '$2147483647\r\n', 3: undefined, 4: 'close' }
      return connection in replies ? replies[connection] : '+PONG\r\n'
    })
    const client = respClient({ host: '127.0.0.1', port: store.port, timeoutMs: 200 })
    try {
      await expect(client.command(['PING'])).rejects.toThrow(/not RESP: a reply that starts with byte 37/)
      await expect(client.command(['PING'])).rejects.toThrow(/not RESP: a bulk reply of 2147483647 bytes/)
      // Nothing comes: the time limit, not a wait for ever.
      await expect(client.command(['PING'])).rejects.toThrow(/did not answer within 200 ms/)
      await expect(client.command(['PING'])).rejects.toThrow(/closed the connection/)
      expect(await client.command(['PING'])).toBe('PONG')
      expect(store.connections()).toBe(5)
    }
    finally {
      client.close()
      await store.close()
    }
  })

  it('a store that answers a byte at a time is read whole; one that trickles past the time limit fails it; an error reply fails only its command', async () => {
    let slow = false
    const trickle = async (write: (text: string) => void): Promise<void> => {
      for (const byte of '$5\r\nhello\r\n') {
        write(byte)
        await new Promise(resolve => setTimeout(resolve, slow ? 100 : 5))
      }
    }
    const sockets: Socket[] = []
    const server = createServer((socket) => {
      sockets.push(socket)
      socket.on('error', () => {})
      socket.on('data', (chunk) => {
        const text = chunk.toString()
        if (text.includes('BAD'))
          socket.write('-ERR unknown command\r\n')
        else void trickle(byte => socket.writable && socket.write(byte))
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    const client = respClient({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, timeoutMs: 500 })
    try {
      expect(await client.command(['GET', 'k'])).toBe('hello')
      await expect(client.command(['BAD'])).rejects.toThrow(RespError)
      expect(await client.command(['GET', 'k'])).toBe('hello')
      slow = true
      await expect(client.command(['GET', 'k'])).rejects.toThrow(/did not answer within 500 ms/)
    }
    finally {
      client.close()
      sockets.forEach(socket => socket.destroy())
      await new Promise(resolve => server.close(resolve))
    }
  })

  it('a store that refuses AUTH fails the command and says so, and the password is in no message', async () => {
    const store = await fakeStore(chunk => chunk.includes('AUTH') ? '-WRONGPASS invalid username-password pair\r\n' : '+PONG\r\n')
    const client = respClient({ host: '127.0.0.1', port: store.port, timeoutMs: 500, user: 'ops', password: 's3cret-pw' })
    try {
      const error = await client.command(['PING']).then(() => undefined, (error: unknown) => error as Error)
      expect(error?.message).toMatch(/refused AUTH: WRONGPASS/)
      expect(error?.message).not.toContain('s3cret-pw')
    }
    finally {
      client.close()
      await store.close()
    }
  })

  it('a store that does not listen fails the command at once', async () => {
    const store = await fakeStore(() => undefined)
    const { port } = store
    await store.close()
    const client = respClient({ host: '127.0.0.1', port, timeoutMs: 5000 })
    const started = process.hrtime.bigint()
    await expect(client.command(['PING'])).rejects.toThrow(/ECONNREFUSED/)
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5000)
    client.close()
  })
})
