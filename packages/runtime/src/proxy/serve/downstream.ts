// The proxy's downstream side: the SDK 2.x `Server` made for each connection (or each stateless
// request), serving the list version of the moment and passing every other request and notification
// upstream; the client that can be asked the upstream's questions; and where the upstream's own
// notifications go (the connected session, and the listeners of a stateless serving entry), within a
// bounded backlog while that session's client is not reading.
import type { McpServerOptions, ServedRequest } from '../../service/options'
import type { ToolService } from '../../service/tool-service'
import type { Message, UpstreamClient } from '../upstream/upstream'
import type { Forwarder } from './forward-call'
import { Server } from '@modelcontextprotocol/server'
import type { CallTelemetry } from '../../telemetry/call-telemetry'
import { serveTools } from '../../host/sdk-v2'
import { DISCLOSURE_CAPABILITY } from '../../search/disclosure'
import { opening } from '../../util/wait'
import { backlog, sendWithin } from '../../util/backlog'
import { forwardedParams } from '../upstream/forward'

/** Who hears the upstream's own notifications, and which client may be asked its questions. */
export interface Downstreams {
  /**
   * Sends a notification to the session connected last and to every listener; settles once the
   * session has taken it (or it was dropped: past the backlog, or a list change told already).
   */
  tell: (notification: Message) => Promise<void>
  /** Adds a listener; returns what removes it. */
  listen: (listener: (notification: Message) => void) => () => void
  /** The client that can be asked: a 2025 session once initialized, or `rounds` (a 2026-07-28 client, in the rounds of its calls). */
  asked: Promise<Server | 'rounds'>
  /** A server that keeps a session (stdio, or a 2025 session) became the one the upstream's messages reach. */
  connected: (server: Server, request?: ServedRequest) => void
}

/** The most notifications waiting for the session's client to read them, and their bytes: past either, the next are dropped. */
export const NOTIFICATION_BACKLOG = { count: 1024, bytes: 16 * 1024 * 1024 }

export function downstreams(notify?: (notification: Message) => void, log: (line: string) => void = () => {}): Downstreams {
  const listeners = new Set<(notification: Message) => void>(notify ? [notify] : [])
  const session = opening<Server | 'rounds'>()
  let latest: Server | undefined
  const admit = backlog(NOTIFICATION_BACKLOG, {
    full: () => log(`flatmcp proxy: the client is not reading its notifications; past ${NOTIFICATION_BACKLOG.count} waiting (or ${NOTIFICATION_BACKLOG.bytes / 1024 / 1024} MiB) they are dropped, a list change told once`),
    drained: dropped => log(`flatmcp proxy: the client reads its notifications again; ${dropped} were dropped`),
  })
  // A list change waiting to be read tells the client of the next one too.
  const changes = new Set<string>()
  const send = (server: Server, notification: Message): Promise<void> => {
    const sent = (): Promise<void> => server.notification(notification as never).catch(() => {})
    if (!notification.method.endsWith('/list_changed'))
      return sendWithin(admit, sent, JSON.stringify(notification.params ?? {}).length)
    if (changes.has(notification.method))
      return Promise.resolve()
    changes.add(notification.method)
    return sent().finally(() => changes.delete(notification.method))
  }
  return {
    tell(notification) {
      const told = latest ? send(latest, notification) : Promise.resolve()
      for (const listener of listeners)
        listener(notification)
      return told
    },
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    asked: session.opened,
    connected(server, request) {
      latest = server
      // A 2025 session is asked questions once it is initialized; a 2026-07-28 client, in the rounds of its calls.
      if (request?.era === 'modern')
        session.open('rounds')
      else
        server.oninitialized = () => session.open(server)
    },
  }
}

export interface ServerFactoryOptions {
  info: { name: string, version: string }
  profile: McpServerOptions['profile']
  /** Which caller is served which tools. */
  rules?: McpServerOptions['rules']
  /** The tool service of the list version served now. */
  service: () => ToolService
  forward: Forwarder
  downstreams: Downstreams
  /** Hears each tools/call once answered. */
  onCall?: McpServerOptions['onCall']
  /** Traces and measures each tools/call. */
  telemetry?: CallTelemetry
}

/** Makes the `Server` of one downstream connection: the upstream's capabilities mirrored, its instructions given. */
export function serverFactory(upstream: UpstreamClient, options: ServerFactoryOptions): (request?: ServedRequest) => Server {
  const mirrored = upstream.getServerCapabilities() ?? {}
  // The proxy's list may change where the upstream's does not (an output schema withdrawn): it says so.
  const capabilities = { ...mirrored, tools: { ...(mirrored.tools as object | undefined), listChanged: true, ...DISCLOSURE_CAPABILITY } }
  const instructions = upstream.getInstructions()
  return (request) => {
    const server = new Server(options.info, { capabilities, ...(instructions === undefined ? {} : { instructions }) })
    serveTools(server, options.service, { profile: options.profile, ...(options.rules ? { rules: options.rules } : {}), ...(request ? { request } : {}), ...(options.onCall ? { onCall: options.onCall } : {}) }, undefined, options.telemetry)
    server.fallbackRequestHandler = ((message: Message, ctx: never) => options.forward.request(message, ctx, () => server.getNegotiatedProtocolVersion())) as never
    server.fallbackNotificationHandler = async (notification) => {
      const params = forwardedParams((notification as Message).params)
      await upstream.notification({ method: (notification as Message).method, ...(params === undefined ? {} : { params }) })
    }
    // A stdio connection (or a 2025 session) keeps a session the upstream's own messages can reach; one stateless HTTP request does not.
    if (!request?.requestInfo)
      options.downstreams.connected(server, request)
    return server
  }
}
