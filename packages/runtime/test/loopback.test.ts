// The loopback rule, one function for the command, the HTTP serving and the guard: which hosts need no
// caller credential, and which Host names a serving answers to.
import { httpGuard, isLoopback, needsCallerCredential } from '@flatmcp/runtime/proxy'
import { describe, expect, it } from 'vitest'
import { hostsServed } from '../src/proxy/http/loopback'

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
  })

  it('lets a page from a loopback origin through the guard, [::1] included, and refuses another', async () => {
    const guard = httpGuard({})
    const from = (origin: string): Promise<Response | undefined> => guard(new Request('http://127.0.0.1:8080/mcp', { headers: { origin } }))
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1', 'http://[::1]:5173'])
      expect(await from(origin), origin).toBeUndefined()
    expect((await from('https://evil.example'))?.status).toBe(403)
  })
})
