// src/worker.ts: the proxy's fetch handler as a Cloudflare Worker. The upstream's URL comes from the
// environment (or, for a snapshot of many servers, UPSTREAMS: JSON of each server's URL by its entry
// name), its snapshot is bundled in, its schemas are read by @cfworker/json-schema (Workers generate
// no code at run time, so ajv cannot run there), and the path picks the profile: /mcp serves
// portable, /mcp/<profile> or /<profile>/mcp the others the snapshot holds.
import { Validator } from '@cfworker/json-schema'
import { createProxyHandler, profileOfPath } from '@flatmcp/runtime/proxy/fetch'

interface Env { UPSTREAM?: string, UPSTREAMS?: string }

export function createWorker(snapshot: unknown): { fetch: (request: Request, env: Env) => Promise<Response> } {
  let handler: ReturnType<typeof createProxyHandler> | undefined
  return {
    fetch(request, env) {
      const upstream = env.UPSTREAMS ? { upstreams: JSON.parse(env.UPSTREAMS) as Record<string, string> } : { upstream: env.UPSTREAM! }
      handler ??= createProxyHandler({
        ...upstream,
        snapshot,
        profile: ({ url }) => url ? profileOfPath(url.pathname) : undefined,
        validator: (schema) => {
          const validator = new Validator(schema as never, '2020-12', false)
          return value => validator.validate(value as never).valid
        },
      })
      return handler.fetch(request)
    },
  }
}
