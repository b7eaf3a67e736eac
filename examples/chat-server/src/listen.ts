// Runs a request handler on node:http at the port given on the command line (default 3000; 0 picks
// one), and says where on stderr: the example HTTP servers share it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:http'

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
