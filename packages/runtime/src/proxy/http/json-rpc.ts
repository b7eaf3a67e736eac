// JSON-RPC over HTTP as the fetch handler reads and answers it: a body read within its bound, and an
// answer of its own.

/** A JSON-RPC request as a client sent it, read field by field where it is used. */
export interface JsonRpcRequest { jsonrpc?: unknown, id?: unknown, method?: unknown, params?: Record<string, unknown> }

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

/** A JSON-RPC error as an HTTP answer. */
export function rpcError(id: unknown, code: number, message: string, status = 200): Response {
  return jsonResponse({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }, status)
}

/** A request body as text, or undefined when it is longer than `max` bytes (read no further). */
export async function boundedText(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max)
    return undefined
  if (!request.body)
    return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done)
      break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}
