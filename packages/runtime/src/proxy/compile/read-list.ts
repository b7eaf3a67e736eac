// What the proxy reads of an upstream's tool list, read as untrusted input: every page (bounded), each
// tool's shape checked before a client sees it (one that is off is said and left out), and each
// definition's digest, what a snapshot is matched by.
import type { UpstreamTool } from '../../artifact/format'
import type { ListHints } from '../upstream/list-pages'
import type { UpstreamClient } from '../upstream/upstream'
import type { FixedParameter, Overrides } from './overrides'
import { malformedTool } from '../../artifact/tool-shape'
import { hashedText, sha256Hex } from '../../service/schema-hash'
import { shown } from '../../util/log'
import { isObject, nestsDeeper } from '../../util/object'
import { ANY_RESULT } from '../upstream/forward'
import { MAX_ANSWER_NESTING } from '../upstream/upstream'
import { listAll } from '../upstream/list-pages'
import { applyOverrides } from './overrides'

/**
 * `sha256:` and the hex SHA-256 of a definition's canonical JSON: what a snapshot matches a live tool
 * by (one nested past `MAX_NESTING`, of its JSON as listed).
 */
export async function digestOf(value: unknown): Promise<string> {
  return `sha256:${await sha256Hex(hashedText(value))}`
}

/**
 * What keeps an upstream's tool from being read: what a client refuses in a list, except in its
 * schemas, which the compiler reads (an output schema whose root is not an object is wrapped, and
 * one served as it came goes without; an input schema it cannot read leaves the tool out).
 */
function upstreamProblem(tool: unknown): string | undefined {
  // Checked first, without recursion: every other reading (and writing it to a client) recurses.
  if (nestsDeeper(tool, MAX_ANSWER_NESTING))
    return `its definition nests deeper than ${MAX_ANSWER_NESTING} levels`
  const { inputSchema: input, outputSchema: output } = (isObject(tool) ? tool : {}) as { inputSchema?: unknown, outputSchema?: unknown }
  if (output !== undefined && !isObject(output))
    return 'its outputSchema is not a JSON Schema object'
  // Any input schema that is a JSON object is the compiler's to read (a root union, `allOf`, `if`, a null `required`…).
  if (isObject(tool) && !isObject(input))
    return 'its inputSchema is not an object schema (it is no JSON object)'
  return malformedTool(isObject(tool) ? { ...tool, inputSchema: { type: 'object' }, outputSchema: undefined } : tool)
}

/** A listed tool, well-formed, with the digest of its definition. */
export interface UpstreamEntry {
  tool: UpstreamTool
  digest: string
  /** Why it is served as it came without being compiled (a definition nested deeper than any schema needs). */
  uncompiled?: string
}

/** JSON nested deeper than this is not read by the compiler (nor digested key by key): no schema needs it, and a stack would. */
export const MAX_NESTING = 256


/**
 * The tools of a listed list a client can take, each with its digest; one that is not (malformed, or
 * a second tool of one name) is said on `log` and left out.
 */
export async function readUpstreamList(listed: readonly unknown[], log: (line: string) => void): Promise<UpstreamEntry[]> {
  const names = new Set<string>()
  const wellFormed = listed.filter((tool): tool is UpstreamTool => {
    const name = (tool as UpstreamTool | null)?.name
    const wrong = upstreamProblem(tool) ?? (names.has(name!) ? 'another tool has its name' : undefined)
    if (wrong !== undefined)
      log(`flatmcp proxy: ${typeof name === 'string' ? `tool ${shown(name)}` : 'a listed tool'} left out: ${wrong}`)
    else
      names.add(name!)
    return wrong === undefined
  })
  return Promise.all(wellFormed.map(async tool => ({
    tool,
    digest: await digestOf(tool),
    ...(nestsDeeper(tool, MAX_NESTING) ? { uncompiled: `its definition nests deeper than ${MAX_NESTING} levels` } : {}),
  })))
}

/** How the list is asked for: the request's time limit (progress restarts it). */
export interface ReadUpstreamOptions {
  timeoutMs?: number
  /** The operator's overrides, applied to the list as it is read. */
  overrides?: Overrides
  /** Where the tools left out are said. Default: nowhere. */
  log?: (line: string) => void
}

/**
 * Every page of a connected upstream's list, its well-formed tools with their digests, its cache
 * hints, and every name it listed (those left out too: a call to one is no tool's).
 */
export async function readUpstream(client: Pick<UpstreamClient, 'request'>, options: ReadUpstreamOptions = {}): Promise<{ entries: UpstreamEntry[], hints: ListHints, fixed: Map<string, Record<string, FixedParameter>>, unmatched: string[], listed: string[] }> {
  const log = options.log ?? (() => {})
  const timing = { timeout: options.timeoutMs ?? 60_000, resetTimeoutOnProgress: true }
  const { tools, hints } = await listAll(message => client.request(message, ANY_RESULT, timing), log)
  const overridden = applyOverrides(tools, options.overrides, log)
  const listed = tools.flatMap(tool => typeof (tool as { name?: unknown } | null)?.name === 'string' ? [(tool as { name: string }).name] : [])
  return { entries: await readUpstreamList(overridden.tools, log), hints, fixed: overridden.fixed, unmatched: overridden.unmatched, listed }
}
