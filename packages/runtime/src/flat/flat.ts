// `flat(schema)`: the original schema, advertised flat, as a Standard Schema any framework takes; its
// `validate` reads a value as a server reads a call (the one loop in `read/`), then the original decides.
import type * as Compiler from '@flatmcp/core'
import type { CoercionPlan, ProfileName } from '@flatmcp/core'
import type { ReadingPlan, Tried } from '../read/readings'
import type { InferInput, InferOutput, StandardSchemaV1 } from '../tool/define-tool'
import type { Issue } from '../validate/validate'
import { loadCompiler } from '../precomputed/compiler'
import { RefusedArguments } from '../coerce/inverse-args'
import { readArguments, readingPlan } from '../read/readings'
import { describeIssues as describeIssuesFor, modelIssues } from '../validate/messages'

/** The JSON Schema dialects `jsonSchema.input()`/`output()` answer for: the flat document is valid in both. */
export type JsonSchemaTarget = 'draft-2020-12' | 'draft-07'
const TARGETS: readonly string[] = ['draft-2020-12', 'draft-07']

export interface FlatOptions {
  /** The profile the flat schema follows (default `portable`). */
  profile?: ProfileName
  /** A name for diagnostics and messages (a tool name, say). Default: `input`. */
  name?: string
  /**
   * What `validate` returns when the original rejects a value: `model` (default) keeps each issue at
   * its path with a message a model can act on (the variant its discriminator selected, what is
   * missing or not accepted); `original` returns the original's issues untouched.
   */
  messages?: 'model' | 'original'
  /**
   * Told what the original's `validate` threw (a refine that throws, say): the value is answered as
   * not accepted, with a message that says nothing of the error, never the thrown message.
   * Default: `console.error`.
   */
  onError?: (error: unknown) => void
}

type Result<O> = { readonly value: O, readonly issues?: undefined } | { readonly issues: readonly Issue[] }

/**
 * The original schema, advertised flat: a Standard Schema (v1) that also implements Standard JSON
 * Schema. Its types are the original's.
 */
export interface FlatSchema<S extends StandardSchemaV1 = StandardSchemaV1> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: 'flatmcp'
    /** Coerces by the precomputed plan, then runs the original's own `validate`. */
    readonly validate: (value: unknown) => Result<InferOutput<S>> | Promise<Result<InferOutput<S>>>
    readonly types?: { readonly input: InferInput<S>, readonly output: InferOutput<S> } | undefined
    readonly jsonSchema: {
      /** The precomputed flat schema: the same object on every call, no work done. Do not mutate it. */
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      /** The original's own output JSON Schema, computed once. */
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
  /** The schema `flat()` was given, and its options. */
  readonly schema: S
  readonly options: FlatOptions
  /** Model-facing text for issues `validate` returned (as `createMcpServer` answers a wrong call). */
  readonly describe: (issues: readonly Issue[], value: unknown) => string
}

/** What a build precomputes for a `flat()` schema (or what the first use compiles). */
export interface FlatData {
  inputSchema: Record<string, unknown>
  coercion: CoercionPlan
  /** A target profile's places advertised as JSON text, parsed back before `coercion`. */
  decode?: CoercionPlan
  discriminator?: string
  outputSchema?: Record<string, unknown>
}

/** Where precomputed data hangs on a `flat()` value (put there by the code the build appends). */
export const FLAT_COMPILED: unique symbol = Symbol.for('flatmcp.flat.compiled')
const FLAT_MARK: unique symbol = Symbol.for('flatmcp.flat')

export function isFlatSchema(value: unknown): value is FlatSchema {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FLAT_MARK] === true
}

/** Called by the build's generated code: a `flat()` value's precomputed data. */
export function attachFlat(value: unknown, data: FlatData): void {
  if (isFlatSchema(value))
    Object.defineProperty(value, FLAT_COMPILED, { value: data, configurable: true })
}

let warned = false

function compileNow(schema: StandardSchemaV1, options: FlatOptions): FlatData {
  const name = options.name ?? 'input'
  if (!warned) {
    warned = true
    console.warn(`flatmcp: flat() schema "${name}" has no precomputed data; compiling it now. Export it from a tool module built with unplugin-flatmcp to skip this.`)
  }
  // In the serving process: no transform or refine of the author's runs on a made-up example.
  const compiled = loadCompiler(`flat() schema "${name}"`).compileTool({ name, input: schema, handler: () => undefined } as Compiler.ToolDefinition, { examples: 'schema', ...(options.profile === undefined ? {} : { profile: options.profile }) })
  return { inputSchema: compiled.inputSchema, coercion: compiled.coercion, ...(compiled.decode === undefined ? {} : { decode: compiled.decode }), ...(compiled.discriminator === undefined ? {} : { discriminator: compiled.discriminator }) }
}

function checkTarget(target: string, name: string): void {
  if (!TARGETS.includes(target))
    throw new Error(`flatmcp: flat() schema "${name}" cannot produce JSON Schema for target "${target}"; it supports ${TARGETS.join(' and ')}.`)
}

/** Logs to stderr (console.error), wherever the server runs. */
function logThrown(error: unknown): void {
  console.error(`flatmcp: a flat() schema's validate threw: ${error instanceof Error ? error.message : String(error)}`)
}

/**
 * The original schema, advertised flat. `jsonSchema.input()` returns the precomputed flat schema
 * (it accepts every value the original accepts, with no `oneOf`/`anyOf`); `validate` repairs
 * double-serialized arguments by the precomputed plan, then runs the original's own `validate`,
 * synchronously when the original is. Usable wherever a Standard Schema with JSON Schema goes: the
 * MCP SDK 2.x `registerTool`, and other Standard Schema MCP frameworks.
 */
export function flat<S extends StandardSchemaV1>(schema: S, options: FlatOptions = {}): FlatSchema<S> {
  const name = options.name ?? 'input'
  const original = schema['~standard'] as StandardSchemaV1['~standard'] & { validate: (value: unknown) => Result<InferOutput<S>> | Promise<Result<InferOutput<S>>> }
  let data: FlatData | undefined
  let reading: ReadingPlan | undefined
  const compiled = (): FlatData => data ??= (self as unknown as Record<symbol, FlatData | undefined>)[FLAT_COMPILED] ?? compileNow(schema, options)
  const rewrite = (result: Result<InferOutput<S>>, value: unknown): Result<InferOutput<S>> =>
    result.issues && options.messages !== 'original' ? { issues: modelIssues(result.issues, value, compiled().discriminator) } : result
  const self: FlatSchema<S> = {
    '~standard': {
      version: 1,
      vendor: 'flatmcp',
      types: original.types as FlatSchema<S>['~standard']['types'],
      validate(value) {
        const known = compiled()
        reading ??= readingPlan(known)
        const check = (args: unknown): Result<InferOutput<S>> | Promise<Result<InferOutput<S>>> => {
          const threw = (error: unknown): Result<InferOutput<S>> => {
            (options.onError ?? logThrown)(error)
            return { issues: [{ message: 'could not be checked: an internal error occurred (logged on the server)' }] }
          }
          if (args instanceof RefusedArguments)
            return { issues: [{ message: args.message }] }
          try {
            const result = original.validate(args)
            return result instanceof Promise ? result.catch(threw) : result
          }
          catch (error) {
            return threw(error)
          }
        }
        // Each reading in turn (a strict profile's nulls, then scalars' JSON text), synchronously when the original is.
        const settle = ({ result, args }: Tried<Result<InferOutput<S>>>): Result<InferOutput<S>> => result.issues ? rewrite(result, args) : result
        const tried = readArguments(value, reading, check, result => !result.issues)
        return tried instanceof Promise ? tried.then(settle) : settle(tried)
      },
      jsonSchema: {
        input({ target }) {
          checkTarget(target, name)
          return compiled().inputSchema
        },
        output({ target }) {
          checkTarget(target, name)
          const known = compiled()
          return known.outputSchema ??= loadCompiler(`flat() schema "${name}"`).toOriginalSchema(schema, 'output').schema as Record<string, unknown>
        },
      },
    },
    schema,
    options,
    describe: (issues, value) => describeIssuesFor(name, issues, value, compiled().discriminator),
  }
  Object.defineProperty(self, FLAT_MARK, { value: true })
  return self
}
