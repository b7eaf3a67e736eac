// What the proxy asks of its upstream and where it is, whatever carries it: the client interface the
// proxy serves over (a connected MCP SDK 2.x client has all of it), where the upstream is (a command,
// a URL), what the client behind the proxy offers it, and one upstream connected. One file per
// transport beside this one (stdio.ts, http.ts, client.ts); connect.ts puts a transport to work.
import type { ToolOrigin } from '../../artifact/format'

/** The longest message read from an upstream, whatever carries it (a line of a command, an HTTP answer): a longer one is refused. */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024

/**
 * The deepest an upstream's answer nests (objects and arrays within each other): a deeper one is
 * refused, and a listed tool deeper is left out. Writing it again takes a stack frame a level, which
 * runs out some thousands deep.
 */
export const MAX_ANSWER_NESTING = 1024

/** A request or notification, as the proxy sends and hears them. */
export interface Message { method: string, params?: Record<string, unknown> }

export interface RequestOptions {
  signal?: AbortSignal
  timeout?: number
  resetTimeoutOnProgress?: boolean
  onprogress?: (progress: { progress: number, total?: number, message?: string }) => void
  /** Behind a gateway: told which server the request went to (its questions are asked within this call only). */
  routedTo?: (server: string) => void
  /**
   * The downstream call in rounds this request is made for: the questions a 2026-07-28 server asks in
   * its rounds are asked in that call's rounds only (an opaque token, handed back in `AskedContext`).
   */
  asking?: object
}

/**
 * What the proxy's handler hears with a request its upstream sends: behind a gateway, which server
 * asks; for a question a 2026-07-28 server asked in a call's rounds, the call it belongs to.
 */
export interface AskedContext { mcpReq: { signal: AbortSignal }, asker?: string, asking?: object }

/**
 * What the proxy asks of its upstream: a connected MCP SDK 2.x `Client` (`@modelcontextprotocol/client`)
 * has all of it.
 */
export interface UpstreamClient {
  request: (request: Message, resultSchema: unknown, options?: RequestOptions) => Promise<unknown>
  notification: (notification: Message) => Promise<void>
  getServerCapabilities: () => Record<string, unknown> | undefined
  getServerVersion: () => { name: string, version: string } | undefined
  getInstructions: () => string | undefined
  setNotificationHandler: (method: 'notifications/tools/list_changed', handler: () => void | Promise<void>) => void
  /** A gateway: where each tool of the last list comes from, by the name it is served by. */
  origins?: () => ReadonlyMap<string, ToolOrigin>
  /**
   * A gateway: settles once the list reflects the last server said to come or go (a list
   * served after a server is said down holds none of its tools).
   */
  settled?: () => Promise<void>
  /** A gateway: the member a request goes to, whose own call slots it takes (none: the shared ones). */
  lane?: (message: Message) => string | undefined
  // Methods, not function-typed properties: the SDK's own handlers take its narrower message types,
  // which a property type would refuse (a connected Client must be assignable as it is).
  fallbackNotificationHandler?(notification: Message): Promise<void>
  fallbackRequestHandler?(request: Message, ctx: AskedContext): Promise<unknown>
}

/** Where the upstream server is: its command and arguments (run as a child process, over stdio), or its Streamable HTTP URL. */
export type UpstreamTarget =
  | {
    command: string[]
    /**
     * Variables added to the environment the command runs with, which is otherwise the proxy's own,
     * every variable (as a client that starts the server itself gives it). `${NAME}` in a value is
     * read from the proxy's environment.
     */
    env?: Record<string, string>
    /** The folder the command runs in. Default: the proxy's. */
    cwd?: string
    /**
     * The credentials the proxy holds for itself (its callers' tokens): a variable of its
     * environment that holds one is not passed on, and an added one that does is refused.
     */
    withheld?: readonly string[]
    /**
     * Variables of the proxy's environment that belong to other servers (those another entry of a
     * client's config names, as its client passes them to that server only): not passed on.
     */
    othersVariables?: readonly string[]
    /** Where the command's stderr goes, line by line. Default: the proxy's own stderr, as it comes. */
    stderr?: (line: string) => void
  }
  | {
    url: string
    /**
     * Headers sent with every HTTP request to the upstream (`Authorization` and the like); never
     * logged. `${NAME}` in a value is read from the proxy's environment.
     */
    headers?: Record<string, string>
    /** An upstream protected by OAuth: the proxy is its client by the client-credentials grant. */
    oauth?: UpstreamOAuth
    /** The credentials the proxy holds for itself (its callers' tokens, besides the OAuth secret): a header that holds one is refused. */
    withheld?: readonly string[]
  }

/**
 * The proxy's own credentials with the authorization server of an OAuth-protected upstream (the
 * client-credentials grant, `client_secret_basic`): discovery, the token request and a new token
 * when one is refused are the MCP SDK's own (`ClientCredentialsProvider`). The secret goes only to
 * `issuer`: an upstream that names another authorization server is refused. The secret is taken
 * as given (no `${NAME}` is read in it), and no header sent upstream may hold it.
 */
export interface UpstreamOAuth {
  clientId: string
  clientSecret: string
  /** The authorization server's issuer the client was registered with. */
  issuer: string
  /** The scopes to ask for, space-separated. */
  scope?: string
}

/** What a client says it can do when asked (MCP's client capabilities): what the proxy offers its upstream of it. */
export interface OfferedCapabilities {
  sampling?: Record<string, unknown>
  elicitation?: Record<string, unknown>
  roots?: { listChanged?: boolean }
}

export interface Upstream {
  client: UpstreamClient
  /** What a log line may say of the upstream: its command, or its URL without credentials or query. */
  where: string
  /** Called when the upstream ends on its own (a child process that exits), or was ended for what it did (`why`: it flooded its output). */
  onEnd: (handler: (why?: string) => void) => void
  close: () => Promise<void>
  /** Where it is served before it is connected (`connectAhead`): settles once it is, rejects where it cannot be. */
  connected?: Promise<void>
  /** How calls reach it, where one way reaches all (a command: `pipe`; a URL: `tcp`), as its CLIENT spans say. */
  transport?: 'pipe' | 'tcp'
}

/** Whether a value says where an upstream is (rather than being a connected client). */
export function isUpstreamTarget(value: unknown): value is UpstreamTarget {
  const target = value as { command?: unknown, url?: unknown } | null
  return typeof target === 'object' && target !== null && (Array.isArray(target.command) || typeof target.url === 'string')
}


/** How a connection is carried: one file per transport (stdio.ts, http.ts) makes one. */
export interface UpstreamTransport {
  /** What a log line may say of the upstream: its command, or its URL without credentials or query. */
  where: string
  /** Settles with what the client offers once it can take a handshake (a command that ends first fails it). */
  ready: (offer: OfferedCapabilities | Promise<OfferedCapabilities>) => Promise<OfferedCapabilities>
  /** A new SDK transport for one connection. */
  open: () => unknown
  /** Starts the upstream anew, where one answered the other era's handshake already (a command). */
  restart: () => Promise<void>
  /** Whether a client that closed on its own means the upstream ended (a process that exited). */
  endsOnClose: boolean
  /** Whether a request failed for want of the session, unrun: sent once more on a fresh connection (HTTP's 404). */
  lostSession: (error: unknown) => boolean
  /** What a failed connection's message adds: the fix for a refused credential. */
  explain: (error: unknown) => string
}

/** What a connected upstream said in its handshake besides its name: what a snapshot records of it. */
export function handshakeOf(client: Pick<UpstreamClient, 'getServerCapabilities' | 'getInstructions'>): { capabilities: Record<string, unknown>, instructions?: string } {
  const instructions = client.getInstructions()
  return { capabilities: client.getServerCapabilities() ?? {}, ...(instructions ? { instructions } : {}) }
}
