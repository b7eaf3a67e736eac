import type { JsonSchema } from '@flatmcp/core'
import fc from 'fast-check'

/** A small seeded generator (mulberry32): the same seed gives the same values on every machine. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// A schema node read keyword by keyword; anything off-shape only makes worse samples.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>
const KINDS = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']
const LETTERS = 'abcdefghijklmnopqrstuvwxyz ABC019-_.é'
const MAX_DEPTH = 8
const FORMATS = new Set(['date-time', 'date', 'time', 'duration', 'email', 'uuid', 'uri', 'ipv4', 'ipv6', 'hostname'])
/** Keywords the sampler does not aim for: values may miss them, and the original then filters them out. */
const isStringOnly = (schema: unknown): boolean => schema === true || (typeof schema === 'object' && schema !== null && Object.keys(schema).every(keyword => keyword === 'type') && (schema as { type?: unknown }).type === 'string')

const UNAIMED = ['not', 'if', 'uniqueItems', 'propertyNames', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'minProperties', 'maxProperties', 'contains', 'unevaluatedProperties']

/** The longest string the sampler writes for a pattern: a longer match (`(?:ab){1000}{1000}` is 2 MB) is not aimed for. */
const MAX_PATTERN_STRING = 10_000

/** Strings matching a pattern, read as validators do (unicode mode) where it compiles so; why not, when it cannot be generated. */
const patternStrings = new Map<string, { matching: fc.Arbitrary<string> } | { why: string }>()

function stringsMatching(source: string): { matching: fc.Arbitrary<string> } | { why: string } {
  if (!patternStrings.has(source)) {
    let found: { matching: fc.Arbitrary<string> } | { why: string } = { why: 'not a pattern fast-check can generate (a lookaround, a backreference)' }
    for (const flags of ['u', '']) {
      try {
        const matching = fc.stringMatching(new RegExp(source, flags))
        // One sample says whether its matches are of a length a check can afford.
        const sample = fc.sample(matching, { seed: 1, numRuns: 1 })[0]!
        found = sample.length > MAX_PATTERN_STRING ? { why: `its matches run past ${MAX_PATTERN_STRING} characters` } : { matching }
        break
      }
      catch {
        // Not a pattern in this mode, or a construct fast-check cannot generate (lookarounds, backreferences).
      }
    }
    patternStrings.set(source, found)
  }
  return patternStrings.get(source)!
}

/** A pattern as a line of the report names it: its source, at most 80 characters. */
function patternName(source: string): string {
  const text = JSON.stringify(source)
  return text.length > 82 ? `${text.slice(0, 80)}…"` : text
}

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#'))
    return undefined
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    node = typeof node === 'object' && node !== null ? (node as Node)[token] : undefined
  }
  return node
}

/** Strings where libraries and validators part: case, lines, astral characters, padding. */
const EDGE_STRINGS = ['', 'ABC', 'aBc', 'x\nok', 'ok\n', '😀', '😀😀😀', 'a😀b', '  ab  ', 'É', 'josé@exämple.com', 'a@b-.com', 'localhost.', 'PT1.5S', '::ffff:192.168.0.1', '2020-01-01T00:00', 'HTTP://A.CO/ü']
/** Numbers where a library's check and a validator's division part. */
const EDGE_NUMBERS = [19.99, 0.07, 0.3, 1e-7, 2 ** 53 - 1, 1e21, -1, 0]
/** How a string the JSON describes is bent past it: the library decides whether it still passes. */
const BENDS: ((text: string) => string)[] = [text => text.toUpperCase(), text => text.toLowerCase(), text => `x\n${text}`, text => `${text}\n`, text => `${text}😀`, text => ` ${text} `]

export interface SampleOptions {
  /** Collects what the sampler could not aim for (`pattern "…"`, `format "…"`, a keyword). */
  unmet?: Set<string>
  /** Half the time, ignore a node's constraints and bend its strings and numbers past them. */
  relax?: boolean
  /** Half the time, give an object open by omission keys it does not name (of any value, null among them): for a parser that keeps them. */
  extraKeys?: boolean
}

/** One sampling's state: the schema's root, the random source and what could not be aimed for. */
interface Sampler {
  root: JsonSchema
  random: () => number
  unmet: Set<string>
  int: (min: number, max: number) => number
  pick: <T>(list: readonly T[]) => T
  relaxed: () => boolean
  extraKeys: boolean
}

/**
 * Values shaped by a JSON Schema, for the superset checks: they follow types, enums, bounds,
 * patterns and required keys, and are then filtered by the original schema, so they need not be
 * exact. With `relax`, they also go past what the JSON says (where a library checks less than its
 * JSON shows, or otherwise), for the original to judge.
 */
export function sampleValue(root: JsonSchema, random: () => number, options: SampleOptions = {}): unknown {
  const sampler: Sampler = {
    root,
    random,
    unmet: options.unmet ?? new Set<string>(),
    int: (min, max) => Math.floor(min + random() * (max - min + 1)),
    pick: list => list[Math.floor(random() * list.length)]!,
    relaxed: () => options.relax === true && random() < 0.5,
    extraKeys: options.extraKeys === true,
  }
  return generate(sampler, root, 0)
}

function string(s: Sampler, node: Node): string {
  if (!s.relaxed())
    return aimedString(s, node)
  return s.random() < 0.5 ? s.pick(EDGE_STRINGS) : s.pick(BENDS)(aimedString(s, node))
}

function aimedString(s: Sampler, node: Node): string {
  const { int, pick, unmet } = s
  if (typeof node.pattern === 'string') {
    const strings = stringsMatching(node.pattern)
    const sample = 'matching' in strings ? fc.sample(strings.matching, { seed: int(0, 2 ** 31 - 1), numRuns: 1 })[0]! : undefined
    if (sample !== undefined && sample.length <= MAX_PATTERN_STRING)
      return sample
    unmet.add(`pattern ${patternName(node.pattern)}${'why' in strings ? ` (${strings.why})` : ` (a match ran past ${MAX_PATTERN_STRING} characters)`}`)
  }
  if (typeof node.format === 'string' && !FORMATS.has(node.format))
    unmet.add(`format "${node.format}"`)
  switch (node.format) {
    case 'date-time': return new Date(int(0, 4102444800) * 1000).toISOString()
    case 'date': return new Date(int(0, 4102444800) * 1000).toISOString().slice(0, 10)
    case 'time': return new Date(int(0, 86399) * 1000).toISOString().slice(11, 19)
    case 'email': return `${pick(['a', 'bo', 'cat'])}@example.com`
    case 'uuid': return '00000000-0000-4000-8000-000000000000'.replace(/0/g, () => pick('0123456789abcdef'.split('')))
    case 'uri': return `https://example.com/${int(0, 999)}`
    case 'ipv4': return `${int(0, 255)}.${int(0, 255)}.${int(0, 255)}.${int(0, 255)}`
    case 'ipv6': return pick(['::1', '2001:db8::1', `fe80::${int(0, 65535).toString(16)}`, `::ffff:10.0.0.${int(0, 255)}`])
    case 'duration': return pick(['P1D', 'PT1H', 'P1W', `PT${int(1, 59)}M`, `P${int(1, 9)}Y${int(1, 11)}M`])
    case 'hostname': return `host${int(0, 99)}.example.com`
  }
  const min = typeof node.minLength === 'number' ? node.minLength : 0
  const max = typeof node.maxLength === 'number' ? node.maxLength : min + 12
  const length = int(min, Math.max(min, Math.min(max, min + 12)))
  return Array.from({ length }, () => pick(LETTERS.split(''))).join('')
}

function number(s: Sampler, node: Node, integer: boolean): number {
  if (s.relaxed())
    return s.pick(EDGE_NUMBERS)
  const low = typeof node.minimum === 'number' ? node.minimum : typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum + (integer ? 1 : 1e-6) : -100
  const high = typeof node.maximum === 'number' ? node.maximum : typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum - (integer ? 1 : 1e-6) : low + 200
  const boundary = s.random() < 0.2
  let value = boundary ? s.pick([low, high]) : low + s.random() * (high - low)
  if (integer)
    value = Math.max(Math.ceil(low), Math.min(Math.floor(high), Math.round(value)))
  if (typeof node.multipleOf === 'number' && node.multipleOf > 0)
    value = Math.round(value / node.multipleOf) * node.multipleOf
  return Object.is(value, -0) ? 0 : value
}

function array(s: Sampler, node: Node, depth: number): unknown[] {
  const prefix: unknown[] = Array.isArray(node.prefixItems) ? node.prefixItems : []
  const min = typeof node.minItems === 'number' ? node.minItems : 0
  const max = typeof node.maxItems === 'number' ? node.maxItems : min + 3
  const length = depth > MAX_DEPTH ? min : s.int(min, Math.max(min, Math.min(max, min + 3)))
  return Array.from({ length }, (_, i) => generate(s, i < prefix.length ? prefix[i] : node.items === false ? undefined : node.items, depth + 1))
}

function object(s: Sampler, node: Node, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const required = new Set<string>(Array.isArray(node.required) ? node.required : [])
  for (const [key, child] of Object.entries((node.properties ?? {}) as Node)) {
    if (required.has(key) || (depth <= MAX_DEPTH && s.random() < 0.5))
      Object.defineProperty(out, key, { value: generate(s, child, depth + 1), enumerable: true, writable: true, configurable: true })
  }
  if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null && depth <= MAX_DEPTH) {
    for (let i = s.int(0, 2); i > 0; i--)
      out[`k${s.int(0, 9)}`] = generate(s, node.additionalProperties, depth + 1)
  }
  // An object open by omission takes keys it does not name, of any value (null among them).
  else if (s.extraKeys && (node.additionalProperties === undefined || node.additionalProperties === true) && depth <= MAX_DEPTH && s.random() < 0.5) {
    for (let i = s.int(1, 2); i > 0; i--)
      out[`x${s.int(0, 9)}`] = generate(s, true, depth + 1)
  }
  return out
}

function generate(s: Sampler, schema: unknown, depth: number): unknown {
  const { pick, unmet } = s
  if (schema === true || schema === undefined)
    return pick([null, 1, 'x', true])
  if (typeof schema !== 'object' || schema === null)
    return null
  const node = schema as Node
  if (typeof node.$ref === 'string')
    return depth > MAX_DEPTH ? null : generate(s, resolveRef(s.root, node.$ref), depth + 1)
  const union = node.anyOf ?? node.oneOf
  if (Array.isArray(union) && union.length > 0)
    return generate(s, { ...node, anyOf: undefined, oneOf: undefined, ...pick(union) }, depth + 1)
  for (const keyword of UNAIMED) {
    // Keys are strings: `propertyNames: { type: "string" }` holds whatever the sampler writes.
    if (keyword in node && !(keyword === 'propertyNames' && isStringOnly(node.propertyNames)))
      unmet.add(keyword)
  }
  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    if (node.allOf.length > 1)
      unmet.add('allOf beyond its first member')
    return generate(s, { ...node, allOf: undefined, ...node.allOf[0] }, depth + 1)
  }
  if ('const' in node)
    return node.const
  if (Array.isArray(node.enum) && node.enum.length > 0)
    return pick(node.enum)
  const types = Array.isArray(node.type) ? node.type : typeof node.type === 'string' ? [node.type] : KINDS
  const type = depth > MAX_DEPTH ? (types.includes('null') ? 'null' : types.find((t: string) => t !== 'object' && t !== 'array') ?? types[0]) : pick(types)
  switch (type) {
    case 'string': return string(s, node)
    case 'number': return number(s, node, false)
    case 'integer': return number(s, node, true)
    case 'boolean': return s.random() < 0.5
    case 'null': return null
    case 'array': return array(s, node, depth)
    case 'object': return object(s, node, depth)
    default: return null
  }
}
