// What a fetch handler holds for every request, and what it knows of one POST: shared by the
// handler's paths (listing, calls, and many servers' routing).
import type { ProfileChoice, RequestFacts } from '../../service/profile-choice'
import type { FixedParameter } from '../compile/overrides'
import type { ServedOverrides } from '../serve/served-overrides'
import type { ServedTools } from '../serve/served-tools'
import type { CallTelemetry } from '../../telemetry/call-telemetry'
import type { NameMap } from '../upstream/name-map'
import type { ProxyHandlerOptions } from './fetch-options'
import type { JsonRpcRequest } from './json-rpc'
import type { UpstreamFetch } from './upstream-fetch'

/** The servers behind a handler in front of many: the way to each server (where each call goes is the handler's name map). */
export interface GatewayServers {
  servers: ReadonlyMap<string, UpstreamFetch>
}

/** Sends what the handler made of a POST on: to the one upstream, or to the server its call names. */
export type Send = (request: Request, body: JsonRpcRequest | JsonRpcRequest[], era: RequestFacts['era']) => Promise<Response>

/** What one handler holds for every request: the snapshot's tools served, what the overrides mean, the way upstream. */
export interface Handler {
  options: ProxyHandlerOptions
  /** The profile each request is served: the options' choice, with the overrides' views a request asks for before it. */
  profile: ProfileChoice | undefined
  upstream: { name: string, version: string }
  /** What the snapshot's handshake told clients to know. */
  instructions?: string
  served: ServedTools
  overrides: ServedOverrides
  fixed: ReadonlyMap<string, Record<string, FixedParameter>>
  /** The tools whose results the handler reads on the way back: those that list an output schema. */
  withOutput: ReadonlySet<string>
  /** A request as it came (a GET, a DELETE, a POST nothing in which changes), sent on. */
  forward: (request: Request, body?: string) => Promise<Response>
  send: Send
  /** In front of many servers: where each call goes. */
  gateway?: GatewayServers
  /** Each served name's server and own name, as the snapshot recorded them (its tools' `origin`): only these are called. */
  names: NameMap
  /** Traces and measures each request, where the options hand in OpenTelemetry's API. */
  telemetry?: CallTelemetry
}

/** What a traced tools/call learns on its way: the tool it reached, what its repair changed, and its CLIENT span's end. */
export interface CallRecord {
  reached: boolean
  tool: string
  repaired: string[]
  /** The profile the call was read in (a view's own). */
  profile?: string
  /** The view it came through, where one applies. */
  view?: string
  /** Settles once the call sent upstream is answered and its CLIENT span ended. */
  sent?: Promise<void>
  /** The context that holds the request's SERVER span: its CLIENT span's parent. */
  trace?: unknown
}

/** One POST's messages as parsed: a lone message, or a batch. */
export interface Posted { text: string, batch: boolean, messages: JsonRpcRequest[], facts: RequestFacts, profile: string | undefined, call?: CallRecord }

/** A result this handler answers itself: in 2026-07-28, complete and saying which server answered (as the SDKs' servers stamp them). */
export function answered(handler: Handler, posted: Pick<Posted, 'facts'>, result: object): object {
  return posted.facts.era === 'modern' ? { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': handler.upstream } } : result
}

/**
 * A cacheable answer as a shared cache may keep it: `private` where the caller presents a credential
 * (the handler's `tokens`, or one of its own it sends on), so no cache answers one caller with another's.
 */
export function scoped<T extends { cacheScope: 'public' | 'private' }>(handler: Handler, request: Request, answer: T): T {
  const credentialed = (handler.options.tokens?.length ?? 0) > 0 || request.headers.has('authorization') || request.headers.has('cookie')
  return credentialed ? { ...answer, cacheScope: 'private' } : answer
}
