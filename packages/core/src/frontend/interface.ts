import type { JsonPointer, JsonSchemaObject, ParserSemantics, SchemaNotes } from '../types'

/** Which side of a schema to describe: what a caller sends (`input`) or what the parser returns. */
export type SchemaSide = 'input' | 'output'

/** What every front end hands the compiler: the original JSON Schema and what that JSON cannot show. */
export interface OriginalSchema {
  schema: JsonSchemaObject
  /** What the JSON cannot show, by pointer into `schema`. */
  notes: SchemaNotes
  /** How the library's parser reads keywords validators read otherwise. */
  semantics: ParserSemantics
}

/** A part of the schema has no JSON Schema form (a `z.date()`, a `z.bigint()`…). */
export class UnrepresentableError extends Error {
  /** What is wrong and what to use instead, without the path. */
  readonly reason: string
  constructor(readonly path: JsonPointer, readonly kind: string, detail: string, instead: Record<string, string> = {}) {
    const reason = `${kind} cannot be expressed in JSON Schema (${detail}); ${instead[kind] ?? 'use a schema JSON can carry'}`
    super(`${kind} at ${path || '/'}${reason.slice(kind.length)}`)
    this.reason = reason
    this.name = 'UnrepresentableError'
  }
}

/** A Standard JSON Schema converter: `~standard.jsonSchema.input` or `.output`. */
export type JsonSchemaMethod = (options: { target: string, libraryOptions?: Record<string, unknown> }) => unknown

/**
 * Converters a schema library keeps outside its schemas, loaded from the user's project by the
 * build (the core imports no schema library).
 */
export interface SchemaConverters {
  /** zod's own `toJSONSchema` (from `zod/v4/core`), for `zod/mini` schemas, which carry no `~standard.jsonSchema`. */
  zodToJSONSchema?: (schema: unknown, params: Record<string, unknown>) => unknown
  /** `toJsonSchema` from `@valibot/to-json-schema`, for plain valibot schemas. */
  valibotToJsonSchema?: (schema: unknown, config: Record<string, unknown>) => unknown
  /**
   * Options for a library's own conversion, by its Standard Schema vendor (`valibot`: its
   * `ConversionConfig`, such as `definitions` or `errorMode`), passed beside flatmcp's own.
   */
  libraryOptions?: Record<string, Record<string, unknown>>
}

/**
 * A JavaScript library's parser read as conservatively as one can be: RegExps tested with flags its
 * JSON drops (legacy mode), lengths in UTF-16 units, its own multipleOf, no format vouched for,
 * undeclared keys kept, keys found with `in`. What a library without a front end is read as.
 */
export const CONSERVATIVE_SEMANTICS: ParserSemantics = {
  patternFlags: '',
  lengthUnit: 'utf16',
  multipleOf: 'library',
  trustedFormats: [],
  unknownKeys: 'keep',
  objectKeys: 'in',
  refSiblings: 'and',
  nullAsAbsent: 'never',
}
