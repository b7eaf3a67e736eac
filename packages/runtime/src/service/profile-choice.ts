// Which profile a server instance serves: the build's base profile for every caller unless the
// operator chooses another, a fixed name or a function of what the request carries. An instance (a
// stdio connection, a stateful session, one request of a per-request HTTP handler) keeps the
// profile its first list was served, so the calls it reads come from that list.
import { clip } from '../validate/messages'
import { logOnce } from '../util/log'

/** What a client says of itself (`clientInfo`). */
export interface ClientInfo {
  name: string
  version: string
  [key: string]: unknown
}

/** What a request carries that a profile choice may read. */
export interface ProfileRequest {
  /** `modern`: MCP 2026-07-28, identity per request in `_meta`; `legacy`: a 2025-era request or session. */
  readonly era: 'legacy' | 'modern'
  /** The HTTP request's URL (its path, its query), when served over HTTP. */
  readonly url?: URL
  /** The HTTP request's headers, when served over HTTP. */
  readonly headers?: Headers
  /** The authorization the transport validated and passed on (`authInfo`). */
  readonly authInfo?: unknown
  /**
   * What the client says of itself: the request's `io.modelcontextprotocol/clientInfo` (2026-07-28)
   * or its session's `initialize` info. Choosing by it departs from the protocol's SHOULD NOT, and a
   * 2026-07-28 client only SHOULD send it: a call without it, read by a choice that reads it, is
   * served only where every list the server has reads it alike.
   */
  readonly clientInfo?: ClientInfo
}

/**
 * The profile to serve: a name for every caller, or a function of what the request carries that
 * gives a name, or `undefined` for the build's base profile. A profile the tools were not built
 * with, an inherited name, or a function that throws is served as the base profile.
 */
export type ProfileChoice = string | ((request: ProfileRequest) => string | undefined | Promise<string | undefined>)

/** A choice that says what a request is served where it fails (a caller the rules hold: the base profile, within its rule). */
export type GuardedChoice = ((request: ProfileRequest) => string | undefined | Promise<string | undefined>) & { failed: (request: ProfileRequest) => string | undefined }

/** How long a choice may take before the request is served the base profile. */
export const CHOICE_TIMEOUT_MS = 2000

const TIMED_OUT = Symbol('timed out')

/** A request's facts as a transport adapter gathers them; `clientInfo` is read only if the choice asks. */
export interface RequestFacts {
  era: 'legacy' | 'modern'
  url?: URL
  headers?: Headers
  authInfo?: unknown
  clientInfo: () => ClientInfo | undefined
}

/** The profile a request is served, and whether the list its call came from is unknown. */
export interface Decision {
  profile: string | undefined
  /**
   * The choice read `clientInfo` and a 2026-07-28 call carried none: a list of this server may have
   * been served with it, so the call is read only where every list agrees.
   */
  unsure: boolean
}

/** What a failed choice serves: the base profile, or what a guarded choice says (a ruled caller stays held). */
const failed = (choice: ProfileChoice, request: ProfileRequest): string | undefined => typeof choice === 'function' && 'failed' in choice ? (choice as GuardedChoice).failed(request) : undefined

/**
 * A choice's answer for `request`: a name as it is, a function's answer, awaited. Whatever the
 * function does instead (throws, rejects, gives something that is not a name, takes longer than
 * `timeoutMs`), the base profile (`undefined`; a guarded choice's own `failed`), and stderr says why,
 * once per process for each kind of failure; never the client.
 */
export async function chosen(choice: ProfileChoice | undefined, request: ProfileRequest, timeoutMs = CHOICE_TIMEOUT_MS): Promise<string | undefined> {
  if (choice === undefined || typeof choice === 'string')
    return choice
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const given = await Promise.race([
      (async () => choice(request))(),
      new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
      }),
    ])
    if (given === TIMED_OUT) {
      logOnce('choice:timeout', `flatmcp: the profile choice took longer than ${timeoutMs} ms; serving the base profile (said once).`)
      return failed(choice, request)
    }
    if (given !== undefined && typeof given !== 'string') {
      logOnce('choice:garbage', `flatmcp: the profile choice gave ${given === null ? 'null' : typeof given}, not a profile name or undefined; serving the base profile (said once).`)
      return failed(choice, request)
    }
    return given
  }
  catch (error) {
    logOnce('choice:threw', `flatmcp: the profile choice failed (${clip(error instanceof Error ? error.message : String(error), 200)}); serving the base profile (said once).`)
    return failed(choice, request)
  }
  finally {
    clearTimeout(timer)
  }
}

/** One decision: the choice's answer (`chosen`), and whether it read a `clientInfo` the request did not carry. */
async function decide(choice: ProfileChoice | undefined, facts: RequestFacts): Promise<Decision> {
  if (choice === undefined || typeof choice === 'string')
    return { profile: choice, unsure: false }
  let read = false
  let client: ClientInfo | undefined
  const request: ProfileRequest = {
    era: facts.era,
    ...(facts.url === undefined ? {} : { url: facts.url }),
    ...(facts.headers === undefined ? {} : { headers: facts.headers }),
    ...(facts.authInfo === undefined ? {} : { authInfo: facts.authInfo }),
    get clientInfo() {
      if (!read) {
        read = true
        client = facts.clientInfo()
      }
      return client
    },
  }
  const profile = await chosen(choice, request)
  return { profile, unsure: read && client === undefined && facts.era === 'modern' }
}

/**
 * The profile of one server instance: decided by its first list (or, before any list, by each
 * call that can be sure of it) and kept, so a `tools/list` before `initialize` and the calls after
 * it, or a call without `clientInfo` after a list with it, are read alike.
 */
export function instanceProfile(choice: ProfileChoice | undefined): (facts: RequestFacts, kind: 'list' | 'call') => Promise<Decision> {
  let pinned: Decision | undefined
  return async (facts, kind) => {
    if (pinned)
      return pinned
    const decision = await decide(choice, facts)
    if (kind === 'list' || !decision.unsure)
      pinned ??= { profile: decision.profile, unsure: false }
    return pinned ?? decision
  }
}
