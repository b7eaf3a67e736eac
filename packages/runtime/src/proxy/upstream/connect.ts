// The upstream server a proxy, a snapshot and the probe talk to, on the MCP SDK 2.x client: a child
// process over stdio, or a Streamable HTTP endpoint with the operator's headers (never logged). What
// makes a real upstream behave lives here, for anyone who embeds the proxy: over HTTP, an upstream
// that lost the session (it restarted) is connected to anew and the request sent once more; progress
// that arrives just ahead of its answer is handed on first; the handlers the proxy sets hold for every
// connection to it.
import type { StartedCommand } from './stdio'
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { CommandTransport, startCommand } from './stdio'
import { expandVariables } from './environment'
import { opening, within } from '../../util/wait'
import { ProxySetupError } from './setup-error'

/** A request or notification, as the proxy sends and hears them. */
export interface Message { method: string, params?: Record<string, unknown> }

interface RequestOptions { signal?: AbortSignal, timeout?: number, resetTimeoutOnProgress?: boolean, onprogress?: (progress: { progress: number, total?: number, message?: string }) => void }

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
  setNotificationHandler: (method: 'notifications/tools/list_changed', handler: () => void) => void
  // Methods, not function-typed properties: the SDK's own handlers take its narrower message types,
  // which a property type would refuse (a connected Client must be assignable as it is).
  fallbackNotificationHandler?(notification: Message): Promise<void>
  fallbackRequestHandler?(request: Message, ctx: { mcpReq: { signal: AbortSignal } }): Promise<unknown>
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
  }

/**
 * The proxy's own credentials with the authorization server of an OAuth-protected upstream (the
 * client-credentials grant, `client_secret_basic`): discovery, the token request and a new token
 * when one is refused are the MCP SDK's own (`ClientCredentialsProvider`). The secret goes only to
 * `issuer`: an upstream that names another authorization server is refused. `${NAME}` in the
 * secret is read from the proxy's environment.
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

export interface ConnectOptions {
  /**
   * What the upstream is offered of the client behind the proxy (sampling, elicitation, roots, with
   * their sub-capabilities): what the connected client offers, or a promise of it. A command is
   * started at once; its handshake waits for the promise. Default: by `asks`.
   */
  offer?: OfferedCapabilities | Promise<OfferedCapabilities>
  /** Without `offer`: whether the upstream is offered every question (sampling, elicitation, roots), or none. Default: true. */
  asks?: boolean
  /** The upstream command, started already (`startCommand`): connected over instead of started anew. */
  started?: StartedCommand
  /** Where operator lines go (a reconnect). Default: nowhere. */
  log?: (line: string) => void
}

export interface Upstream {
  client: UpstreamClient
  /** What a log line may say of the upstream: its command, or its URL without credentials or query. */
  where: string
  /** Called when the upstream ends on its own (a child process that exits). */
  onEnd: (handler: () => void) => void
  close: () => Promise<void>
}

/** Whether a connection failed for want of authorization (401, or the SDK's OAuth errors). */
function unauthorized(error: unknown): boolean {
  const { code, status, message, name } = (error ?? {}) as { code?: unknown, status?: unknown, message?: unknown, name?: unknown }
  return code === 401 || status === 401 || name === 'UnauthorizedError' || (typeof message === 'string' && /\b401\b|unauthori[sz]ed|invalid_(?:client|token)|issuer/i.test(message))
}

/** A URL as a log line may show it: no user, password, query or fragment. */
export function redacted(url: string): string {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

/** How long a question the upstream asks before the proxy has set its handler waits for it. */
const EARLY_QUESTION_MS = 10_000

type Handlers = Pick<UpstreamClient, 'fallbackNotificationHandler' | 'fallbackRequestHandler'> & { listChanged?: () => void }

/** Whether an error says the HTTP upstream no longer knows the session (it restarted, or dropped it). */
function lostSession(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown, message?: unknown }
  return code === 404 || (typeof message === 'string' && /\b404\b|session not found/i.test(message))
}

/**
 * The SDK client hands a notification to its handler a microtask after it arrives, and an answer at
 * once: progress that arrives just ahead of its request's answer (in the same read) would find the
 * request gone and be dropped. An answer is handed on a microtask later, after what came before it.
 */
function answerAfterNotifications(transport: { onmessage?: ((message: never, extra?: never) => void) | undefined }): void {
  const handle = transport.onmessage
  if (!handle)
    return
  transport.onmessage = ((message: { id?: unknown, method?: unknown }, extra?: never) => {
    if (message.id !== undefined && message.method === undefined)
      queueMicrotask(() => handle(message as never, extra))
    else
      handle(message as never, extra)
  }) as never
}

/** The capabilities the proxy offers upstream: the three it relays, as the client gave them. */
function offered(capabilities: OfferedCapabilities): OfferedCapabilities {
  const { sampling, elicitation, roots } = capabilities
  return { ...(sampling ? { sampling } : {}), ...(elicitation ? { elicitation } : {}), ...(roots ? { roots } : {}) }
}

/** What a transport the SDK client connects over looks like, as far as the connection touches it. */
interface Transport { onmessage?: ((message: never, extra?: never) => void) | undefined }

/** The 2026-07-28-era version a server names when it refuses the 2025 handshake (-32022); none for any other failure. */
function modernOnly(error: unknown): string | undefined {
  const { code, data, message } = (error ?? {}) as { code?: unknown, data?: { supported?: unknown }, message?: unknown }
  const listed = Array.isArray(data?.supported) ? data.supported : typeof message === 'string' && /-32022|Unsupported protocol version/.test(message) ? /"supported":\[([^\]]*)\]/.exec(message)?.[1]?.split(',').map(v => v.trim().replaceAll('"', '')) : undefined
  if (code !== -32022 && listed === undefined)
    return undefined
  return (listed as unknown[] | undefined)?.find((version): version is string => typeof version === 'string' && version >= '2026-07-28')
}

/** Whether a value says where an upstream is (rather than being a connected client). */
export function isUpstreamTarget(value: unknown): value is UpstreamTarget {
  const target = value as { command?: unknown, url?: unknown } | null
  return typeof target === 'object' && target !== null && (Array.isArray(target.command) || typeof target.url === 'string')
}

/** Connects to the upstream; a set-up that fails is a `ProxySetupError` naming where. */
export async function connectUpstream(target: UpstreamTarget, options: ConnectOptions = {}): Promise<Upstream> {
  const url = 'url' in target ? target.url : undefined
  const expanded = (values: Record<string, string> | undefined, what: string): Record<string, string> =>
    Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, expandVariables(value, `the upstream's ${what} ${JSON.stringify(name)}`)]))
  const headers = 'url' in target ? expanded(target.headers, 'header') : undefined
  // One provider for every connection: its token outlives a session that is connected anew.
  const oauth = 'url' in target ? target.oauth : undefined
  const authProvider = oauth && new ClientCredentialsProvider({
    clientId: oauth.clientId,
    clientSecret: expandVariables(oauth.clientSecret, 'the upstream\'s OAuth client secret'),
    expectedIssuer: oauth.issuer,
    ...(oauth.scope === undefined ? {} : { scope: oauth.scope }),
  })
  // A command starts at once (unless it was started already); its handshake waits for what the client offers.
  let started = 'command' in target ? options.started ?? startCommand(target) : undefined
  const where = url !== undefined ? redacted(url) : started!.where
  const log = options.log ?? (() => {})
  const handlers: Handlers = {}
  const requestHandler = opening<NonNullable<Handlers['fallbackRequestHandler']>>()
  let ended: (() => void) | undefined
  let closing = false

  const offer = options.offer ?? (options.asks === false ? {} : { sampling: {}, elicitation: {}, roots: { listChanged: true } })
  /** What the client offers, once it says; a command that cannot start, or ends first, fails at once instead. */
  const offerWhenAlive = async (): Promise<OfferedCapabilities> => {
    if (!started)
      return offer
    await started.spawned
    return Promise.race([offer, started.exited.then((how) => {
      throw new ProxySetupError(`it ended (${how}) before its handshake`)
    })])
  }
  // The 2025 handshake, which servers of both eras take; a server that speaks only 2026-07-28 refuses
  // it, naming its versions, and is connected to in that era instead.
  let era: 'legacy' | { pin: string } = 'legacy'
  const handshake = async (capabilities: OfferedCapabilities): Promise<{ client: Client, transport: Transport }> => {
    const transport: Transport = started ? new CommandTransport(started) : new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers: headers ?? {} }, ...(authProvider ? { authProvider } : {}) })
    const client = new Client({ name: 'flatmcp-proxy', version: '1' }, { capabilities: capabilities as never, versionNegotiation: { mode: era } })
    client.onclose = () => {
      if (!closing && url === undefined && client === current)
        ended?.()
    }
    current = client
    await client.connect(transport as never)
    return { client, transport }
  }
  let current: Client | undefined
  const connect = async (): Promise<Client> => {
    const capabilities = offered(await offerWhenAlive())
    const made = await handshake(capabilities).catch(async (error: unknown) => {
      const version = era === 'legacy' ? modernOnly(error) : undefined
      if (version === undefined)
        throw error
      era = { pin: version }
      if (started && 'command' in target) {
        // The process answered the other era's handshake already: it starts anew for this one.
        started.child.kill()
        started = startCommand(target)
        await started.spawned
      }
      log(`flatmcp proxy: ${where} speaks only MCP ${version}; connected in that era`)
      return handshake(capabilities)
    })
    const { client, transport } = made
    answerAfterNotifications(transport)
    // What the proxy set on the upstream holds for every connection to it; a question the upstream
    // asks before the proxy has set its handler (at once, once initialized) waits for it.
    client.fallbackNotificationHandler = handlers.fallbackNotificationHandler as never
    client.fallbackRequestHandler = (async (request: Message, ctx: { mcpReq: { signal: AbortSignal } }) => {
      const handler = handlers.fallbackRequestHandler ?? await within(requestHandler.opened, EARLY_QUESTION_MS, ctx.mcpReq.signal)
      if (!handler)
        throw Object.assign(new Error(`the proxy takes no ${request.method} from its upstream`), { code: -32601 })
      return handler(request, ctx)
    }) as never
    client.setNotificationHandler('notifications/tools/list_changed', () => handlers.listChanged?.())
    return client
  }

  let client = await connect().catch((error: unknown) => {
    throw new ProxySetupError(`could not connect to the upstream ${where}: ${(error as Error).message}${unauthorized(error) ? (oauth ? ' (the OAuth client credentials were refused, or the upstream\'s authorization server is not the issuer given)' : '. It asks for OAuth: give the proxy client credentials (--oauth-client-id, --oauth-client-secret-file, --oauth-issuer), or a token (--header \'Authorization: Bearer …\')') : ''}`, { cause: error })
  })
  let reconnecting: Promise<Client> | undefined
  const again = async (stale: Client): Promise<Client> => {
    if (client !== stale)
      return client
    reconnecting ??= connect().then((fresh) => {
      log(`flatmcp proxy: ${where} lost the session (it restarted?); connected anew`)
      void stale.close().catch(() => {})
      client = fresh
      reconnecting = undefined
      return fresh
    }, (error: unknown) => {
      reconnecting = undefined
      throw error
    })
    return reconnecting
  }

  const upstream: UpstreamClient = {
    async request(message, schema, requestOptions) {
      const used = client
      try {
        return await used.request(message as never, schema as never, requestOptions as never)
      }
      catch (error) {
        // Over HTTP a 404 means the request was not run: sent once more on a fresh session.
        if (url === undefined || !lostSession(error))
          throw error
        return (await again(used)).request(message as never, schema as never, requestOptions as never)
      }
    },
    notification: message => client.notification(message as never),
    getServerCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    getServerVersion: () => client.getServerVersion(),
    getInstructions: () => client.getInstructions(),
    setNotificationHandler: (_method, handler) => {
      handlers.listChanged = handler
    },
    get fallbackNotificationHandler() {
      return handlers.fallbackNotificationHandler
    },
    set fallbackNotificationHandler(handler) {
      handlers.fallbackNotificationHandler = handler
      client.fallbackNotificationHandler = handler as never
    },
    get fallbackRequestHandler() {
      return handlers.fallbackRequestHandler
    },
    set fallbackRequestHandler(handler) {
      handlers.fallbackRequestHandler = handler
      if (handler)
        requestHandler.open(handler)
    },
  }
  return {
    client: upstream,
    where,
    onEnd: (handler) => {
      ended = handler
    },
    close: async () => {
      closing = true
      await client.close()
    },
  }
}
