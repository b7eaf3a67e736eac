// The loopback rule, one function for the command, the HTTP serving and the guard: which hosts need no
// caller credential, and which Host names a serving answers to.
import type { UpstreamClient } from '@flatmcp/runtime/proxy'
import { createProxy, httpGuard, isLoopback, needsCallerCredential, serveProxy } from '@flatmcp/runtime/proxy'
import { describe, expect, it } from 'vitest'
import { hostsServed, listenAddress, urlHost } from '../src/proxy/http/loopback'

describe('loopback', () => {
  it('is localhost, 127.0.0.1 and ::1, bracketed or not, in any case', () => {
    for (const host of ['localhost', 'LocalHost', '127.0.0.1', '::1', '[::1]'])
      expect(isLoopback(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '[::]', '127.0.0.1.example.com', 'localhost.example.com', '192.0.2.1', '::2'])
      expect(isLoopback(host), host).toBe(false)
  })

  it('needs a caller credential beyond loopback only', () => {
    expect(needsCallerCredential('[::1]')).toBe(false)
    expect(needsCallerCredential('::1')).toBe(false)
    expect(needsCallerCredential('0.0.0.0')).toBe(true)
    expect(needsCallerCredential('0.0.0.0', ['token'])).toBe(false)
  })

  it('answers to the loopback names on loopback, to the address it serves, or to those allowed on every address', () => {
    expect(hostsServed('::1')).toEqual(['localhost', '127.0.0.1', '[::1]'])
    expect(hostsServed('[::1]', ['proxy.local'])).toEqual(['localhost', '127.0.0.1', '[::1]', 'proxy.local'])
    expect(hostsServed('192.0.2.1')).toEqual(['192.0.2.1'])
    expect(hostsServed('2001:db8::1')).toEqual(['[2001:db8::1]'])
    expect(hostsServed('0.0.0.0')).toBeUndefined()
    expect(hostsServed('::', ['mcp.example.com'])).toEqual(['mcp.example.com'])
    expect([listenAddress('[::1]'), listenAddress('::1'), listenAddress('127.0.0.1')]).toEqual(['::1', '::1', '127.0.0.1'])
    expect([urlHost('[::1]'), urlHost('::1'), urlHost('localhost')]).toEqual(['[::1]', '[::1]', 'localhost'])
  })

  it('serves on [::1] written either way, with no credential, and answers a client there', async () => {
    const upstream = {
      request: async (message: { method: string }) => message.method === 'tools/list' ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } : {},
      notification: async () => {},
      getServerCapabilities: () => ({ tools: {} }),
      getServerVersion: () => ({ name: 'fake', version: '1' }),
      getInstructions: () => undefined,
      setNotificationHandler: () => {},
    } as unknown as UpstreamClient
    for (const host of ['[::1]', '::1']) {
      const served = await serveProxy(await createProxy(upstream, { log: () => {} }), { http: { host, port: 0 }, log: () => {} })
      try {
        expect(served.url).toMatch(/^http:\/\/\[::1\]:\d+\/mcp$/)
        const answer = await fetch(served.url!, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
        expect(await answer.text()).toContain('"echo"')
      }
      finally {
        await served.close()
      }
    }
  })

  it('lets a page from a loopback origin through the guard, [::1] included, and refuses another', async () => {
    const guard = httpGuard({})
    const from = async (origin: string): Promise<number> => {
      const checked = await guard(new Request('http://127.0.0.1:8080/mcp', { headers: { origin } }))
      return checked instanceof Response ? checked.status : 0
    }
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:5173'])
      expect(await from(origin), origin).toBe(0)
    expect(await from('https://evil.example')).toBe(403)
  })
})
