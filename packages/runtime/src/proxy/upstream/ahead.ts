// An upstream served before it is connected: what it says of itself (its name, capabilities and
// instructions) answered from a handshake recorded before (a snapshot's) until the connection is
// made; every request and notification waits for the connection, and fails with it. The handlers the
// proxy sets hold from the start and reach the connection once it is made.
import type { Upstream, UpstreamClient } from './upstream'
import { within } from '../../util/wait'

/** What an upstream said in a handshake before: its name and version, capabilities and instructions. */
export interface Recorded {
  info: { name: string, version: string }
  capabilities: Record<string, unknown>
  instructions?: string
}

/** How long closing waits for a connection still being made before it leaves it (the process ends it). */
const CLOSE_WAIT_MS = 5_000

type Handlers = Pick<UpstreamClient, 'fallbackNotificationHandler' | 'fallbackRequestHandler'> & { listChanged?: () => void, ended?: (why?: string) => void }

/** `connecting`, served at once: answering for itself from `recorded` until it is connected. */
export function ahead(connecting: Promise<Upstream>, where: string, recorded: Recorded): Upstream {
  let live: Upstream | undefined
  const handlers: Handlers = {}
  const connected = connecting.then((upstream) => {
    live = upstream
    holdOn(upstream, handlers)
    return upstream
  })
  const made = connected.then(() => {})
  made.catch(() => {}) // heard by every request that waits for it
  return {
    client: deferredClient(connected, () => live, recorded, handlers),
    where,
    connected: made,
    onEnd: (handler) => {
      handlers.ended = handler
      live?.onEnd(handler)
    },
    close: async () => {
      const upstream = live ?? await within(connected.catch(() => undefined), CLOSE_WAIT_MS)
      await upstream?.close()
    },
  }
}

/** The handlers set before the connection was made, handed to it. */
function holdOn(upstream: Upstream, handlers: Handlers): void {
  if (handlers.listChanged)
    upstream.client.setNotificationHandler('notifications/tools/list_changed', handlers.listChanged)
  if (handlers.fallbackNotificationHandler)
    upstream.client.fallbackNotificationHandler = handlers.fallbackNotificationHandler
  if (handlers.fallbackRequestHandler)
    upstream.client.fallbackRequestHandler = handlers.fallbackRequestHandler
  if (handlers.ended)
    upstream.onEnd(handlers.ended)
}

/** The upstream's client before and after its connection: requests wait for it; what it says of itself is recorded until then. */
function deferredClient(connected: Promise<Upstream>, live: () => Upstream | undefined, recorded: Recorded, handlers: Handlers): UpstreamClient {
  return {
    request: async (message, schema, options) => (await connected).client.request(message, schema, options),
    notification: async message => (await connected).client.notification(message),
    getServerCapabilities: () => live()?.client.getServerCapabilities() ?? recorded.capabilities,
    getServerVersion: () => live()?.client.getServerVersion() ?? recorded.info,
    getInstructions: () => {
      const upstream = live()
      return upstream ? upstream.client.getInstructions() : recorded.instructions
    },
    setNotificationHandler: (method, handler) => {
      handlers.listChanged = handler
      live()?.client.setNotificationHandler(method, handler)
    },
    get fallbackNotificationHandler() {
      return handlers.fallbackNotificationHandler
    },
    set fallbackNotificationHandler(handler) {
      handlers.fallbackNotificationHandler = handler
      const upstream = live()
      if (upstream)
        upstream.client.fallbackNotificationHandler = handler
    },
    get fallbackRequestHandler() {
      return handlers.fallbackRequestHandler
    },
    set fallbackRequestHandler(handler) {
      handlers.fallbackRequestHandler = handler
      const upstream = live()
      if (upstream)
        upstream.client.fallbackRequestHandler = handler
    },
  }
}
