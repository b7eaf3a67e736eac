import type * as zc from 'zod/v4/core'
import type { InvisibleConstraint, JsonPointer, JsonSchemaObject, SchemaNote, SchemaNotes } from '../types'
import { childPointer, isSchemaObject } from '../json'

/** Which side of a schema to describe: what a caller sends (`input`) or what the parser returns. */
export type SchemaSide = 'input' | 'output'

export interface OriginalSchema {
  schema: JsonSchemaObject
  /** What the JSON cannot show, by pointer into `schema`. Empty for non-zod schemas. */
  notes: SchemaNotes
}

/** A part of the schema has no JSON Schema form (a `z.date()`, a `z.bigint()`…). */
export class UnrepresentableError extends Error {
  /** What is wrong and what to use instead, without the path. */
  readonly reason: string
  constructor(readonly path: JsonPointer, readonly kind: string, detail: string) {
    const reason = `${kind} cannot be expressed in JSON Schema (${detail}); ${INSTEAD[kind] ?? 'use a schema JSON can carry'}`
    super(`${kind} at ${path || '/'}${reason.slice(kind.length)}`)
    this.reason = reason
    this.name = 'UnrepresentableError'
  }
}

/** What a tool input can use instead of a kind JSON cannot carry. */
const INSTEAD: Record<string, string> = {
  'z.date()': 'for a date, use z.iso.datetime() or z.iso.date()',
  'z.bigint()': 'for a large integer, use z.string().regex(/^-?\\d+$/) (or z.number().int() within 2^53)',
  'z.int64()': 'for a large integer, use z.string().regex(/^-?\\d+$/) (or z.number().int() within 2^53)',
  'z.file()': 'a tool receives JSON: take the content as a base64 string (z.base64()) or a URL (z.url())',
  'z.nan()': 'JSON has no NaN: use z.number() or z.null()',
  'z.map()': 'use z.record() for string keys, or an array of [key, value] tuples',
  'z.set()': 'use z.array() (a set arrives as an array)',
  'z.undefined()': 'make the key optional with .optional() instead',
  'z.void()': 'make the key optional with .optional() instead',
  'z.symbol()': 'use a string or an enum',
}

const MARK = 'x-flatmcp-note'

interface ZodLike { _zod: { def: Record<string, unknown> & { type: string } } }

function isZod(schema: unknown): schema is zc.$ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema
}

function defOf(schema: unknown): (Record<string, unknown> & { type: string }) | undefined {
  return isZod(schema) ? (schema as unknown as ZodLike)._zod.def : undefined
}

/** What a zod node's parser does that its JSON Schema does not show. */
function noteFor(schema: zc.$ZodType): SchemaNote | undefined {
  const def = defOf(schema)!
  const invisible: InvisibleConstraint[] = []
  for (const check of (def.checks as unknown[] | undefined) ?? []) {
    const kind = defOf(check)?.check ?? (check as ZodLike)._zod?.def?.check
    if (kind === 'custom')
      invisible.push('refine')
    else if (kind === 'overwrite')
      invisible.push('overwrite')
  }
  if (def.coerce === true)
    invisible.push('coerce')
  if (def.type === 'catch')
    invisible.push('catch')
  if (def.type === 'custom')
    invisible.push('refine')
  if (def.type === 'transform')
    invisible.push('transform')
  if (def.type === 'pipe') {
    if (defOf(def.in)?.type === 'transform')
      invisible.push('preprocess')
    else if (defOf(def.out)?.type === 'transform')
      invisible.push('transform')
    else
      invisible.push('pipe')
  }
  const note: SchemaNote = {}
  if (invisible.length > 0)
    note.invisible = invisible
  if (def.type === 'union' && typeof def.discriminator === 'string')
    note.discriminator = def.discriminator
  return note.invisible || note.discriminator ? note : undefined
}

/** Whether a zod schema accepts null, asked of the schema itself (a throwing or async check counts as yes). */
function takesNull(schema: zc.$ZodType): boolean {
  try {
    const result = (schema as unknown as { '~standard': { validate: (value: unknown) => unknown } })['~standard'].validate(null)
    return result instanceof Promise || !(result as { issues?: unknown }).issues
  }
  catch {
    return true
  }
}

function mergeNotes(a: SchemaNote | undefined, b: SchemaNote): SchemaNote {
  const invisible = [...new Set([...(a?.invisible ?? []), ...(b.invisible ?? [])])]
  const out: SchemaNote = { ...a, ...b }
  if (invisible.length > 0)
    out.invisible = invisible
  return out
}

/**
 * Records the marks left on the JSON by pointer. zod may share one object between places, so every
 * place is recorded before any mark is removed (by `removeMarks`).
 */
function collectNotes(node: unknown, pointer: JsonPointer, notes: SchemaNotes, marked: Set<JsonSchemaObject>): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => collectNotes(child, childPointer(pointer, i), notes, marked))
    return
  }
  if (!isSchemaObject(node))
    return
  if (MARK in node) {
    notes[pointer] = node[MARK] as SchemaNote
    marked.add(node)
  }
  for (const [key, child] of Object.entries(node))
    collectNotes(child, childPointer(pointer, key), notes, marked)
}

function pointerOf(path: (string | number)[]): JsonPointer {
  return childPointer('', ...path)
}

type JsonSchemaMethod = (options: { target: string, libraryOptions?: Record<string, unknown> }) => unknown

function standardJsonSchema(schema: unknown, side: SchemaSide): JsonSchemaMethod | undefined {
  const standard = (schema as { '~standard'?: { jsonSchema?: Partial<Record<SchemaSide, JsonSchemaMethod>> } } | null | undefined)?.['~standard']
  const method = standard?.jsonSchema?.[side]
  return typeof method === 'function' ? method : undefined
}

/** zod's own conversion options: notes left on the JSON, unrepresentable parts as errors with a path. */
const zodOptions = {
  cycles: 'ref',
  reused: 'inline',
  unrepresentable: ({ zodSchema, path, message }: { zodSchema: unknown, path: (string | number)[], message: string }) => {
    throw new UnrepresentableError(pointerOf(path), `z.${defOf(zodSchema)?.type ?? 'unknown'}()`, message)
  },
  override: ({ zodSchema, jsonSchema, path }: { zodSchema: zc.$ZodType, jsonSchema: JsonSchemaObject, path: (string | number)[] }) => {
    const type = defOf(zodSchema)?.type
    // zod writes a file as a binary string, but a tool call carries JSON: no File arrives.
    if (type === 'file')
      throw new UnrepresentableError(pointerOf(path), 'z.file()', 'a File object cannot arrive in JSON arguments')
    // zod describes z.success() by its output (a boolean); its input is whatever the inner schema
    // takes. Unknown here, so: any value (sound, and reported as untyped).
    if (type === 'success') {
      for (const key of Object.keys(jsonSchema))
        delete jsonSchema[key]
    }
    const note = noteFor(zodSchema) ?? {}
    // Where the JSON was widened to "any value", whether the schema itself takes null: a strict
    // target's inverse keeps a null only where the original takes one.
    if ((type === 'success' || type === 'custom') && !takesNull(zodSchema))
      note.rejectsNull = true
    if (Object.keys(note).length > 0)
      jsonSchema[MARK] = mergeNotes(jsonSchema[MARK] as SchemaNote | undefined, note)
  },
}

/**
 * The JSON Schema of a tool's schema as its own library describes it (2020-12), through the
 * schema's Standard JSON Schema interface, so the conversion runs in the very copy of the library
 * the schema was made with. For zod 4 it also gathers notes of what the JSON cannot show.
 */
export function toOriginalSchema(schema: unknown, side: SchemaSide = 'input'): OriginalSchema {
  const convert = standardJsonSchema(schema, side)
  if (!convert) {
    throw new TypeError(isZod(schema)
      ? 'this zod version has no ~standard.jsonSchema; flatmcp needs zod 4.2 or newer'
      : 'expected a zod 4 schema or a Standard Schema that exposes ~standard.jsonSchema')
  }
  if (!isZod(schema)) {
    const json = convert({ target: 'draft-2020-12' })
    if (!isSchemaObject(json))
      throw new TypeError('~standard.jsonSchema did not return a JSON Schema object')
    return { schema: JSON.parse(JSON.stringify(json)) as JsonSchemaObject, notes: {} }
  }
  const json = convert({ target: 'draft-2020-12', libraryOptions: zodOptions }) as JsonSchemaObject
  const notes: SchemaNotes = {}
  const marked = new Set<JsonSchemaObject>()
  collectNotes(json, '', notes, marked)
  for (const node of marked)
    delete node[MARK]
  return { schema: json, notes }
}
