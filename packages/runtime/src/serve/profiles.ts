// Which profile a session is served: the build's base profile for every caller unless the operator
// chooses another (a fixed name, or a function of the client's `initialize` info).

/** What a client says of itself in `initialize` (`clientInfo`). */
export interface ClientInfo {
  name: string
  version: string
  [key: string]: unknown
}

/**
 * The profile to serve: a name for every session, or a function of the client's `clientInfo` (it is
 * `undefined` before `initialize`, or on a stateless server) that gives a name, or `undefined` for
 * the build's base profile. A profile the tools were not built with is served as the base profile.
 */
export type ProfileChoice = string | ((client: ClientInfo | undefined) => string | undefined)

/**
 * The default table of client names and profiles: empty. Every caller gets the same list, the
 * build's base profile, as MCP 2026-07-28 asks (a list must not vary per connection, and a client's
 * self-description is not to change behaviour). Gemini CLI, which the table once sent `gemini`,
 * validates the model's arguments against the advertised schema itself, so JSON-text nodes made it
 * refuse real JSON answers; `portable` passes it. An operator picks any other profile.
 */
export const CLIENT_PROFILES: readonly { client: RegExp, profile: string }[] = []

/** The default choice: the first row of `CLIENT_PROFILES` whose pattern matches the client's name (none: the base profile). */
export function defaultProfileFor(client: ClientInfo | undefined): string | undefined {
  const name = typeof client?.name === 'string' ? client.name : ''
  return CLIENT_PROFILES.find(row => row.client.test(name))?.profile
}

/** What a choice function gives: a name, or the base profile when it gives none or throws (the reason on stderr, never to the client). */
function chosen(choice: (client: ClientInfo | undefined) => string | undefined, client: ClientInfo | undefined): string | undefined {
  try {
    const name = choice(client)
    return typeof name === 'string' ? name : undefined
  }
  catch (error) {
    process.stderr.write(`flatmcp: the profile choice threw (${error instanceof Error ? error.message : String(error)}); serving the base profile.\n`)
    return undefined
  }
}

/**
 * The profile of one session, decided once the client has said who it is: `clientInfo` reads the
 * SDK server's `getClientVersion()`.
 */
export function sessionProfile(choice: ProfileChoice | undefined, clientInfo: () => ClientInfo | undefined): () => string | undefined {
  let decided = false
  let profile: string | undefined
  return () => {
    if (decided)
      return profile
    const client = clientInfo()
    profile = typeof choice === 'string' ? choice : chosen(choice ?? defaultProfileFor, client)
    decided = client !== undefined || typeof choice === 'string'
    return profile
  }
}
