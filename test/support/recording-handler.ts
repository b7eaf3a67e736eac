// A fetch handler over a snapshot whose upstream is a recorder: every body sent upstream is kept, and
// each is answered with an empty result. What the in-process fetch-handler tests share.
import type { ProxyHandlerOptions } from '@flatmcp/runtime/proxy/fetch'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'

export function recordingHandler(snapshot: ProxyHandlerOptions['snapshot'], options: { maxRequestBodySize?: number } = {}): { handler: ReturnType<typeof createProxyHandler>, forwarded: unknown[], post: (body: string | object) => Promise<Response> } {
  const forwarded: unknown[] = []
  const handler = createProxyHandler({
    upstream: 'http://upstream.invalid/mcp',
    snapshot,
    ...options,
    fetch: async (request) => {
      forwarded.push(await request.json())
      return new Response('{"jsonrpc":"2.0","id":2,"result":{"content":[]}}', { headers: { 'content-type': 'application/json' } })
    },
  })
  const post = (body: string | object): Promise<Response> => handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }))
  return { handler, forwarded, post }
}
