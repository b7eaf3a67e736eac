// A fetch handler's calls: a hidden tool refused, the search surface's own tools answered here (its
// call_tool sent on as the call it names), each call's arguments read by the upstream's schema with
// the fixed parameters set, and a lone call's result shaped as its tool's listed output says.
import type { ForwardedResult } from '../serve/outputs'
import type { CallRecord, Handler, Posted } from './fetch-state'
import type { JsonRpcRequest } from './json-rpc'
import { servedAs } from '../../service/choice-key'
import { errorResult } from '../../service/results'
import { callTarget, SURFACE_TOOLS } from '../../search/surface'
import { surfaceOf } from '../../search/views'
import { changedPaths } from '../../util/changed-paths'
import { overriddenArguments } from '../compile/overrides'
import { answerShaped } from './answer-shaped'
import { answered } from './fetch-state'
import { tracedSend } from '../../telemetry/fetch-telemetry'
import { jsonResponse, rpcError } from './json-rpc'

/** The search surface's own tools (in a batch, refused: MCP has had no batches since 2025-06-18). */
export const SURFACED = new Set<string>(Object.values(SURFACE_TOOLS))

/** Whether the caller is served the search surface: the handler's, or its view's. */
function searching(handler: Handler, posted: Posted): boolean {
  return surfaceOf(handler.overrides.views ?? {}, posted.profile, handler.options.surface ?? 'full') === 'search'
}

/** The tool a call reaches: the one named, or the one a call_tool names. */
function reached(surface: boolean, message: JsonRpcRequest): unknown {
  return surface && message.params?.name === SURFACE_TOOLS.call ? (callTarget(message.params.arguments) as { name?: unknown }).name : message.params?.name
}

/** Whether a name is a tool's the handler serves: in the snapshot's name map, and not hidden. */
function callable(handler: Handler, name: unknown): boolean {
  return typeof name === 'string' && handler.names.origin(name) !== undefined && !handler.overrides.hidden.has(name)
}

/** Whether a message calls find_tools or describe_tools, answered here (not call_tool, which names another). */
function ownTool(surface: boolean, message: JsonRpcRequest): boolean {
  return surfacedIn(surface, message) && message.params?.name !== SURFACE_TOOLS.call
}

/** Whether a message calls one of the search surface's own tools. */
function surfacedIn(surface: boolean, message: JsonRpcRequest): boolean {
  return surface && message.method === 'tools/call' && SURFACED.has(message.params?.name as string)
}

/**
 * Calls: a hidden tool's refused; the search surface's finding and describing answered here, its
 * call_tool sent on as the call it names; each call's arguments read by the upstream's schema, the
 * fixed parameters set; a lone call's result shaped as its tool's listed output says.
 */
export async function answerCalls(handler: Handler, request: Request, posted: Posted): Promise<Response> {
  const { batch, messages, profile } = posted
  const message = messages[0]!
  const surface = searching(handler, posted)
  // Only a served name is called: a hidden tool, or a name the snapshot does not serve (an upstream's own
  // `files.delete` beside the `files_delete` served), is no tool; called by name (or in a batch), a protocol error; a lone call_tool answers below.
  const hiddenCall = messages.find(m => m.method === 'tools/call' && !ownTool(surface, m) && !callable(handler, reached(surface, m)))
  if (hiddenCall && (batch || !surfacedIn(surface, hiddenCall)))
    return rpcError(batch ? null : hiddenCall.id, -32602, `Unknown tool ${JSON.stringify(reached(surface, hiddenCall))}.`, batch ? 400 : 200)
  if (batch && messages.some(m => surfacedIn(surface, m)))
    return rpcError(null, -32600, `Send ${[...SURFACED].join(', ')} on their own, not in a batch.`, 400)
  const sent = [...messages]
  const { call } = posted
  // The profile (a view's own) and the view the call is read in, apart: a ruled caller's key names its caller too.
  if (call)
    Object.assign(call, servedAs(profile, handler.overrides.views ?? {}))
  if (surfacedIn(surface, message)) {
    if (message.params!.name !== SURFACE_TOOLS.call) {
      if (call)
        call.reached = true
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, await handler.served.service().call(message.params!.name as string, message.params!.arguments, { signal: request.signal }, profile)) })
    }
    const target = callTarget(message.params!.arguments)
    if ('error' in target)
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, errorResult(target.error)) })
    // call_tool answers for a hidden tool as for a name no tool has: its tool error.
    if (!callable(handler, target.name))
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, errorResult(`Unknown tool ${JSON.stringify(target.name)}.`)) })
    sent[0] = { ...message, params: { ...message.params, name: target.name, arguments: target.arguments } }
  }
  const read = await Promise.all(sent.map(m => m.method === 'tools/call' ? readCall(handler, m, profile, batch ? undefined : call) : m))
  const viaCallTool = sent[0] !== message
  // A tool the caller's view leaves out is no tool to it: refused as a hidden one is, never sent on.
  const refused = read.find((each): each is Refused => 'refused' in each)
  if (refused && viaCallTool)
    return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, errorResult(refused.refused)) })
  if (refused)
    return rpcError(batch ? null : message.id ?? null, -32602, refused.refused, batch ? 400 : 200)
  const rewritten = read as JsonRpcRequest[]
  const name = sent[0]!.params?.name as string
  if (call)
    Object.assign(call, { reached: true, tool: name })
  const answer = call && handler.telemetry
    ? await tracedSend(handler.telemetry, call, request, rewritten[0]!, (traced, body) => handler.send(traced, body, posted.facts.era))
    : await handler.send(request, batch ? rewritten : rewritten[0]!, posted.facts.era)
  if (batch || message.id === undefined)
    return answer
  // A lone call's result is shaped as its tool's listed output says; through call_tool, the upstream's
  // protocol error is call_tool's tool error (as a direct call's is, where the proxy serves the surface).
  const shaped = handler.withOutput.has(name)
  if (!shaped && !viaCallTool)
    return answer
  return answerShaped(answer, message.id, {
    result: shaped ? result => handler.served.shape(name, result) : result => result,
    ...(viaCallTool ? { error: error => errorResult(String(error.message)) as ForwardedResult } : {}),
  })
}

/** A call the caller's view has no tool for, and what it is told. */
interface Refused { refused: string }

/**
 * A `tools/call` with its arguments as the upstream's parser should read them; the message as it was
 * when there is nothing to do; refused for a tool outside the caller's view. `call`: a traced call's
 * record, told what the repair changed.
 */
async function readCall(handler: Handler, message: JsonRpcRequest, profile: string | undefined, call?: CallRecord): Promise<JsonRpcRequest | Refused> {
  const name = message.params?.name
  if (typeof name !== 'string')
    return message
  const read = await handler.served.service().read(name, message.params!.arguments, profile)
  if (read && !read.ok && read.outside)
    return { refused: read.message }
  // Traced: where the repair changed the tool's own arguments (the fixed parameters are the operator's, not a repair).
  if (call && read?.ok)
    call.repaired = changedPaths(message.params!.arguments ?? {}, read.input)
  const input = read?.ok ? read.input : message.params!.arguments
  const overridden = handler.fixed.has(name) || handler.overrides.hiddenParameters.has(name)
  return read?.ok || overridden ? { ...message, params: { ...message.params, arguments: overriddenArguments(input, handler.fixed.get(name), handler.overrides.hiddenParameters.get(name)) } } : message
}
