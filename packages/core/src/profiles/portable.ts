// The `portable` profile: one flat object every major client takes. Combinators, `$ref`s and untyped
// leaves are gone, unportable keywords dropped, formats outside the portable set moved into the
// description, tuples made one `items`, descriptions cut to what clients take whole.
import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext, FlatteningProfile } from '../flatten/context'
import { childPointer, isSchemaObject, setOwn } from '../json'
import { report } from '../flatten/context'
import { uncommonRegexConstruct } from '../frontend/regex-dialect'
import { acceptsAnything, ANY_DEPTH, anyValue, splitByKind } from '../flatten/facets'
import { joinSchemas } from '../flatten/join'
import type { Kind } from '../keywords'
import { ALL_KINDS, cutDescription, keywordKind, kindOfValue, MAX_DESCRIPTION, PORTABLE_FORMATS, setTypes, sortKinds, typesOf, withSentence } from '../keywords'

/** Identifiers and containers that mean nothing once references are inlined. */
const DOCUMENT_KEYWORDS = ['$schema', '$id', '$anchor', '$dynamicAnchor', '$defs', 'definitions', '$comment']
/** Keywords major clients reject or ignore; dropping each one only widens the schema. */
const UNPORTABLE_KEYWORDS = ['not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'minContains', 'maxContains', 'additionalItems']

/** Positional tuple items become one `items` schema that accepts every position, with the length kept. */
export function tupleToItems(out: JsonSchemaObject, path: JsonPointer, ctx: FlattenContext): void {
  const prefix = Array.isArray(out.prefixItems) ? out.prefixItems as JsonSchema[] : Array.isArray(out.items) ? out.items as JsonSchema[] : undefined
  if (!prefix)
    return
  const rest = Array.isArray(out.items) ? out.additionalItems : out.items
  const closed = rest === false
  const elements = closed || rest === undefined ? prefix : [...prefix, rest as JsonSchema]
  delete out.prefixItems
  delete out.additionalItems
  const joined = joinSchemas(rest === undefined ? [...elements, true] : elements, ctx, childPointer(path, 'items')).schema
  out.items = joined === true ? ctx.profile.anyValue() : joined
  if (closed && typeof out.maxItems !== 'number')
    out.maxItems = prefix.length
}

/** A `propertyNames` schema every key meets: nothing, or `type: "string"` and annotations. */
function isConstantTrueForKeys(schema: JsonSchemaObject): boolean {
  return Object.keys(schema).every(keyword => keyword === 'description' || keyword === 'title' || (keyword === 'type' && (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')))))
}

function portableNode(node: JsonSchemaObject, path: JsonPointer, ctx: FlattenContext): JsonSchema {
  const out: JsonSchemaObject = { ...node }
  for (const keyword of DOCUMENT_KEYWORDS)
    delete out[keyword]
  // Before `additionalItems` goes: it is what a draft-07 tuple accepts past its positions.
  tupleToItems(out, path, ctx)
  for (const keyword of UNPORTABLE_KEYWORDS) {
    if (keyword in out) {
      delete out[keyword]
      report(ctx, 'keyword-dropped', 'info', childPointer(path, keyword), `"${keyword}" is not portable; dropped (the schema only gets wider)`)
    }
  }
  if ('const' in out) {
    out.enum = Array.isArray(out.enum) ? out.enum.filter(value => JSON.stringify(value) === JSON.stringify(out.const)) : [out.const]
    delete out.const
  }
  if (typeof out.format === 'string' && !PORTABLE_FORMATS.has(out.format)) {
    out.description = withSentence(out.description, `Format: ${out.format}.`)
    report(ctx, 'format-moved', 'info', childPointer(path, 'format'), `format "${out.format}" is not portable; moved into the description`)
    delete out.format
  }
  // A pattern some model routes refuse (the whole request with it) is said in words instead: the server still checks it.
  const construct = typeof out.pattern === 'string' ? uncommonRegexConstruct(out.pattern) : undefined
  if (construct !== undefined) {
    out.description = withSentence(out.description, `Pattern: ${out.pattern as string}.`)
    report(ctx, 'keyword-rewritten', 'info', childPointer(path, 'pattern'), `pattern uses ${construct}, which OpenAI's route refuses (failing the whole request); moved into the description (the server still checks it)`)
    delete out.pattern
  }
  // Every key of a JSON object is a string: such a `propertyNames` says nothing, costs tokens, and
  // Gemini's OpenAPI route rejects it.
  if (out.propertyNames === true || (isSchemaObject(out.propertyNames) && isConstantTrueForKeys(out.propertyNames)))
    delete out.propertyNames
  // zod states the safe-integer range on every int; it only adds noise for a model.
  if (out.maximum === Number.MAX_SAFE_INTEGER)
    delete out.maximum
  if (out.minimum === Number.MIN_SAFE_INTEGER)
    delete out.minimum

  let kinds = typesOf(out)
  if (!kinds && Array.isArray(out.enum))
    kinds = sortKinds(out.enum.map(kindOfValue))
  if (!kinds && !('anyOf' in out) && !('oneOf' in out) && !('$ref' in out)) {
    if (!Object.keys(out).some(keyword => splitByKind({ [keyword]: out[keyword] }).kinds.size < ALL_KINDS.length)) {
      report(ctx, 'untyped-leaf', 'warning', path, 'no type: advertised as any JSON value (clients may send it as a JSON string)')
    }
    kinds = [...ALL_KINDS]
  }
  if (kinds) {
    setTypes(out, kinds)
    dropOtherKindsKeywords(out, kinds)
  }
  if (kinds?.includes('array') && out.items === undefined) {
    // Every client wants `items` beside `array`; "any value" nests its own typed shape.
    const isAny = acceptsAnything({ type: out.type })
    if (!isAny)
      report(ctx, 'untyped-leaf', 'warning', childPointer(path, 'items'), 'array without items: advertised as an array of any JSON values')
    out.items = anyValue({}, isAny ? ANY_DEPTH - 1 : ANY_DEPTH)
  }
  if (out.items === true)
    out.items = anyValue()
  // A record of any values is an object with no `additionalProperties` at all: the typed "any" shape
  // costs a model tens of tokens per record and says nothing more. Beside declared properties the
  // keyword stays: it is what says the object is open.
  if (out.properties === undefined && out.patternProperties === undefined && isSchemaObject(out.additionalProperties) && acceptsAnything(out.additionalProperties) && !hasAnnotations(out.additionalProperties))
    delete out.additionalProperties
  return out
}


/** Keywords of a kind the node does not take constrain nothing (a join's leftovers, `properties` on a string): they go. */
function dropOtherKindsKeywords(out: JsonSchemaObject, kinds: readonly Kind[]): void {
  const takes = new Set<Kind>(kinds.map(kind => kind === 'integer' ? 'number' : kind))
  for (const keyword of Object.keys(out)) {
    const kind = keywordKind(keyword)
    if (kind !== undefined && !takes.has(kind))
      delete out[keyword]
  }
}

function hasAnnotations(schema: JsonSchemaObject): boolean {
  return ['description', 'title', 'examples', 'default'].some(keyword => keyword in schema)
}

/** Child schemas a description can sit in, by the keyword that holds them. */
const CHILDREN = ['items', 'additionalProperties'] as const

/** The keys of `required` that `properties` does not name (Kimi and Gemini refuse a list with one). */
function unnamedRequired(schema: JsonSchemaObject): unknown[] {
  const required: unknown = schema.required
  const named = isSchemaObject(schema.properties) ? schema.properties : {}
  return Array.isArray(required) ? required.filter(key => typeof key !== 'string' || !Object.hasOwn(named, key)) : []
}

/**
 * Over the finished document (hints are added after a key's own node is done, unions joined):
 * descriptions cut to what clients take whole, each cut a warning so no text is lost silently, and a
 * `required` key `properties` does not name left out of it (the schema only gets wider). Copies what it changes.
 */
function finishedDocument(schema: JsonSchema, path: JsonPointer, ctx: FlattenContext): JsonSchema {
  if (!isSchemaObject(schema))
    return schema
  let out = schema
  const change = (key: string, value: unknown): void => {
    if (out === schema)
      out = { ...schema }
    out[key] = value
  }
  if (typeof schema.description === 'string' && schema.description.length > MAX_DESCRIPTION) {
    change('description', cutDescription(schema.description))
    report(ctx, 'description-cut', 'warning', childPointer(path, 'description'), `description of ${schema.description.length} characters cut to ${MAX_DESCRIPTION} (clients reject or truncate longer ones); shorten it, or the variants' descriptions it gathers`)
  }
  const unnamed = unnamedRequired(schema)
  if (unnamed.length > 0) {
    const kept = (schema.required as unknown[]).filter(key => !unnamed.includes(key))
    change('required', kept)
    if (kept.length === 0)
      delete out.required
    report(ctx, 'keyword-rewritten', 'info', childPointer(path, 'required'), `required ${unnamed.map(key => JSON.stringify(key)).join(', ')} not in "properties" (which Kimi and Gemini refuse): left out of "required" (the schema only gets wider)`)
  }
  // A `patternProperties` value is a key's schema as much as a `properties` one (Kimi reads both).
  for (const keyword of ['properties', 'patternProperties'] as const) {
    const named = schema[keyword]
    if (!isSchemaObject(named))
      continue
    let limitedMap: Record<string, JsonSchema> | undefined
    for (const [key, child] of Object.entries(named)) {
      const limited = finishedDocument(child as JsonSchema, childPointer(path, keyword, key), ctx)
      if (limited !== child)
        setOwn(limitedMap ??= { ...named as Record<string, JsonSchema> }, key, limited)
    }
    if (limitedMap)
      change(keyword, limitedMap)
  }
  for (const keyword of CHILDREN) {
    const limited = finishedDocument(schema[keyword] as JsonSchema, childPointer(path, keyword), ctx)
    if (limited !== schema[keyword])
      change(keyword, limited)
  }
  return out
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref', '$defs', 'definitions', '$schema', 'prefixItems']

/**
 * Where a schema breaks the `portable` shape rules, as `pointer: rule` lines (empty when it holds).
 * `inherited`: the schema of an optional key every object inherits, which has no type so that
 * validators reading the inherited member accept a call that leaves the key out.
 */
export function portableViolations(schema: JsonSchema, path: JsonPointer = '', inherited = false): string[] {
  if (!isSchemaObject(schema))
    return []
  const found: string[] = []
  for (const keyword of COMBINATORS) {
    if (keyword in schema)
      found.push(`${path || '/'}: "${keyword}" is not allowed`)
  }
  const kinds = typesOf(schema)
  // `{}` as items is where the typed "any" shape ends (arrays nested deeper than it spells out).
  const anyEnd = path.endsWith('/items') && Object.keys(schema).length === 0
  if (!kinds && !anyEnd && !inherited)
    found.push(`${path || '/'}: no type`)
  else if (kinds?.includes('array') && schema.items === undefined)
    found.push(`${path || '/'}: an array without items`)
  if (typeof schema.format === 'string' && !PORTABLE_FORMATS.has(schema.format))
    found.push(`${path || '/'}: format "${schema.format}" is not portable`)
  if (typeof schema.description === 'string' && schema.description.length > MAX_DESCRIPTION)
    found.push(`${path || '/'}: a description over ${MAX_DESCRIPTION} characters`)
  const required = Array.isArray(schema.required) ? schema.required : []
  const children: [string, unknown, boolean][] = [
    ...Object.entries(isSchemaObject(schema.properties) ? schema.properties : {}).map(([key, child]) => [childPointer(path, 'properties', key), child, key in {} && !required.includes(key)] as [string, unknown, boolean]),
    ...(['items', 'additionalProperties', 'propertyNames', 'contains'] as const).map(keyword => [childPointer(path, keyword), schema[keyword], false] as [string, unknown, boolean]),
  ]
  for (const [pointer, child, optionalInherited] of children)
    found.push(...portableViolations(child as JsonSchema, pointer, optionalInherited))
  return found
}

export const portable: FlatteningProfile = { name: 'portable', inlineRefs: true, joinEveryUnion: true, foldAllOf: true, anyValue: () => anyValue(), finishNode: portableNode, finishDocument: finishedDocument }
