// A fetch-shaped MCP handler on node:http: requests and responses converted both ways, a client that
// goes away aborts its request (so its streams end), and every request checked by the proxy's guard
// (credential, Origin, Host) before it is handled.
import type { IncomingMessage, Server as HttpServer } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import type { HttpGuard } from './guard'

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

/**
 * Serves `handle` on `host:port` for the paths `route` accepts (else 404), each request checked by
 * `guard` first (its refusal answered, nothing else done); resolves with the server once it listens
 * (port 0 picks one: read it from `address()`).
 */
export async function serveHttp(handle: (request: Request) => Promise<Response>, options: { host: string, port: number, route: (path: string) => boolean, guard: HttpGuard, cors: (request: Request) => Record<string, string>, log: (line: string) => void }): Promise<HttpServer> {
  const server = createServer((req, res) => {
    const aborted = new AbortController()
    res.on('close', () => aborted.abort())
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!
      if (!options.route(path)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this proxy serves MCP at /mcp\n')
        return
      }
      const request = toRequest(req, aborted.signal)
      const cors = options.cors(request)
      // A browser's preflight from an origin the operator allowed carries no credential: answered here.
      if (req.method === 'OPTIONS' && Object.keys(cors).length > 0) {
        res.writeHead(204, cors).end()
        return
      }
      const response = await options.guard(request) ?? await handle(request)
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...cors })
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (res.destroyed)
            break
          res.write(chunk)
        }
      }
      res.end()
    })().catch((error: unknown) => {
      options.log(`flatmcp proxy: an HTTP request failed: ${error instanceof Error ? error.message : String(error)}`)
      if (!res.headersSent)
        res.writeHead(500).end()
      else
        res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  return server
}
