import { defineTool } from '@flatmcp/runtime'
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/sdk'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readId } from '../src/host/stdio-transport'

const echo = defineTool({
  name: 'echo',
  input: z.object({ text: z.string() }),
  handler: ({ text }) => text,
})

/** A server on a StdioTransport over in-memory pipes: write raw lines in, read answers out by id. */
async function pipedServer(maxMessageBytes?: number) {
  const input = new PassThrough()
  const output = new PassThrough()
  const errors: string[] = []
  const server = createMcpServer([echo], { name: 'test', version: '1.0.0' })
  server.onerror = error => errors.push(error.message)
  await server.connect(new StdioTransport(input, output, maxMessageBytes === undefined ? {} : { maxMessageBytes }))
  let buffered = ''
  const answers: any[] = []
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    answers.push(...lines.map(line => JSON.parse(line)))
  })
  const next = async (count: number): Promise<any[]> => {
    for (let waited = 0; answers.length < count && waited < 5000; waited += 5)
      await new Promise(resolve => setTimeout(resolve, 5))
    return answers.splice(0, count)
  }
  const call = (id: number | string, text: string) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } })}\n`
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`)
  await next(1)
  return { input, next, call, errors, close: () => server.close() }
}

describe('StdioTransport', () => {
  it('writes waiting on a client that is not reading share one drain listener (each added one: a warning past 10), and all go out once it reads', async () => {
    const output = new PassThrough({ highWaterMark: 16 })
    const transport = new StdioTransport(new PassThrough(), output)
    await transport.start()
    const sent = Array.from({ length: 50 }, (_, i) => transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${i}` } }))
    expect(output.listenerCount('drain')).toBe(1)
    let lines = ''
    output.on('data', (chunk: Buffer) => void (lines += chunk.toString()))
    await Promise.all(sent)
    expect(lines.split('\n').filter(Boolean)).toHaveLength(50)
    expect(output.listenerCount('drain')).toBe(0)
  })

  it('answers an oversized line with an error that carries its id, and the session goes on', async () => {
    const pipe = await pipedServer(1024 * 1024)
    const big = pipe.call(7, 'x'.repeat(1.5 * 1024 * 1024))
    // Written in pieces, as a pipe delivers it.
    for (let at = 0; at < big.length; at += 65536)
      pipe.input.write(big.slice(at, at + 65536))
    pipe.input.write(pipe.call(8, 'after'))
    const [tooBig, after] = await pipe.next(2)
    expect(tooBig).toMatchObject({ id: 7, error: { code: -32600 } })
    expect(tooBig.error.message).toMatch(/too large: \d+ bytes; this server reads at most 1048576/)
    expect(after).toMatchObject({ id: 8, result: { content: [{ type: 'text', text: 'after' }] } })
    expect(pipe.errors.join('\n')).toContain('too large')
    await pipe.close()
  })

  it('reads 11 MB lines past the default limit as errors, not as the end of the session', async () => {
    const pipe = await pipedServer()
    pipe.input.write(pipe.call('big', 'y'.repeat(11 * 1024 * 1024)))
    pipe.input.write(pipe.call(9, 'still here'))
    const [tooBig, after] = await pipe.next(2)
    expect(tooBig).toMatchObject({ id: 'big', error: { code: -32600 } })
    expect(after.result.content[0].text).toBe('still here')
    await pipe.close()
  })

  it('answers lines that are not JSON or not JSON-RPC, and skips blank lines', async () => {
    const pipe = await pipedServer()
    pipe.input.write('\n\r\n{"jsonrpc":"2.0","id":3,"method":\n')
    pipe.input.write('[1,2]\n{"jsonrpc":"1.0","id":4,"method":"ping"}\n{"jsonrpc":"2.0","id":5,"method":"ping","params":[1]}\n')
    pipe.input.write('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}\n{"jsonrpc":"2.0","result":{}}\n')
    pipe.input.write(`${pipe.call(6, 'ok').trimEnd()}\r\n`)
    const answers = await pipe.next(5)
    expect(answers.map(a => [a.id, a.error?.code])).toEqual([[3, -32700], [null, -32600], [4, -32600], [5, -32600], [6, undefined]])
    expect(answers[2].error.message).toContain('"jsonrpc" must be "2.0"')
    // The malformed responses were reported, not answered.
    expect(pipe.errors.filter(e => e.startsWith('Invalid response'))).toHaveLength(1)
    await pipe.close()
  })

  it('finds a top-level id in a message prefix, never one inside params or a string', () => {
    expect(readId('{"jsonrpc":"2.0","id":12,"method":"x"')).toBe(12)
    expect(readId('{"method":"x","params":{"id":1,"s":"\\"id\\":2"},"id":"a\\"b"')).toBe('a"b')
    expect(readId('{"params":{"id":1},"text":"}{\\"id\\":3')).toBeNull()
    expect(readId('{"id":1.5}')).toBeNull()
    expect(readId('')).toBeNull()
  })
})
