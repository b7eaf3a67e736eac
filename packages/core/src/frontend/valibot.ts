import type { JsonSchemaObject, ParserSemantics } from '../types'
import type { JsonSchemaMethod, OriginalSchema, SchemaConverters, SchemaSide } from './interface'
import { hasOwn, isSchemaObject } from '../json'
import { mark, markUnrepresentable, takeMarks, takesNull, takesValue } from './marks'

/**
 * valibot tests RegExps as written (their flags, which its JSON drops), counts lengths in UTF-16
 * units (`.length`), checks `multipleOf` by its own remainder and strips keys an object does not
 * declare (a loose object keeps them, and says so in its JSON here). Its format checks are its own
 * regexes (`isoDateTime` takes no seconds, for one), so no format is vouched for.
 */
export const VALIBOT_SEMANTICS: ParserSemantics = {
  patternFlags: '',
  lengthUnit: 'utf16',
  multipleOf: 'library',
  trustedFormats: [],
  unknownKeys: 'strip',
  objectKeys: 'in',
  refSiblings: 'and',
  nullAsAbsent: 'never',
}

/** The parts of a valibot schema, action or pipe the conversion reads. */
interface ValibotNode {
  'kind': 'schema' | 'validation' | 'transformation' | 'metadata'
  'type': string
  'fallback'?: unknown
  'key'?: unknown
  'entries'?: Record<string, ValibotNode>
  'options'?: ValibotNode[]
  'item'?: ValibotNode
  'items'?: ValibotNode[]
  'rest'?: ValibotNode
  'value'?: ValibotNode
  'wrapped'?: ValibotNode
  'requirement'?: unknown
  'pipe'?: ValibotNode[]
  'getter'?: (input: unknown) => ValibotNode
  '~standard'?: { vendor?: unknown }
}

interface SchemaContext { valibotSchema: ValibotNode, jsonSchema: JsonSchemaObject, errors?: string[] }
interface ActionContext { valibotAction: ValibotNode, jsonSchema: JsonSchemaObject, errors?: string[] }
type Hook<C> = (context: C) => JsonSchemaObject | null | undefined

/** Set on the stand-in for a schema with a fallback, which takes any value. */
const FALLBACK = Symbol('flatmcp.fallback')

/**
 * A copy of a schema tree, for the conversion alone, in which every schema with a fallback is an
 * any-value stand-in: nested in a pipe, a fallback is lost to the conversion (it flattens pipes).
 * Shared schemas stay shared, and a lazy schema's getter is wrapped, so recursion still ends.
 */
function exposeFallbacks(root: ValibotNode): ValibotNode {
  const copies = new WeakMap<ValibotNode, ValibotNode>()
  const copy = (node: ValibotNode): ValibotNode => {
    const done = copies.get(node)
    if (done)
      return done
    if (node.kind === 'schema' && node.fallback !== undefined) {
      const standIn = { kind: 'schema', type: 'any', [FALLBACK]: true } as unknown as ValibotNode
      copies.set(node, standIn)
      return standIn
    }
    const out: ValibotNode = { ...node }
    copies.set(node, out)
    if (node.entries)
      out.entries = Object.fromEntries(Object.entries(node.entries).map(([key, entry]) => [key, copy(entry)]))
    // Only lists the node has: the conversion reads a pipe by its presence.
    for (const key of ['options', 'items', 'pipe'] as const) {
      const list = node[key]
      if (Array.isArray(list))
        out[key] = list.map(item => item.kind === 'schema' ? copy(item) : item)
    }
    for (const key of ['item', 'rest', 'key', 'value', 'wrapped'] as const) {
      const child = node[key] as ValibotNode | undefined
      if (child?.kind === 'schema')
        (out as unknown as Record<string, unknown>)[key] = copy(child)
    }
    const getter = node.getter
    if (typeof getter === 'function') {
      let resolved: ValibotNode | undefined
      out.getter = input => resolved ??= copy(getter(input))
    }
    return out
  }
  return copy(root)
}

/** A plain valibot schema (not the object `toStandardJsonSchema` wraps one in). */
export function isValibot(schema: unknown): schema is ValibotNode {
  const node = schema as Partial<ValibotNode> | null
  return typeof node === 'object' && node !== null && node.kind === 'schema' && node['~standard']?.vendor === 'valibot'
}

/** Kinds JSON cannot carry, and what a tool input uses instead. */
const INSTEAD: Record<string, string> = {
  'v.date()': 'for a date, use v.pipe(v.string(), v.isoDateTime()) or v.isoDate()',
  'v.bigint()': 'for a large integer, use v.pipe(v.string(), v.regex(/^-?\\d+$/))',
  'v.map()': 'use v.record() for string keys, or an array of [key, value] tuples',
  'v.set()': 'use v.array() (a set arrives as an array)',
  'v.nan()': 'JSON has no NaN: use v.number() or v.null()',
  'v.undefined()': 'make the key optional with v.optional() instead',
  'v.void()': 'make the key optional with v.optional() instead',
  'v.symbol()': 'use a string or an enum',
  'v.file()': 'a tool receives JSON: take the content as a base64 string or a URL',
  'v.blob()': 'a tool receives JSON: take the content as a base64 string or a URL',
  'v.function()': 'a tool receives JSON: a function cannot arrive in arguments',
  'v.promise()': 'a tool receives JSON: a promise cannot arrive in arguments',
}

/** Kinds whose check JSON cannot show at all: any value, as for zod's `z.custom()`. */
const ANY_VALUE_TYPES = new Set(['custom', 'instance'])

/** Transformations that hand on the very value they get. */
const IDENTITY_TRANSFORMATIONS = new Set(['brand', 'flavor', 'readonly'])

/**
 * Keys valibot never checks in a record or an object's rest (it skips them, to keep prototypes
 * safe). It skips `__proto__` too, but ajv never reads a `__proto__` entry of `properties` (it checks
 * that key against `additionalProperties`), so no flat schema could say it takes any value there.
 */
const UNCHECKED_KEYS = ['prototype', 'constructor']

/**
 * A record's or a rest's JSON with the keys valibot leaves unchecked taking any value: by a pattern
 * of their own (a declared entry keeps its schema; a model is not shown them as properties), and
 * as names the key check allows.
 */
function withUncheckedKeys(json: JsonSchemaObject): JsonSchemaObject {
  const declared = isSchemaObject(json.properties) ? json.properties : {}
  const unchecked = UNCHECKED_KEYS.filter(key => !hasOwn(declared, key))
  if (unchecked.length === 0)
    return json
  const patterns = isSchemaObject(json.patternProperties) ? json.patternProperties : {}
  const out: JsonSchemaObject = { ...json, patternProperties: { ...patterns, [`^(?:${unchecked.join('|')})$`]: {} } }
  const names = json.propertyNames
  if (isSchemaObject(names) && Object.keys(names).some(keyword => keyword !== 'type')) {
    const { pattern, ...rest } = names
    out.propertyNames = typeof pattern === 'string' && Object.keys(rest).every(keyword => keyword === 'type')
      ? { ...rest, pattern: `(?:${pattern})|^(?:${unchecked.join('|')})$` }
      : { type: 'string' }
  }
  return out
}

function takesUndefined(schema: ValibotNode): boolean {
  return takesValue(schema, undefined)
}

/** Each child schema of a node beside the JSON the conversion wrote for it. */
function children(node: ValibotNode, json: JsonSchemaObject): [ValibotNode, unknown][] {
  const at = (keyword: string, index?: number): unknown => {
    const value = json[keyword]
    return index === undefined ? value : Array.isArray(value) ? value[index] : undefined
  }
  const pairs: [ValibotNode, unknown][] = []
  for (const [key, entry] of Object.entries(node.entries ?? {}))
    pairs.push([entry, isSchemaObject(json.properties) ? json.properties[key] : undefined])
  const listKeyword = node.type === 'variant' ? 'oneOf' : node.type === 'intersect' ? 'allOf' : node.type === 'union' ? 'anyOf' : Array.isArray(json.prefixItems) ? 'prefixItems' : 'items'
  node.options?.forEach((option, i) => pairs.push([option, at(listKeyword, i)]))
  node.items?.forEach((item, i) => pairs.push([item, at(listKeyword, i)]))
  if (node.item)
    pairs.push([node.item, at('items')])
  if (node.value)
    pairs.push([node.value, at('additionalProperties')])
  if (node.rest)
    pairs.push([node.rest, node.entries ? at('additionalProperties') : Array.isArray(json.prefixItems) ? at('items') : at('additionalItems')])
  if (node.wrapped)
    pairs.push([node.wrapped, Array.isArray(json.anyOf) ? at('anyOf', 0) : json])
  // A lazy schema is written as a reference: what its getter gives is marked on the reference,
  // which the flattening applies to what the reference resolves to.
  if (node.type === 'lazy' && typeof node.getter === 'function') {
    try {
      pairs.push([node.getter(undefined), json])
    }
    catch {
      // A getter that needs its input: its schema's own hook is all there is.
    }
  }
  return pairs
}

/**
 * The conversion hooks: each leaves what valibot does beyond its JSON as a mark. A fallback takes
 * any value (and a missing key); a transformation hands later checks a different value, so its pipe
 * keeps only its base type; a flagged RegExp keeps its flags; a check the JSON cannot hold is left
 * out (a check only narrows); a kind JSON cannot carry is an error at its place.
 */
function conversionHooks(user: Record<string, unknown>): { overrideSchema: Hook<SchemaContext>, overrideAction: Hook<ActionContext> } {
  const lenient = user.errorMode === 'ignore' || user.errorMode === 'warn'
  return {
    overrideSchema: afterUsers(user.overrideSchema as Hook<SchemaContext> | undefined, (context) => {
      const node = context.valibotSchema
      let json = context.jsonSchema
      const kind = `v.${node.type}()`
      if (ANY_VALUE_TYPES.has(node.type)) {
        json = {}
        if (!takesNull(node))
          mark(json, { rejectsNull: true })
      }
      else if (context.errors && !lenient) {
        // A kind JSON cannot carry is an error; any other node the conversion could not write
        // (`v.nonOptional()`, a record keyed by numbers) takes any value, which is sound.
        if (kind in INSTEAD)
          markUnrepresentable(json, kind, context.errors.join(' '))
        else
          json = {}
      }
      if (node.fallback !== undefined || FALLBACK in node)
        mark(json, { invisible: ['catch'] })
      // A wrapped schema's fallback under a pipe reaches no hook of its own (the conversion flattens
      // pipes); its parent marks it. A plain schema's is a stand-in by then.
      for (const [child, childJson] of children(node, json)) {
        if (child.fallback !== undefined && isSchemaObject(childJson))
          mark(childJson, { invisible: ['catch'] })
      }
      if (node.type === 'variant' && typeof node.key === 'string')
        mark(json, { discriminator: node.key })
      if (node.type === 'loose_object' && json.additionalProperties === undefined)
        json.additionalProperties = true
      if ((node.type === 'record' || node.type === 'object_with_rest') && json.type === 'object')
        json = withUncheckedKeys(json)
      // A tuple takes a short array when its last items take undefined (optional, any, a fallback):
      // the conversion requires them all.
      if (node.items && typeof json.minItems === 'number') {
        const needed = node.items.findLastIndex(item => item.fallback === undefined && !takesUndefined(item)) + 1
        if (needed > 0)
          json.minItems = needed
        else
          delete json.minItems
      }
      return json
    }),
    overrideAction: afterUsers(user.overrideAction as Hook<ActionContext> | undefined, (context) => {
      const action = context.valibotAction
      const json = context.jsonSchema
      if (action.kind === 'transformation' && !IDENTITY_TRANSFORMATIONS.has(action.type))
        mark(json, { invisible: ['overwrite'] })
      const regex = action.requirement
      // valibot tests a sticky or global RegExp from wherever its last test left `lastIndex`, so a
      // sticky one may match anywhere: read without `y`.
      const flags = regex instanceof RegExp ? regex.flags.replace(/[gdy]/g, '') : ''
      if (action.type === 'regex' && flags !== '' && json.pattern === (regex as RegExp).source && !context.errors?.some(error => error.includes('combination')))
        mark(json, { patternFlags: flags })
      return json
    }),
  }
}

/** A hook of the user's runs first; a schema it returns is taken as it is. */
function afterUsers<C>(user: Hook<C> | undefined, own: (context: C) => JsonSchemaObject): Hook<C> {
  return context => user?.(context) || own(context)
}

/** valibot's own options for the conversion, from `libraryOptions.valibot`, with flatmcp's hooks around the user's. */
function valibotOptions(converters: SchemaConverters): Record<string, unknown> {
  const user = converters.libraryOptions?.valibot ?? {}
  return { ...user, ...conversionHooks(user) }
}

function toOriginal(json: unknown): OriginalSchema {
  if (!isSchemaObject(json))
    throw new TypeError('valibot\'s converter did not return a JSON Schema object')
  delete json.$schema
  return { schema: json, notes: takeMarks(json, INSTEAD), semantics: VALIBOT_SEMANTICS }
}

/** A plain valibot schema, through `toJsonSchema` from the project's `@valibot/to-json-schema`. */
export function valibotOriginal(schema: ValibotNode, side: SchemaSide, converters: SchemaConverters): OriginalSchema {
  const convert = converters.valibotToJsonSchema
  if (!convert)
    throw new TypeError('a valibot schema needs @valibot/to-json-schema to describe it: install it beside valibot (npm i -D @valibot/to-json-schema) and build with unplugin-flatmcp or flatmcp build (they load it from the project), or wrap the schema: toStandardJsonSchema(schema)')
  return toOriginal(convert(exposeFallbacks(schema), { ...valibotOptions(converters), target: 'draft-2020-12', typeMode: side }))
}

/** A valibot schema wrapped by `toStandardJsonSchema`, whose `libraryOptions` are valibot's conversion options. */
export function valibotStandardOriginal(convert: JsonSchemaMethod, converters: SchemaConverters): OriginalSchema {
  // The wrapper sets `typeMode` from the side; the options must not undo it.
  const { typeMode: _typeMode, ...libraryOptions } = valibotOptions(converters)
  return toOriginal(convert({ target: 'draft-2020-12', libraryOptions }))
}
