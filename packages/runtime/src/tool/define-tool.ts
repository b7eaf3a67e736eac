// A tool as its author writes it, and what its handler is given: the first stage of the runtime,
// which imports nothing of elicitation or serving (they import it).
import type { ToolDefinition as CompilableTool } from '@flatmcp/core'
import type { InferInput, InferOutput, StandardSchemaV1 } from './standard-schema'
import { unknownKeys } from '../util/closest-name'

export type { InferInput, InferOutput, StandardSchemaV1 } from './standard-schema'

type Awaitable<T> = T | Promise<T>

/** Hints about a tool's behaviour, as MCP's `ToolAnnotations`. */
export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
  [key: string]: unknown
}

/**
 * Declares the type of the shared context (what `extend.resolve` returns), once per project:
 * `declare module '@flatmcp/runtime' { interface Register { context: MyContext } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

export type ExtendContext = Register extends { context: infer C } ? C : unknown

/** What a handler gets beside its parsed input. */
export interface ToolCallContext<P> {
  /** The parsed `params`, when the tool declares them. */
  params: P
  /** What `extend.resolve` returned for this call (undefined without `extend`). */
  context: ExtendContext
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal
  /** Reports progress to the caller, where the call asked for it (a `progressToken`); else undefined. */
  progress?: (progress: ProgressUpdate) => Promise<void>
  /** The call's `_meta`, as the client sent it (a proxy passes it on). */
  meta?: Record<string, unknown>
  /**
   * Asks the user for a value of `schema` (any schema a tool's input may be: nested objects,
   * optional fields, enums, a discriminated union) through the client's elicitation forms, and
   * parses the answer with `schema`; a refused answer is asked again with the reason. Where the
   * client offers elicitation: a 2025 session, or 2026-07-28 (the call ends with `input_required`,
   * and the handler runs again from its start with the answers so far); else undefined.
   */
  elicit?: <S extends StandardSchemaV1>(schema: S, message: string, options?: ElicitOptions) => Promise<ElicitOutcome<InferOutput<S>>>
  /**
   * In a 2026-07-28 call: the state the call's last `input_required` round minted and the client's
   * answers to it, for a handler that asks the client by itself (throwing `InputRequired`, as a proxy
   * relays its upstream's questions); undefined in a 2025 session.
   */
  rounds?: { state: unknown, responses: Record<string, unknown> | undefined }
  /**
   * Where the server traces (`createMcpServer`'s `telemetry`): the OpenTelemetry context that holds
   * the call's SERVER span, to start a handler's own spans under (`tracer.startSpan(name, {}, trace)`)
   * whatever context manager the process runs, as a proxy starts the call it sends on; else undefined.
   */
  trace?: TraceContext
}

/**
 * An OpenTelemetry context, as `@opentelemetry/api` declares its `Context` (the same shape, so a
 * tracer takes it as a span's parent with no cast): the runtime imports nothing of OpenTelemetry.
 */
export interface TraceContext {
  getValue: (key: symbol) => unknown
  setValue: (key: symbol, value: unknown) => TraceContext
  deleteValue: (key: symbol) => TraceContext
}

/** How an elicitation ended: the parsed value, the user's refusal, or answers the schema kept refusing. */
export type ElicitOutcome<T> =
  | { action: 'accept', value: T }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'invalid', message: string }

export interface ElicitOptions {
  /** How many times the whole form is asked before the outcome is `invalid`. Default: 3. */
  attempts?: number
}

/** One `notifications/progress` of a call: how far, out of how much, and what is happening. */
export interface ProgressUpdate {
  progress: number
  total?: number
  message?: string
}

/**
 * A tool as its author writes it. `input` may be an object or a union; the handler receives the
 * value the original schema parsed, with its original (union) type.
 */
export interface ToolDefinition<
  I extends StandardSchemaV1 = StandardSchemaV1,
  P extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
  O extends StandardSchemaV1 | undefined = StandardSchemaV1 | undefined,
> extends CompilableTool {
  name: string
  title?: string
  description?: string
  annotations?: ToolAnnotations
  /**
   * Claude Code defers a server's tools behind its tool search: `true` keeps this one in every prompt
   * (listed as `_meta["anthropic/alwaysLoad"]`), `false` lets it be deferred even where the server's
   * tools are kept.
   */
  alwaysLoad?: boolean
  /** Words a client's tool search finds this tool by (`_meta["anthropic/searchHint"]`); `true` makes them from its name, description and keys. */
  searchHint?: string | true
  params?: P
  input: I
  output?: O
  handler: (
    input: InferOutput<I>,
    context: ToolCallContext<P extends StandardSchemaV1 ? InferOutput<P> : undefined>,
  ) => Awaitable<O extends StandardSchemaV1 ? InferInput<O> : unknown>
}

/** Marks a definition made by `defineTool`, so build tooling can find tools among a module's exports. */
export const TOOL_MARK: unique symbol = Symbol.for('flatmcp.tool')

/** Every key a tool may have: another is a mistyped one, which would be ignored in silence. */
export const TOOL_KEYS: readonly string[] = ['name', 'title', 'description', 'annotations', 'alwaysLoad', 'searchHint', 'params', 'input', 'output', 'handler']

/**
 * Declares a tool. At runtime it returns the very object it was given (marked, when the object can
 * take a property); its value is in the types: the handler sees the parsed input's own type. A key
 * no tool has (`descripton`) is an error naming the one meant, thrown where the tool is declared.
 */
export function defineTool<
  I extends StandardSchemaV1,
  P extends StandardSchemaV1 | undefined = undefined,
  O extends StandardSchemaV1 | undefined = undefined,
>(definition: ToolDefinition<I, P, O>): ToolDefinition<I, P, O> {
  const unknown = typeof definition === 'object' && definition !== null ? unknownKeys(definition, TOOL_KEYS) : []
  if (unknown.length > 0)
    throw new TypeError(`defineTool: tool ${JSON.stringify(definition.name)} has ${unknown.length === 1 ? 'a key no tool has' : 'keys no tool has'}: ${unknown.join(', ')}; a tool's keys are ${TOOL_KEYS.join(', ')}`)
  if (Object.isExtensible(definition) && !Object.prototype.hasOwnProperty.call(definition, TOOL_MARK))
    Object.defineProperty(definition, TOOL_MARK, { value: true, enumerable: false })
  return definition
}

/** True for a value made by `defineTool`, or one with a tool's shape (a name, an input, a handler). */
export function isToolDefinition(value: unknown): value is ToolDefinition {
  if (typeof value !== 'object' || value === null)
    return false
  if ((value as Record<symbol, unknown>)[TOOL_MARK] === true)
    return true
  const tool = value as Partial<ToolDefinition>
  return typeof tool.name === 'string' && typeof tool.handler === 'function' && typeof tool.input === 'object' && tool.input !== null
}
