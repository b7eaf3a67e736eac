// The upstream server a proxy, a snapshot and the probe talk to, on the MCP SDK 2.x client, over the
// transport its target names (stdio.ts, http.ts). What makes a real upstream behave lives here, for
// anyone who embeds the proxy: the 2025 handshake, or the 2026-07-28 era where a server takes only
// that; an upstream that lost the session (it restarted) connected to anew and the request sent once
// more; progress that arrives just ahead of its answer handed on first; the handlers the proxy sets
// holding for every connection to it.
import type { StartedCommand } from './command-process'
import type { AskedContext, Message, OfferedCapabilities, RequestOptions, Upstream, UpstreamClient, UpstreamTarget, UpstreamTransport } from './upstream'
import type { Client } from '@modelcontextprotocol/client'
import { opening, within } from '../../util/wait'
import type { Recorded } from './ahead'
import { ahead } from './ahead'
import type { OperatorLog } from '../../util/log'
import { httpTransport } from './http'
import { answerRounds, asksFirst } from './input-rounds'
import { ProxySetupError } from './setup-error'
import { stdioTransport } from './stdio'

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
  /** Where operator lines go (a reconnect, the era). Default: nowhere. */
  log?: OperatorLog
}

/** How long a question the upstream asks before the proxy has set its handler waits for it. */
const EARLY_QUESTION_MS = 10_000

/** How long a question asked in a call's rounds waits for its answer, where the call names no time limit. */
const DEFAULT_QUESTION_MS = 60_000

type Handlers = Pick<UpstreamClient, 'fallbackNotificationHandler' | 'fallbackRequestHandler'> & { listChanged?: () => void }

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

/** The 2026-07-28-era version a server names when it refuses the 2025 handshake (-32022); none for any other failure. */
function modernOnly(error: unknown): string | undefined {
  const { code, data, message } = (error ?? {}) as { code?: unknown, data?: { supported?: unknown }, message?: unknown }
  const listed = Array.isArray(data?.supported) ? data.supported : typeof message === 'string' && /-32022|Unsupported protocol version/.test(message) ? /"supported":\[([^\]]*)\]/.exec(message)?.[1]?.split(',').map(v => v.trim().replaceAll('"', '')) : undefined
  if (code !== -32022 && listed === undefined)
    return undefined
  return (listed as unknown[] | undefined)?.find((version): version is string => typeof version === 'string' && version >= '2026-07-28')
}

/** The transport a target names. */
function transportOf(target: UpstreamTarget, options: ConnectOptions): UpstreamTransport {
  return 'url' in target ? httpTransport(target) : stdioTransport(target, options.started)
}

/** Connects to the upstream; a set-up that fails is a `ProxySetupError` naming where. */
export async function connectUpstream(target: UpstreamTarget, options: ConnectOptions = {}): Promise<Upstream> {
  return connectOver(transportOf(target, options), options)
}

/**
 * The upstream at once, answering for itself from what it said in a handshake before (a snapshot's
 * record) while it connects: its requests wait for the connection, whose failure rejects them.
 */
export function connectAhead(target: UpstreamTarget, recorded: Recorded, options: ConnectOptions = {}): Upstream {
  const transport = transportOf(target, options)
  return ahead(connectOver(transport, options), transport.where, recorded)
}

async function connectOver(transport: UpstreamTransport, options: ConnectOptions): Promise<Upstream> {
  const { where } = transport
  const log = options.log ?? (() => {})
  const handlers: Handlers = {}
  const requestHandler = opening<NonNullable<Handlers['fallbackRequestHandler']>>()
  const offer = options.offer ?? (options.asks === false ? {} : { sampling: {}, elicitation: {}, roots: { listChanged: true } })
  const life: Life = { closing: false }
  const asked = questionsAsked(handlers, requestHandler.opened)
  const connect = async (): Promise<Client> => {
    const client = await handshake(transport, offered(await transport.ready(offer)), life, log)
    holdHandlers(client, handlers, asked)
    return client
  }
  let client = await connect().catch((error: unknown) => {
    throw new ProxySetupError(`could not connect to the upstream ${where}: ${(error as Error).message}${transport.explain(error)}`, { cause: error })
  })
  let reconnecting: Promise<Client> | undefined
  /** A fresh connection in place of `stale` (one at a time, however many requests found it gone). */
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
  return {
    client: upstreamClient({ current: () => client, again, transport, handlers, questionsTaken: handler => requestHandler.open(handler), asked, modern: () => life.era !== undefined }),
    where,
    // Heard however late it is asked for: an upstream may end before the proxy's start is through.
    onEnd: (handler) => {
      life.ended = handler
      if (life.endedWith)
        queueMicrotask(() => handler(life.endedWith!.why))
    },
    close: async () => {
      life.closing = true
      await client.close()
    },
  }
}

/** Whether the proxy is closing the upstream, and who hears that it ended on its own. */
interface Life {
  closing: boolean
  ended?: (why?: string) => void
  /** That it ended on its own, and why: told to a handler that comes after. */
  endedWith?: { why?: string }
  /** The client of the connection made last. */
  current?: Client
  /** The era a server that refused the 2025 handshake was connected in: every connection after takes it. */
  era?: { pin: string }
}

/**
 * The 2025 handshake, which servers of both eras take; a server that speaks only 2026-07-28 refuses
 * it, naming its versions, and is connected to in that era instead (a command started anew for it).
 */
async function handshake(transport: UpstreamTransport, capabilities: OfferedCapabilities, life: Life, log: OperatorLog): Promise<Client> {
  const attempt = async (era: 'legacy' | { pin: string }): Promise<Client> => {
    // The client SDK loads when the upstream is first connected to, not with the proxy: from a
    // snapshot the proxy answers its client's initialize and first tools/list without it.
    const { Client } = await import('@modelcontextprotocol/client')
    const carried = transport.open() as { onmessage?: ((message: never, extra?: never) => void) | undefined }
    const client = new Client({ name: 'flatmcp-proxy', version: '1' }, { capabilities: capabilities as never, versionNegotiation: { mode: era } })
    client.onclose = () => {
      if (!life.closing && transport.endsOnClose && client === life.current) {
        life.endedWith = { why: (carried as { why?: string }).why }
        life.ended?.(life.endedWith.why)
      }
    }
    life.current = client
    await client.connect(carried as never)
    answerAfterNotifications(carried)
    return client
  }
  return attempt(life.era ?? 'legacy').catch(async (error: unknown) => {
    const version = life.era === undefined ? modernOnly(error) : undefined
    if (version === undefined)
      throw error
    life.era = { pin: version }
    // The process answered the other era's handshake already: it starts anew for this one.
    await transport.restart()
    log(`flatmcp proxy: ${transport.where} speaks only MCP ${version}; connected in that era`, 'info')
    return attempt(life.era)
  })
}

/**
 * Where the upstream's questions go, for every connection to it: the handler the proxy set; one the
 * upstream asks before the proxy has set it (at once, once initialized) waits for it.
 */
function questionsAsked(handlers: Handlers, requestHandler: Promise<NonNullable<Handlers['fallbackRequestHandler']>>): (request: Message, ctx: AskedContext) => Promise<unknown> {
  return async (request, ctx) => {
    const handler = handlers.fallbackRequestHandler ?? await within(requestHandler, EARLY_QUESTION_MS, ctx.mcpReq.signal)
    if (!handler)
      throw Object.assign(new Error(`the proxy takes no ${request.method} from its upstream`), { code: -32601 })
    return handler(request, ctx)
  }
}

/** What the proxy set on the upstream holds for every connection to it. */
function holdHandlers(client: Client, handlers: Handlers, asked: (request: Message, ctx: AskedContext) => Promise<unknown>): void {
  client.fallbackNotificationHandler = handlers.fallbackNotificationHandler as never
  client.fallbackRequestHandler = asked as never
  client.setNotificationHandler('notifications/tools/list_changed', () => handlers.listChanged?.())
}

interface Connection {
  /** The connection of the moment. */
  current: () => Client
  /** A fresh connection in place of a stale one. */
  again: (stale: Client) => Promise<Client>
  transport: UpstreamTransport
  handlers: Handlers
  questionsTaken: (handler: NonNullable<Handlers['fallbackRequestHandler']>) => void
  /** Asks the client behind the proxy, as the upstream's own request would. */
  asked: (request: Message, ctx: AskedContext) => Promise<unknown>
  /** Whether the upstream was connected in the 2026-07-28 era, which asks in the rounds of a call. */
  modern: () => boolean
}

/**
 * The upstream as the proxy sees it: the connection of the moment, a request that found its session
 * gone sent once more on a fresh one; in the 2026-07-28 era, a call's rounds answered by the client
 * behind the proxy (input-rounds.ts).
 */
function upstreamClient(connection: Connection): UpstreamClient {
  const { current, again, transport, handlers, questionsTaken } = connection
  const send = async (message: Message, schema: unknown, requestOptions: RequestOptions | undefined): Promise<unknown> => {
    const used = current()
    // A 2026-07-28 call that asks its client first comes back as it is, for the proxy's own rounds.
    const options = connection.modern() ? { ...requestOptions, allowInputRequired: true } : requestOptions
    try {
      return await used.request(message as never, schema as never, options as never)
    }
    catch (error) {
      // A request the upstream did not run is sent once more on a fresh session.
      if (!transport.lostSession(error))
        throw error
      return (await again(used)).request(message as never, schema as never, options as never)
    }
  }
  return {
    async request(message, schema, requestOptions) {
      const result = await send(message, schema, requestOptions)
      if (!connection.modern() || !asksFirst(result))
        return result
      return answerRounds(result, {
        // Its questions are its own call's: asked in no other call's rounds.
        ask: (request, ctx) => connection.asked(request, requestOptions?.asking ? { ...ctx, asking: requestOptions.asking } : ctx),
        retry: added => send({ ...message, params: { ...message.params, ...added } }, schema, requestOptions),
        timeout: requestOptions?.timeout ?? DEFAULT_QUESTION_MS,
        ...(requestOptions?.signal ? { signal: requestOptions.signal } : {}),
      })
    },
    notification: message => current().notification(message as never),
    getServerCapabilities: () => current().getServerCapabilities() as Record<string, unknown> | undefined,
    getServerVersion: () => current().getServerVersion(),
    getInstructions: () => current().getInstructions(),
    setNotificationHandler: (_method, handler) => {
      handlers.listChanged = handler
    },
    get fallbackNotificationHandler() {
      return handlers.fallbackNotificationHandler
    },
    set fallbackNotificationHandler(handler) {
      handlers.fallbackNotificationHandler = handler
      current().fallbackNotificationHandler = handler as never
    },
    get fallbackRequestHandler() {
      return handlers.fallbackRequestHandler
    },
    set fallbackRequestHandler(handler) {
      handlers.fallbackRequestHandler = handler
      if (handler)
        questionsTaken(handler)
    },
  }
}
