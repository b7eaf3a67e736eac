// Runs a request handler on node:http at the port given on the command line (default 3000; 0 picks
// one), and says where on stderr: the example HTTP servers share it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'

export function listen(name: string, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): void {
  const port = Number(process.argv[2] ?? 3000)
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error)
      if (!res.headersSent)
        res.writeHead(500).end()
    })
  })
  http.listen(port, '127.0.0.1', () => {
    const address = http.address()
    console.error(`${name} listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp`)
  })
}

/** The same for a fetch-shaped handler (the MCP SDK 2.x `createMcpHandler`) at /mcp and below: node:http converted both ways. */
export function listenFetch(name: string, fetch: (request: Request) => Promise<Response>): void {
  listen(name, async (req, res) => {
    if (req.url !== '/mcp' && !req.url?.startsWith('/mcp/')) {
      res.writeHead(404).end()
      return
    }
    const headers = new Headers()
    for (const [key, value] of Object.entries(req.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(key, item)
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const response = await fetch(new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
      method: req.method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit))
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body) {
      for await (const chunk of response.body)
        res.write(chunk)
    }
    res.end()
  })
}
