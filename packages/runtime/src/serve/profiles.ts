// Which profile a session is served: the server's choice, made once per session from the client's
// `initialize` info, with a default table drawn from what each client is known to accept.

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
 * The default table: clients whose way to their model is known to reject what `portable` writes.
 * Gemini CLI hands tools to Gemini, whose OpenAPI `parameters` route takes one `type` per node
 * (google-gemini/gemini-cli #21094); every other client gets the base profile.
 */
export const CLIENT_PROFILES: readonly { client: RegExp, profile: string }[] = [
  { client: /^gemini-cli/i, profile: 'gemini' },
]

/** The default choice: the first row of `CLIENT_PROFILES` whose pattern matches the client's name. */
export function defaultProfileFor(client: ClientInfo | undefined): string | undefined {
  const name = typeof client?.name === 'string' ? client.name : ''
  return CLIENT_PROFILES.find(row => row.client.test(name))?.profile
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
    profile = typeof choice === 'string' ? choice : (choice ?? defaultProfileFor)(client)
    decided = client !== undefined || typeof choice === 'string'
    return profile
  }
}
