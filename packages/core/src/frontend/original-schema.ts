import type { JsonSchemaObject, ParserSemantics, PresetName } from '../types'
import type { JsonSchemaMethod, OriginalSchema, SchemaConverters, SchemaSide } from './interface'
import { isSchemaObject } from '../json'
import { arktypeOriginal, isArktype } from './arktype'
import { CONSERVATIVE_SEMANTICS } from './interface'
import { isJsonSchemaDocument, JSON_SCHEMA_VENDOR, jsonSchemaOriginal } from './json-schema'
import { isValibot, valibotOriginal, valibotStandardOriginal } from './valibot'
import { isZod, zodOriginal } from './zod'

export type { OriginalSchema, SchemaConverters, SchemaSide } from './interface'
export { UnrepresentableError } from './interface'

/** A library flatmcp has no front end for: read as conservatively as a JavaScript library can be. */
const UNKNOWN_LIBRARY_SEMANTICS: ParserSemantics = CONSERVATIVE_SEMANTICS

const EFFECT_FIX = 'combine Schema.toStandardSchemaV1(S) (validate) and Schema.toStandardJSONSchemaV1(S) (jsonSchema) into one ~standard object'

type Standard = { vendor?: unknown, validate?: unknown, jsonSchema?: Partial<Record<SchemaSide, unknown>> }

/** What to write instead, for a library whose schemas lack one half of what flatmcp needs. */
function missingHalf(schema: unknown, standard: Standard | undefined, side: SchemaSide): string | undefined {
  const vendor = typeof standard?.vendor === 'string' ? standard.vendor : undefined
  if (typeof standard?.jsonSchema?.[side] !== 'function') {
    if (isZod(schema)) {
      // zod/mini schemas carry no methods; classic zod's always have `.optional()`.
      return typeof (schema as { optional?: unknown }).optional !== 'function'
        ? 'a zod/mini schema has no ~standard.jsonSchema, and zod\'s own converter was not found beside it; build with unplugin-flatmcp or flatmcp build (they load it from the project), or use zod (import { z } from \'zod\')'
        : 'this zod version has no ~standard.jsonSchema; flatmcp needs zod 4.2 or newer'
    }
    if (vendor === 'effect')
      return `this effect schema has no ~standard.jsonSchema; ${EFFECT_FIX}`
    return 'expected a zod 4 schema, a Standard Schema that exposes ~standard.jsonSchema, or a JSON Schema as a plain object'
  }
  // The server parses every call with the schema's own validate: a JSON-only schema would build and then fail every call.
  if (side === 'input' && typeof standard.validate !== 'function') {
    return vendor === 'effect'
      ? `this effect schema has ~standard.jsonSchema but no ~standard.validate, so the server could not parse a call; ${EFFECT_FIX}`
      : `this ${vendor ?? 'Standard JSON'} schema has ~standard.jsonSchema but no ~standard.validate, so the server could not parse a call with it; pass a schema that has both`
  }
  return undefined
}

export interface OriginalSchemaOptions {
  /** For a JSON Schema: the parser it was written for (`auto`, the default: told by its fingerprints). */
  preset?: PresetName | 'auto'
}

/**
 * The JSON Schema of a tool's schema as its own library describes it (2020-12), through the
 * schema's Standard JSON Schema interface, so the conversion runs in the very copy of the library
 * the schema was made with. Each library's front end adds what its JSON cannot show.
 */
export function toOriginalSchema(schema: unknown, side: SchemaSide = 'input', converters: SchemaConverters = {}, options: OriginalSchemaOptions = {}): OriginalSchema {
  // A JSON Schema as data: the parser is a validator, or the language's that its preset names.
  if (isJsonSchemaDocument(schema))
    return jsonSchemaOriginal(schema, options.preset)
  const standard = (schema as { '~standard'?: Standard } | null | undefined)?.['~standard']
  const zodToJSONSchema = converters.zodToJSONSchema
  // zod/mini: zod's own converter, run on the schema, does what classic zod's ~standard.jsonSchema does.
  if (isZod(schema) && typeof standard?.jsonSchema?.[side] !== 'function' && zodToJSONSchema)
    return zodOriginal(({ target, libraryOptions }) => zodToJSONSchema(schema, { ...libraryOptions, target, io: side }))
  if (isValibot(schema))
    return valibotOriginal(schema, side, converters)
  const missing = missingHalf(schema, standard, side)
  if (missing)
    throw new TypeError(missing)
  const convert = standard!.jsonSchema![side] as JsonSchemaMethod
  if (standard!.vendor === JSON_SCHEMA_VENDOR) {
    const json = convert({ target: 'draft-2020-12' })
    if (!isSchemaObject(json))
      throw new TypeError('~standard.jsonSchema did not return a JSON Schema object')
    // Such a schema may name its parser itself (a proxy knows its upstream's): the caller's choice wins.
    const own = (schema as { '~flatmcp'?: { preset?: PresetName } })['~flatmcp']?.preset
    return jsonSchemaOriginal(json, options.preset === undefined || options.preset === 'auto' ? own ?? 'auto' : options.preset)
  }
  if (isZod(schema))
    return zodOriginal(convert)
  if (standard!.vendor === 'valibot')
    return valibotStandardOriginal(convert, converters)
  if (isArktype(schema))
    return arktypeOriginal(schema, convert)
  const json = convert({ target: 'draft-2020-12' })
  if (!isSchemaObject(json))
    throw new TypeError('~standard.jsonSchema did not return a JSON Schema object')
  return { schema: JSON.parse(JSON.stringify(json)) as JsonSchemaObject, notes: {}, semantics: UNKNOWN_LIBRARY_SEMANTICS }
}
