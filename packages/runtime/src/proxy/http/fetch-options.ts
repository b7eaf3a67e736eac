// What a fetch handler is given, and what it gives: one upstream or many, the snapshot it serves, how
// it reads calls and checks callers.
import type { Surface } from '../../service/options'
import type { CallerRules } from '../../service/caller-rules'
import type { ProfileChoice } from '../../service/profile-choice'
import type { Validator } from '../compile/chooser'
import type { OtelApi } from '../../telemetry/otel-api'
import type { HttpGuardOptions } from './guard'

/** One server's Streamable HTTP endpoint: its URL, or its URL and the headers sent with every request (an entry of a client's config with `url`). */
export type UpstreamEndpoint = string | URL | { url: string | URL, headers?: Record<string, string> }

interface ProxyHandlerBase extends HttpGuardOptions {
  /**
   * The snapshot (parsed) `tools/list` serves: the upstream's (`flatmcp snapshot <url> --out …`), or,
   * with `upstreams`, the whole set's (`flatmcp snapshot --config FILE`).
   */
  snapshot: unknown
  /**
   * The profile served: a name for every caller, or a function of what the request carries (its URL,
   * headers). Every request is decided alone, so choose by what each one carries (a path, a header).
   * Default: `portable`.
   */
  profile?: ProfileChoice
  /** Headers sent upstream with every request, over the client's own of the same name (an operator's token). */
  headers?: Record<string, string>
  /**
   * Builds a test of a value from the upstream's schema, to pick the reading of a call that goes
   * upstream (see `createProxy`). On Workers, where code cannot be generated at run time, use
   * `@cfworker/json-schema`. Default: no choice (the first reading).
   */
  validator?: Validator
  /** What reaches the upstream. Default: the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>
  /** The largest request body read, in bytes; a larger one is answered 413. Default: 4 MiB. */
  maxRequestBodySize?: number
  /** How the snapshot's output schemas are listed: as compiled (the default), or not at all (`unlisted`, see `createProxy`). */
  outputs?: 'compiled' | 'unlisted'
  /**
   * What `tools/list` holds: every tool (the default), or three that find, describe and call them
   * (`search`, see `createProxy`): finding and describing are answered here, a `call_tool` goes
   * upstream as a call of the tool it names.
   */
  surface?: Exclude<Surface, 'auto'>
  /** With `surface: 'search'`: the tools listed beside the three, as they are. */
  alwaysLoad?: readonly string[]
  /**
   * Which caller is served which tools, each caller named by its credential (`callers`; `token` for
   * `tokens`): a tool a caller's rule does not admit is not listed, found or called (see `CallerRules`).
   */
  rules?: CallerRules
  /** Where operator lines go. Default: one line on stderr (on the console where there is no process). */
  log?: (line: string) => void
  /**
   * OpenTelemetry's API (`import * as api from '@opentelemetry/api'`, with an SDK registered): each
   * request a SERVER span, each call sent upstream a CLIENT span (its trace context in `_meta` and the
   * `traceparent` header), measured as `createProxy`'s are. Default: none, and nothing of OpenTelemetry loads.
   */
  telemetry?: OtelApi
}

/** A handler in front of one upstream, or in front of every server a snapshot of many (`--config`) holds. */
export type ProxyHandlerOptions = ProxyHandlerBase & (
  | {
    /** The upstream's Streamable HTTP endpoint. */
    upstream: string | URL
    upstreams?: never
  }
  | {
    /**
     * Each server's Streamable HTTP endpoint, by the entry name its tools are served under (a client
     * config's `mcpServers` of `url` entries is one): each call goes to its tool's server; a 2025
     * session opens one with each. Prompts and resources are not served.
     */
    upstreams: Readonly<Record<string, UpstreamEndpoint>>
    upstream?: never
  }
)

export interface ProxyHandler {
  /** Serves one HTTP request (the web-standard face: `export default { fetch: handler.fetch }`). */
  fetch: (request: Request) => Promise<Response>
}
