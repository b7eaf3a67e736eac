// A fetch-shaped MCP handler (the SDK 2.x `createMcpHandler`) on node:http at 127.0.0.1:`port` (0
// picks one), for the test and benchmark upstreams; says `<name> listening on <url>` on stderr.
import type { Server } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'

export function serveFetch(name: string, port: number, fetch: (request: Request) => Promise<Response>): Server {
  const http = createServer((req, res) => {
    const headers = new Headers()
    for (const [key, value] of Object.entries(req.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(key, item)
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    void fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}) } as RequestInit)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          res.write(chunk)
      }
      res.end()
    })
  })
  http.listen(port, '127.0.0.1', () => {
    const address = http.address()
    process.stderr.write(`${name} listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp\n`)
  })
  return http
}
