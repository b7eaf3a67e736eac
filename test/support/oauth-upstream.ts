// An MCP server protected by OAuth, with its own authorization server, both on node:http at
// 127.0.0.1: the upstream answers 401 with `WWW-Authenticate: Bearer resource_metadata=…` to a
// request without a token it issued, serves its protected-resource metadata (RFC 9728) naming the
// authorization server, and that server (RFC 8414 metadata) issues tokens for the client-credentials
// grant (`client_secret_basic`) to one registered client. Every token request and every
// `Authorization` the upstream sees are recorded, so a test can say who sent what where.
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, Server } from 'node:http'
import { createServer } from 'node:http'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'

export interface OAuthUpstream {
  /** The upstream's MCP endpoint. */
  url: string
  /** The authorization server's issuer. */
  issuer: string
  client: { id: string, secret: string }
  /** Each token request: its client (from Basic auth), grant, scope and resource. */
  tokenRequests: { client: string, grant: string | null, scope: string | null, resource: string | null }[]
  /** The `Authorization` header of each request the upstream's MCP endpoint got. */
  seen: (string | undefined)[]
  /** Makes every token issued so far invalid (as when they expire). */
  expireTokens: () => void
  close: () => Promise<void>
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req)
    text += String(chunk)
  return text
}

/** Starts both; `issuerOverride` makes the authorization server name another issuer in its metadata (a mix-up); `secret` is the client's. */
export async function startOAuthUpstream(options: { issuerOverride?: string, secret?: string } = {}): Promise<OAuthUpstream> {
  const client = { id: 'flatmcp-proxy', secret: options.secret ?? 's3cret-client' }
  const valid = new Set<string>()
  const tokenRequests: OAuthUpstream['tokenRequests'] = []
  const seen: OAuthUpstream['seen'] = []
  let issued = 0

  const authorization = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]
      if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          issuer: options.issuerOverride ?? issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        }))
        return
      }
      if (req.method === 'POST' && path === '/token') {
        const form = new URLSearchParams(await bodyOf(req))
        const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map(decodeURIComponent)
        tokenRequests.push({ client: id ?? '', grant: form.get('grant_type'), scope: form.get('scope'), resource: form.get('resource') })
        if (id !== client.id || secret !== client.secret || form.get('grant_type') !== 'client_credentials') {
          res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }))
          return
        }
        const token = `token-${++issued}`
        valid.add(token)
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }))
        return
      }
      res.writeHead(404).end()
    })()
  })
  const issuer = await listen(authorization)

  const server = (): McpServer => {
    const made = new McpServer({ name: 'oauth-upstream', version: '1.0.0' })
    made.registerTool('pick', { description: 'Picks a shape.', inputSchema: z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) }) }, input => ({ content: [{ type: 'text', text: JSON.stringify(input) }] }))
    return made
  }
  const handler = createMcpHandler(server)
  let base = ''
  const metadataPath = '/.well-known/oauth-protected-resource/mcp'
  const upstream = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]
      if (req.method === 'GET' && (path === metadataPath || path === '/.well-known/oauth-protected-resource')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [issuer], bearer_methods_supported: ['header'] }))
        return
      }
      if (path !== '/mcp') {
        res.writeHead(404).end()
        return
      }
      seen.push(req.headers.authorization)
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '')
      if (!valid.has(token)) {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}${metadataPath}"`, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token' }))
        return
      }
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
          headers.append(name, item)
      }
      const body = req.method === 'POST' ? await bodyOf(req) : undefined
      const response = await handler.fetch(new Request(`${base}${req.url}`, { method: req.method, headers, ...(body === undefined ? {} : { body }) }))
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })()
  })
  base = await listen(upstream)

  return {
    url: `${base}/mcp`,
    issuer,
    client,
    tokenRequests,
    seen,
    expireTokens: () => valid.clear(),
    close: async () => {
      await Promise.all([upstream, authorization].map(http => new Promise(resolve => http.close(resolve))))
    },
  }
}
