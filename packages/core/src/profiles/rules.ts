// The rules a target profile applies to a finished `portable` schema. Each rule rewrites one node
// (children first) or checks the whole document; a rule only widens, unless it tells the context
// how the inverse map undoes what it did (`encode`, `nullsMeanAbsent`).
import type { DiagnosticCode, JsonPointer, JsonSchema, JsonSchemaObject, Severity } from '../types'
import type { Kind } from '../keywords'
import { splitByKind } from '../flatten/facets'
import { ANNOTATIONS, setTypes, typesOf } from '../keywords'
import { childPointer, isSchemaObject } from '../json'

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
  /**
   * The object at `path` is closed with `key` holding its other keys as JSON text: the inverse map
   * merges them back. `named`: the keys it names beside that key (every other key is sent inside it).
   */
  restKey: (path: JsonPointer, key: string, named: readonly string[]) => void
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
    // A key that takes any value (`true`, where a union's records meet) gets the rules `{}` gets: a strict target has no `true`.
    node.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, child]) =>
      [key, applyNodeRules(child === true ? {} : child as JsonSchema, childPointer(path, 'properties', key), rules, ctx)]))
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
