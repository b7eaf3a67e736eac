// A member's questions (a form, a sampled message, its roots) asked only within a call that went to
// that member: a form shown while another member's call is under way would pass for that call's. The
// member's client counts the calls sent to it and names it to whoever sent them (a 2026-07-28 call
// asks in its own rounds only); a form or a sampled message it asks with none in flight is refused,
// told why, and said once per connection. Its roots, which ask nothing of a person, are answered
// wherever a client keeps a session to answer them.
import type { AskedContext, Message, RequestOptions, UpstreamClient } from '../upstream'

/** The requests a client's call sends to one member: within them, the member may ask. */
const CALLS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete'])

/** What a member may ask only within a call to it: what a person sees or pays for. */
const WITHIN_CALLS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage'])

/** The refusals made for a question asked outside its server's calls: said on the operator's log where they come back. */
const refusals = new WeakSet<Error>()

/** The refusal a member hears for `method` asked outside any call to it. */
export function outsideCalls(server: string, method: string): Error {
  const error = Object.assign(new Error(`the server ${JSON.stringify(server)} asked for ${method} outside any call to it: a server behind this proxy is asked nothing but within its own calls`), { code: -32603 })
  refusals.add(error)
  return error
}

export interface MemberQuestions {
  /** The member's client, each call to it counted and named to the one who sent it. */
  client: UpstreamClient
  /** The handler of the member's own requests: the proxy's, told which member asks. */
  handler: (request: Message, ctx: AskedContext) => Promise<unknown>
}

/** The member `server` connected as `client`, its questions heard by `handler` only within its calls. */
export function memberQuestions(server: string, client: UpstreamClient, handler: (request: Message, ctx: AskedContext) => Promise<unknown>, log: (line: string) => void): MemberQuestions {
  let inFlight = 0
  const said = new Set<string>()
  const refused = (error: Error, method: string): Error => {
    if (refusals.has(error) && !said.has(method)) {
      said.add(method)
      log(`flatmcp proxy: server ${JSON.stringify(server)} asked for ${method} outside any call to it; refused (said once)`)
    }
    return error
  }
  const request = async (message: Message, schema: unknown, options?: RequestOptions): Promise<unknown> => {
    const { routedTo, ...rest } = options ?? {}
    if (!CALLS.has(message.method))
      return client.request(message, schema, options && rest)
    routedTo?.(server)
    inFlight++
    try {
      return await client.request(message, schema, rest)
    }
    finally {
      inFlight--
    }
  }
  return {
    // Everything else is the client's own (its handlers, its capabilities).
    client: new Proxy(client, {
      get(target, property) {
        if (property === 'request')
          return request
        const value = Reflect.get(target, property, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
      set: (target, property, value) => Reflect.set(target, property, value, target),
    }),
    handler: async (asked, ctx) => {
      if (WITHIN_CALLS.has(asked.method) && inFlight === 0)
        throw refused(outsideCalls(server, asked.method), asked.method)
      try {
        return await handler(asked, { ...ctx, asker: server })
      }
      catch (error) {
        throw refused(error as Error, asked.method)
      }
    },
  }
}
