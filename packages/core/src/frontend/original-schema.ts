import type { JsonSchemaObject, ParserSemantics } from '../types'
import type { JsonSchemaMethod, OriginalSchema, SchemaSide } from './interface'
import { isSchemaObject } from '../json'
import { isZod, zodOriginal } from './zod'

export type { OriginalSchema, SchemaSide } from './interface'
export { UnrepresentableError } from './interface'

/**
 * A library flatmcp has no front end for: read as conservatively as a JavaScript library can be
 * (legacy-mode patterns, UTF-16 lengths, its own multipleOf, no format vouched for, extra keys kept).
 */
const UNKNOWN_LIBRARY_SEMANTICS: ParserSemantics = {
  patternFlags: '',
  lengthUnit: 'utf16',
  multipleOf: 'library',
  trustedFormats: [],
  unknownKeys: 'keep',
}

function standardJsonSchema(schema: unknown, side: SchemaSide): JsonSchemaMethod | undefined {
  const standard = (schema as { '~standard'?: { jsonSchema?: Partial<Record<SchemaSide, JsonSchemaMethod>> } } | null | undefined)?.['~standard']
  const method = standard?.jsonSchema?.[side]
  return typeof method === 'function' ? method : undefined
}

/**
 * The JSON Schema of a tool's schema as its own library describes it (2020-12), through the
 * schema's Standard JSON Schema interface, so the conversion runs in the very copy of the library
 * the schema was made with. Each library's front end adds what its JSON cannot show.
 */
export function toOriginalSchema(schema: unknown, side: SchemaSide = 'input'): OriginalSchema {
  const convert = standardJsonSchema(schema, side)
  if (!convert) {
    throw new TypeError(isZod(schema)
      ? 'this zod version has no ~standard.jsonSchema; flatmcp needs zod 4.2 or newer'
      : 'expected a zod 4 schema or a Standard Schema that exposes ~standard.jsonSchema')
  }
  if (isZod(schema))
    return zodOriginal(convert)
  const json = convert({ target: 'draft-2020-12' })
  if (!isSchemaObject(json))
    throw new TypeError('~standard.jsonSchema did not return a JSON Schema object')
  return { schema: JSON.parse(JSON.stringify(json)) as JsonSchemaObject, notes: {}, semantics: UNKNOWN_LIBRARY_SEMANTICS }
}
