// The rules a target profile applies to a finished `portable` schema. Each rule rewrites one node
// (children first) or checks the whole document; a rule only widens, unless it tells the context
// how the inverse map undoes what it did (`encode`, `nullsMeanAbsent`).
import type { DiagnosticCode, JsonPointer, JsonSchema, JsonSchemaObject, Severity } from '../types'
import type { Kind } from '../keywords'
import { splitByKind } from '../flatten/facets'
import { ANNOTATIONS, setTypes, typesOf, withSentence } from '../keywords'
import { childPointer, hasOwn, isSchemaObject, withoutKeyword } from '../json'
import { onlyObject, withRestKey } from './rest-key'

/** What a rule may tell the compiler besides the node it returns. */
export interface TargetContext {
  /** The profile being applied. */
  readonly profile: string
  /** Reports at a pointer of the flat schema. */
  report: (code: DiagnosticCode, severity: Severity, path: JsonPointer, message: string) => void
  /** The value at `path` is advertised as JSON text; the inverse map parses it back before validation. */
  encode: (path: JsonPointer) => void
  /** The tool cannot keep the profile's strict promise: it is served as `portable`, with this reason. */
  fallback: (path: JsonPointer, reason: string) => void
  /** Optional keys are advertised as required and nullable: the inverse map drops the nulls the original rejects. */
  nullsMeanAbsent: () => void
  /**
   * A `null` at `path` (an optional key) means the key was left out: the inverse map removes it
   * before anything else. `unwrap`: the key's value is advertised as `{ value }`, taken out again.
   */
  nullMeansLeftOut: (path: JsonPointer, unwrap: boolean) => void
  /** The object at `path` is closed with `key` holding its other keys as JSON text: the inverse map merges them back. */
  restKey: (path: JsonPointer, key: string) => void
  /** Whether the object at `path` was closed with a rest key. */
  hasRestKey: (path: JsonPointer) => boolean
  /** Whether the value at `path` is advertised as JSON text. */
  isEncoded: (path: JsonPointer) => boolean
  /** Whether the parser reads the optional key at `path` alike when left out and when `null`. */
  nullIsAbsent: (path: JsonPointer) => boolean
  /**
   * Whether the parser keeps the keys an object does not declare where its schema says nothing of
   * them (a validator does; zod, pydantic and serde drop them): such an object is open.
   */
  readonly keepsUnknownKeys: boolean
  /** Whether the parser reads `format` as an annotation (a JSON Schema validator's default), so a profile that holds a model to it would narrow. */
  readonly formatsAnnotate: boolean
}

/**
 * One rewrite of a target profile. `node` runs on every node after its children (so a node sees
 * its rewritten children); `document` runs once on the finished document, for limits that span it.
 */
export interface TargetRule {
  name: string
  /**
   * What the rule was made with (its factory's arguments), as JSON: with its name and code, what a
   * build cache keys it by. A rule of one's own that closes over values states them here.
   */
  options?: unknown
  node?: (node: JsonSchemaObject, path: JsonPointer, ctx: TargetContext) => JsonSchema
  document?: (schema: JsonSchemaObject, ctx: TargetContext) => void
}

/** Keywords that hold child schemas in a flat schema, and how (one schema, a map, a list). */
const SINGLE_CHILDREN = ['items', 'additionalProperties'] as const

/** Applies node rules bottom-up, in order; returns a new document (the input is not changed). */
export function applyNodeRules(schema: JsonSchema, path: JsonPointer, rules: readonly TargetRule[], ctx: TargetContext): JsonSchema {
  if (!isSchemaObject(schema))
    return schema
  const node: JsonSchemaObject = { ...schema }
  if (isSchemaObject(schema.properties)) {
    node.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, child]) =>
      [key, applyNodeRules(child as JsonSchema, childPointer(path, 'properties', key), rules, ctx)]))
  }
  for (const keyword of SINGLE_CHILDREN) {
    if (isSchemaObject(schema[keyword]))
      node[keyword] = applyNodeRules(schema[keyword] as JsonSchema, childPointer(path, keyword), rules, ctx)
  }
  if (Array.isArray(schema.anyOf))
    node.anyOf = schema.anyOf.map((branch, i) => applyNodeRules(branch as JsonSchema, childPointer(path, 'anyOf', String(i)), rules, ctx))
  return finishNode(node, path, rules, ctx)
}

/** The node rules on one node whose children are done; branches a rule splits off get the rules after it. */
function finishNode(node: JsonSchemaObject, path: JsonPointer, rules: readonly TargetRule[], ctx: TargetContext): JsonSchema {
  for (const [i, rule] of rules.entries()) {
    const next = rule.node?.(node, path, ctx) ?? node
    if (!isSchemaObject(next))
      return next
    if (Array.isArray(next.anyOf) && next.anyOf !== node.anyOf) {
      const later = rules.slice(i + 1)
      next.anyOf = next.anyOf.map((branch, b) => isSchemaObject(branch) ? finishNode(branch, childPointer(path, 'anyOf', String(b)), later, ctx) : branch)
    }
    node = next
  }
  return node
}

/** The kinds a node's `type` names (none when it has no `type`). */
export function kindsOf(node: JsonSchemaObject): Kind[] {
  return typesOf(node) ?? []
}

/** A node of annotations alone: any value (the flattening writes one for a key every object inherits). */
function takesAnything(node: JsonSchemaObject): boolean {
  return Object.keys(node).every(keyword => ANNOTATIONS.has(keyword))
}

/**
 * An object of unknown keys: a record, a catch-all, a loose object, the object side of "any value"
 * (annotations alone included), or, where the parser keeps unknown keys, one that says nothing of them.
 */
export function isOpenObject(node: JsonSchemaObject, keepsUnknownKeys: boolean): boolean {
  if (takesAnything(node))
    return true
  if (!kindsOf(node).includes('object'))
    return false
  const additional = node.additionalProperties
  return (additional !== undefined && additional !== false) || !isSchemaObject(node.properties) || (additional === undefined && keepsUnknownKeys)
}

/** Whether a schema of the flat document takes `null`. */
export function takesNull(node: JsonSchema): boolean {
  if (!isSchemaObject(node))
    return node === true
  if (Array.isArray(node.anyOf))
    return node.anyOf.some(branch => takesNull(branch as JsonSchema))
  if (Array.isArray(node.enum) && !node.enum.includes(null))
    return false
  return node.type === undefined || kindsOf(node).includes('null')
}

/** The same schema taking `null` too. */
export function withNull(node: JsonSchema): JsonSchema {
  if (!isSchemaObject(node) || takesNull(node))
    return node
  const out = { ...node }
  if (Array.isArray(out.anyOf))
    out.anyOf = [...out.anyOf, { type: 'null' }]
  else
    setTypes(out, [...kindsOf(out), 'null'])
  if (Array.isArray(out.enum))
    out.enum = [...out.enum, null]
  return out
}

/** Drops every keyword not in `kept` (annotations aside), saying which, as `info`: dropping only widens. */
export function keepKeywords(name: string, kept: ReadonlySet<string>, annotations: ReadonlySet<string> = ANNOTATIONS): TargetRule {
  return {
    name,
    options: { kept: [...kept].sort(), annotations: [...annotations].sort() },
    node(node, path, ctx) {
      const dropped = Object.keys(node).filter(keyword => !kept.has(keyword))
      if (dropped.length === 0)
        return node
      const out = { ...node }
      for (const keyword of dropped) {
        delete out[keyword]
        if (!annotations.has(keyword))
          ctx.report('keyword-dropped', 'info', childPointer(path, keyword), `"${keyword}" is not accepted by ${ctx.profile}; dropped (the schema only gets wider)`)
      }
      // Keys the dropped keyword let in would be refused by a closed object: it is open now, so it
      // gets wider as said (and a strict profile advertises it as JSON text).
      if (admitsKeys(node, dropped) && out.additionalProperties !== true)
        out.additionalProperties = true
      return out
    },
  }
}

/** Whether one of the `dropped` keywords let in keys that `additionalProperties` does not: pattern keys, or unevaluated keys. */
export function admitsKeys(node: JsonSchemaObject, dropped: readonly string[]): boolean {
  const patterns = dropped.includes('patternProperties') && isSchemaObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0
  const unevaluated = dropped.includes('unevaluatedProperties') && node.unevaluatedProperties !== false && node.unevaluatedProperties !== undefined
  return patterns || unevaluated
}

/** A summary of what JSON text at a place holds, for the model. */
function jsonNote(node: JsonSchemaObject): string {
  const kinds = kindsOf(node).filter(kind => kind !== 'null')
  if (kinds.length === 0 && kindsOf(node).includes('null'))
    return 'Send null.'
  const what = kinds.length === 0 || kinds.length >= 5 ? 'any JSON value' : kinds.map(kind => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`).join(' or ')
  // How to write a string matters only where a string is one of the values.
  const takesString = kinds.length === 0 || kinds.length >= 5 || kinds.includes('string')
  return `Send as JSON text (${what}${takesString ? '; a string as a quoted JSON string' : ''}).`
}

/**
 * Advertises a node as a string holding its value as JSON text; the inverse map parses it back.
 * `null` stays a plain `null` where the node takes it, so an optional key can still be left out.
 */
export function encodeAsJson(node: JsonSchemaObject, path: JsonPointer, ctx: TargetContext, nullable: 'type' | 'keyword'): JsonSchemaObject {
  ctx.encode(path)
  const note = jsonNote(node)
  const out: JsonSchemaObject = { type: 'string' }
  for (const annotation of ['title', 'description'])
    if (typeof node[annotation] === 'string')
      out[annotation] = node[annotation]
  out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note
  if (takesNull(node)) {
    if (nullable === 'type')
      out.type = ['string', 'null']
    else
      out.nullable = true
  }
  ctx.report('encoded-as-json', 'info', path, `${ctx.profile} cannot describe this value (${kindsOf(node).join(', ') || 'any'}${isOpenObject(node, ctx.keepsUnknownKeys) ? ', open object' : ''}); advertised as JSON text that the server parses back`)
  return out
}

/**
 * An `enum` with an array or object among its values is dropped (wider): a strict target advertises
 * what is inside an array or object anew (items as JSON text, keys wrapped), and the literal values
 * then no longer fit the place they stand (`[[false]]` beside items sent as `"false"`).
 */
export const scalarEnums: TargetRule = {
  name: 'scalar-enums',
  node(node, path, ctx) {
    if (!Array.isArray(node.enum) || node.enum.every(value => typeof value !== 'object' || value === null))
      return node
    const { enum: _dropped, ...out } = node
    ctx.report('keyword-dropped', 'info', childPointer(path, 'enum'), `an enum of arrays or objects is not kept by ${ctx.profile}, which advertises their contents anew; dropped (the schema only gets wider)`)
    return out
  },
}

/** Kinds whose values are never strings: beside JSON text they can stay as they are. */
const NOT_STRINGS = new Set<Kind>(['number', 'integer', 'boolean'])
const KIND_WORDS: Record<string, string> = { number: 'a number', integer: 'an integer', boolean: 'a boolean' }

/**
 * Objects with unknown keys are closed, a strict target closing every object: one that is an object
 * (or null) and nothing else keeps its named keys and gets a rest key for the others (`rest-key.ts`);
 * at a place of other kinds too, the object becomes JSON text. Where the place also takes numbers or booleans with bounds of their own (`maximum`, an enum), those stay a branch
 * as they are, bounds and all, beside the JSON text (which the inverse map parses only from a string).
 */
export const encodeOpenObjects: TargetRule = {
  name: 'encode-open-objects',
  node(node, path, ctx) {
    if (!isOpenObject(node, ctx.keepsUnknownKeys))
      return node
    // An object and nothing else keeps its named keys, and the others go in the rest key.
    if (onlyObject(node))
      return withRestKey(node, path, ctx)
    if (path === '')
      return node
    const facets = [...splitByKind(node).kinds].filter(([kind]) => NOT_STRINGS.has(kind)).map(([, facet]) => facet)
    if (!facets.some(facet => Object.keys(facet).some(keyword => keyword !== 'type')))
      return encodeAsJson(node, path, ctx, 'type')
    const { description: _note, ...text } = encodeAsJson(node, path, ctx, 'type')
    const kept = facets.map(facet => KIND_WORDS[facet.type as string]).join(' or ')
    return { description: withSentence(node.description, `Send ${kept} as is; anything else as JSON text (a string as a quoted JSON string).`), anyOf: [...facets, text] }
  },
}

/**
 * Every object closed. Sound for zod's plain objects, which drop unknown keys: a model leaves them
 * out and the original gives the same output. An open object left here (the root) falls back.
 */
export const closeObjects: TargetRule = {
  name: 'close-objects',
  node(node, path, ctx) {
    if (!kindsOf(node).includes('object'))
      return node
    if (isOpenObject(node, false)) {
      ctx.fallback(path, 'an object with unknown keys (a record, a catch-all or a loose object) cannot be closed')
      return node
    }
    if (isOpenObject(node, ctx.keepsUnknownKeys)) {
      ctx.fallback(path, 'an object that says nothing of other keys, which a JSON Schema validator keeps (it has no "additionalProperties": false), cannot be closed')
      return node
    }
    return node.additionalProperties === false ? node : { ...node, additionalProperties: false }
  },
}

const LEFT_OUT_NOTE = 'null leaves it out; {"value": ...} sends a value, null included.'

/** An optional key whose value may itself be null, as a strict model can tell both apart: null, or `{ value }`. */
function wrappedForNull(schema: JsonSchema): JsonSchemaObject {
  const own = isSchemaObject(schema) && typeof schema.description === 'string' ? `${schema.description} ` : ''
  // The description is said once, on the key; the value inside needs no copy of it.
  const value = isSchemaObject(schema) && own !== '' ? withoutKeyword(schema, 'description') : schema
  return { description: `${own}${LEFT_OUT_NOTE}`, anyOf: [{ type: 'object', properties: { value }, required: ['value'], additionalProperties: false }, { type: 'null' }] }
}

/**
 * Every key required; an optional one also takes `null`, which the inverse map turns back into a
 * missing key. Where the key's value may be null itself, the two answers must differ: JSON text
 * already tells `null` from `"null"`; any other value is wrapped, `{ "value": null }`.
 */
export const requireEveryKey: TargetRule = {
  name: 'require-every-key',
  node(node, path, ctx) {
    if (!isSchemaObject(node.properties))
      return node
    // A key no value may hold (`false`) is one no value sends: in a closed object, left out of it (required, it would have no form).
    if (Object.values(node.properties).includes(false) && node.additionalProperties === false) {
      const properties = Object.fromEntries(Object.entries(node.properties).filter(([, child]) => child !== false))
      node = { ...node, properties, ...(Array.isArray(node.required) ? { required: (node.required as string[]).filter(key => hasOwn(properties, key)) } : {}) }
    }
    const keys = Object.keys(node.properties as object)
    const required = new Set(Array.isArray(node.required) ? node.required as string[] : [])
    if (keys.every(key => required.has(key)))
      return Array.isArray(node.required) ? node : { ...node, required: keys }
    ctx.nullsMeanAbsent()
    const properties = Object.fromEntries(keys.map((key) => {
      const child = (node.properties as Record<string, JsonSchema>)[key]!
      if (required.has(key))
        return [key, child]
      const at = childPointer(path, 'properties', key)
      if (!takesNull(child)) {
        // The original's plan may not know the key (it came from another alternative of an open object): the decoding drops its null.
        if (ctx.hasRestKey(path))
          ctx.nullMeansLeftOut(at, false)
        return [key, withNull(child)]
      }
      // The parser gives a `null` the output of a left-out key (pydantic's `= None`, Go's nil): plain nullability says both.
      if (ctx.nullIsAbsent(at))
        return [key, child]
      const encoded = ctx.isEncoded(at)
      ctx.nullMeansLeftOut(at, !encoded)
      return [key, encoded && isSchemaObject(child) ? { ...child, description: withSentence(child.description, 'null leaves it out; the JSON text null sends null.') } : wrappedForNull(child)]
    }))
    return { ...node, properties, required: keys }
  },
}

/** The same schema without `null` (its `type`, its `enum`, OpenAPI's `nullable`), where it takes other values too. */
function withoutNull(node: JsonSchemaObject): JsonSchemaObject {
  const kinds = kindsOf(node)
  // A child a later rule already finished may say null the OpenAPI way.
  if (node.nullable === true) {
    const { nullable: _nullable, ...out } = node
    return out
  }
  if (!kinds.includes('null') || kinds.length === 1)
    return node
  const out = { ...node }
  setTypes(out, kinds.filter(kind => kind !== 'null'))
  if (Array.isArray(out.enum))
    out.enum = out.enum.filter(value => value !== null)
  if (out.default === null)
    delete out.default
  return out
}

/**
 * An optional key the parser reads alike whether left out or `null` (a preset's `nullAsAbsent`:
 * pydantic's `X | None = None`, Go's slices and pointers) is advertised without `null`: the shape
 * Gemini's routes and Claude Code take. A value holding `null` has an advertised form with the same
 * output, the key left out; a `null` sent anyway still reaches the parser, which takes it.
 */
export const omitAbsentNulls: TargetRule = {
  name: 'omit-absent-nulls',
  node(node, path, ctx) {
    if (!isSchemaObject(node.properties))
      return node
    const required = new Set(Array.isArray(node.required) ? node.required as string[] : [])
    let properties: Record<string, JsonSchema> | undefined
    for (const [key, child] of Object.entries(node.properties as Record<string, JsonSchema>)) {
      const at = childPointer(path, 'properties', key)
      if (required.has(key) || !isSchemaObject(child) || !ctx.nullIsAbsent(at))
        continue
      const narrowed = withoutNull(child)
      if (narrowed !== child)
        (properties ??= { ...node.properties as Record<string, JsonSchema> })[key] = narrowed
    }
    return properties ? { ...node, properties } : node
  },
}

/**
 * A node of several kinds where one of them is an object or an array becomes a nested `anyOf` of one
 * schema per kind (each with its own keywords): strict targets do not read `properties` and `items`
 * beside a `type` array. With `always`, every node of several kinds is split.
 */
export function splitKinds(always = false): TargetRule {
  return {
    name: 'split-kinds',
    options: { always },
    node(node) {
      const kinds = kindsOf(node)
      const several = always ? kinds.length > 1 : kinds.filter(kind => kind !== 'null').length > 1
      if (!several || (!always && !kinds.some(kind => kind === 'object' || kind === 'array')))
        return node
      const facets = splitByKind(node)
      const out: JsonSchemaObject = {}
      for (const annotation of ['title', 'description'])
        if (node[annotation] !== undefined)
          out[annotation] = node[annotation]
      out.anyOf = [...facets.kinds.values()]
      return out
    },
  }
}

/** Visits every node with its nesting depth (objects count a level, array items do not). */
export function visitNodes(schema: JsonSchema, visit: (node: JsonSchemaObject, depth: number, path: JsonPointer) => void, depth = 0, path: JsonPointer = ''): void {
  if (!isSchemaObject(schema))
    return
  visit(schema, depth, path)
  if (isSchemaObject(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties))
      visitNodes(child as JsonSchema, visit, depth + 1, childPointer(path, 'properties', key))
  }
  for (const keyword of SINGLE_CHILDREN)
    visitNodes(schema[keyword] as JsonSchema, visit, depth + (keyword === 'items' ? 0 : 1), childPointer(path, keyword))
  if (Array.isArray(schema.anyOf))
    schema.anyOf.forEach((branch, i) => visitNodes(branch as JsonSchema, visit, depth, childPointer(path, 'anyOf', String(i))))
}
