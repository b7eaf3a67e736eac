// Target profiles: what OpenAI strict, Anthropic strict and Gemini's `parameters` accept, as rules
// over the finished `portable` schema, and the inverse map that undoes what the rules changed.
import type { CoercionPlan } from '../plan/plan-coercion'
import type { Diagnostic, JsonPointer, JsonSchema, JsonSchemaObject, ProfileName } from '../types'
import type { TargetContext, TargetRule } from './rules'
import { withSentence } from '../flatten/keywords'
import { portableViolations } from '../flatten/profiles'
import { childPointer, hasOwn, isSchemaObject, jsonEqual, setOwn } from '../json'
import { applyNodeRules, closeObjects, encodeAsJson, encodeOpenObjects, isOpenObject, keepKeywords, kindsOf, requireEveryKey, splitKinds, visitNodes } from './rules'

/**
 * A profile that rewrites the `portable` schema for one target. Built-in ones are below; a user's own
 * is any list of rules (`targetRules` holds the built-in ones), passed as `profile` or in `profiles`.
 */
export interface TargetProfile {
  name: string
  /** The target checks these schemas strictly: a tool that cannot meet its rules is served as `portable`. */
  strict?: boolean
  rules: readonly TargetRule[]
}

/** What a target profile made of one tool's input schema. */
export interface TargetResult {
  schema: JsonSchemaObject
  /** For a strict profile: whether this tool met its rules (else `schema` is the `portable` one). */
  strict?: boolean
  /** Places advertised as JSON text, as a coercion plan that parses them back (`parse: "json"`). */
  decode?: CoercionPlan
  /** Optional keys were advertised as nullable: the coercion plan drops the nulls the original rejects. */
  nullsMeanAbsent: boolean
  diagnostics: Diagnostic[]
}

/** Keywords OpenAI's strict mode takes (the rest it rejects, or ignores at best). */
const OPENAI_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'title', 'description', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'minLength', 'maxLength'])

/** OpenAI's documented limits on one strict schema. */
export const OPENAI_LIMITS = { properties: 5000, depth: 10, enumValues: 1000, characters: 120_000, bigEnum: 250, bigEnumCharacters: 15_000 }

/** Anthropic's limits on the strict tools of one request. */
export const ANTHROPIC_LIMITS = { tools: 20, optional: 24, unions: 16 }

const openaiLimits: TargetRule = {
  name: 'openai-limits',
  document(schema, ctx) {
    let properties = 0
    let enumValues = 0
    let characters = 0
    let deepest = { depth: 0, path: '' }
    visitNodes(schema, (node, depth, path) => {
      if (depth > deepest.depth)
        deepest = { depth, path }
      if (isSchemaObject(node.properties)) {
        const keys = Object.keys(node.properties)
        properties += keys.length
        characters += keys.reduce((sum, key) => sum + key.length, 0)
      }
      if (Array.isArray(node.enum)) {
        enumValues += node.enum.length
        const chars = node.enum.reduce((sum: number, value) => sum + (typeof value === 'string' ? value.length : 0), 0)
        characters += chars
        if (node.enum.length > OPENAI_LIMITS.bigEnum && chars > OPENAI_LIMITS.bigEnumCharacters)
          ctx.fallback(path, `an enum of ${node.enum.length} values and ${chars} characters (OpenAI takes at most ${OPENAI_LIMITS.bigEnumCharacters} characters in an enum over ${OPENAI_LIMITS.bigEnum} values)`)
      }
    })
    if (deepest.depth > OPENAI_LIMITS.depth)
      ctx.fallback(deepest.path, `objects nested ${deepest.depth} levels deep (OpenAI takes ${OPENAI_LIMITS.depth})`)
    if (properties > OPENAI_LIMITS.properties)
      ctx.fallback('', `${properties} properties (OpenAI takes ${OPENAI_LIMITS.properties})`)
    if (enumValues > OPENAI_LIMITS.enumValues)
      ctx.fallback('', `${enumValues} enum values (OpenAI takes ${OPENAI_LIMITS.enumValues})`)
    if (characters > OPENAI_LIMITS.characters)
      ctx.fallback('', `${characters} characters of property names and enum values (OpenAI takes ${OPENAI_LIMITS.characters})`)
  },
}

/** Keywords Anthropic's strict mode keeps as they are (its SDK moves the rest into descriptions). */
const ANTHROPIC_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'title', 'description', 'format', 'minItems'])

/** What one tool spends of Anthropic's per-request budget of strict parameters. */
export function anthropicCost(schema: JsonSchema): { optional: number, unions: number } {
  let optional = 0
  let unions = 0
  visitNodes(schema, (node) => {
    if (isSchemaObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : [])
      optional += Object.keys(node.properties).filter(key => !required.has(key)).length
    }
    if (Array.isArray(node.anyOf) || Array.isArray(node.type))
      unions++
  })
  return { optional, unions }
}

const anthropicShape: TargetRule = {
  name: 'anthropic-shape',
  node(node, path, ctx) {
    const out = { ...node }
    // Only 0 and 1 are taken; a larger bound is dropped (wider).
    if (typeof out.minItems === 'number' && out.minItems > 1) {
      delete out.minItems
      ctx.report('keyword-dropped', 'info', childPointer(path, 'minItems'), 'Anthropic strict takes minItems 0 or 1 only; dropped (the schema only gets wider)')
    }
    // Its SDK reads an enum without its `type` (and drops the `type`).
    if (Array.isArray(out.enum))
      delete out.type
    return out
  },
}

const anthropicLimits: TargetRule = {
  name: 'anthropic-limits',
  document(schema, ctx) {
    const cost = anthropicCost(schema)
    if (cost.optional > ANTHROPIC_LIMITS.optional)
      ctx.fallback('', `${cost.optional} optional parameters (Anthropic takes ${ANTHROPIC_LIMITS.optional} per request)`)
    if (cost.unions > ANTHROPIC_LIMITS.unions)
      ctx.fallback('', `${cost.unions} union parameters (Anthropic takes ${ANTHROPIC_LIMITS.unions} per request)`)
  },
}

/** Keywords of the OpenAPI `Schema` Gemini's `parameters` field reads. */
const GEMINI_KEYWORDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minProperties', 'maxProperties'])
const GEMINI_STRING_FORMATS = new Set(['date-time', 'enum'])
const GEMINI_NAME = /^[A-Z_]\w{0,63}$/i

const appendNote = (node: JsonSchemaObject, note: string): void => {
  node.description = withSentence(node.description, note)
}

/** One `type` per node: `nullable` for null, JSON text for several kinds and for objects of unknown keys. */
const geminiTypes: TargetRule = {
  name: 'gemini-types',
  node(node, path, ctx) {
    const kinds = kindsOf(node).filter(kind => kind !== 'null')
    const root = path === ''
    // Gemini wants `properties` on every object it is told of, and non-empty.
    const empty = kinds[0] === 'object' && Object.keys(isSchemaObject(node.properties) ? node.properties : {}).length === 0
    if (!root && (kinds.length !== 1 || isOpenObject(node) || empty))
      return encodeAsJson(node, path, ctx, 'keyword')
    const out = { ...node }
    if (kindsOf(node).includes('null')) {
      out.type = kinds[0]
      out.nullable = true
      // OpenAPI reads an enum beside `nullable` as the whole list; Gemini takes strings only, so no null in it.
      if (Array.isArray(out.enum)) {
        appendNote(out, `One of: ${out.enum.map(value => JSON.stringify(value)).join(', ')}.`)
        delete out.enum
      }
    }
    if (root && out.additionalProperties !== undefined) {
      delete out.additionalProperties
      ctx.report('keyword-dropped', 'info', childPointer(path, 'additionalProperties'), 'gemini takes no additionalProperties; dropped (the schema only gets wider)')
    }
    // Closed objects are closed by dropping the keyword: Gemini does not read it (wider).
    if (out.additionalProperties === false)
      delete out.additionalProperties
    if (Array.isArray(out.enum) && out.type !== 'string') {
      appendNote(out, `One of: ${out.enum.map(value => JSON.stringify(value)).join(', ')}.`)
      delete out.enum
    }
    if (typeof out.format === 'string' && !(out.type === 'string' && GEMINI_STRING_FORMATS.has(out.format))) {
      appendNote(out, `Format: ${out.format}.`)
      delete out.format
    }
    return out
  },
}

const geminiNames: TargetRule = {
  name: 'gemini-names',
  document(schema, ctx) {
    visitNodes(schema, (node, _depth, path) => {
      for (const key of Object.keys(isSchemaObject(node.properties) ? node.properties : {})) {
        if (!GEMINI_NAME.test(key))
          ctx.report('target-limit', 'warning', childPointer(path, 'properties', key), `Gemini takes parameter names of letters, digits and "_" (64 at most, not starting with a digit); "${key}" may be rejected`)
      }
    })
  },
}

/** The built-in rules, for users who compose their own profile. */
export const targetRules = {
  closeObjects,
  encodeOpenObjects,
  requireEveryKey,
  splitKinds,
  keepKeywords,
  openaiLimits,
  anthropicShape,
  anthropicLimits,
  geminiTypes,
  geminiNames,
  keepOpenAIKeywords: keepKeywords('openai-keywords', OPENAI_KEYWORDS),
  keepAnthropicKeywords: keepKeywords('anthropic-keywords', ANTHROPIC_KEYWORDS),
  keepGeminiKeywords: keepKeywords('gemini-keywords', GEMINI_KEYWORDS),
}

export const TARGET_PROFILES: Record<'openai-strict' | 'anthropic-strict' | 'gemini', TargetProfile> = {
  'openai-strict': {
    name: 'openai-strict',
    strict: true,
    rules: [targetRules.keepOpenAIKeywords, encodeOpenObjects, closeObjects, requireEveryKey, splitKinds(), openaiLimits],
  },
  'anthropic-strict': {
    name: 'anthropic-strict',
    strict: true,
    rules: [targetRules.keepAnthropicKeywords, encodeOpenObjects, closeObjects, splitKinds(true), anthropicShape, anthropicLimits],
  },
  'gemini': {
    name: 'gemini',
    rules: [geminiTypes, targetRules.keepGeminiKeywords, geminiNames],
  },
}

/** Whether a pointer's tokens lead somewhere in a schema, through any branch a later split made. */
function reaches(schema: unknown, tokens: string[]): boolean {
  if (tokens.length === 0)
    return true
  if (!isSchemaObject(schema))
    return false
  // A union's branches, and a value wrapped for null (`{ value }`, see requireEveryKey), are looked through.
  if (Array.isArray(schema.anyOf) && tokens[0] !== 'anyOf')
    return schema.anyOf.some(branch => reaches(branch, tokens) || (isSchemaObject(branch) && isSchemaObject(branch.properties) && hasOwn(branch.properties, 'value') && reaches(branch.properties.value, tokens)))
  const key = tokens[0]!.replace(/~1/g, '/').replace(/~0/g, '~')
  return hasOwn(schema, key) && reaches(schema[key], tokens.slice(1))
}

/** A coercion plan that does at each pointer of the flat schema what its mark says (parse JSON text, remove a null, unwrap). */
function decodePlan(marks: [JsonPointer, CoercionPlan][]): CoercionPlan | undefined {
  if (marks.length === 0)
    return undefined
  const root: CoercionPlan = {}
  for (const [pointer, mark] of marks) {
    let plan = root
    const tokens = pointer.split('/').slice(1).map(token => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!
      if (token === 'properties') {
        const key = tokens[++i]!
        plan.properties ??= {}
        if (!hasOwn(plan.properties, key))
          setOwn(plan.properties, key, {})
        plan = plan.properties[key]!
      }
      else if (token === 'items') {
        plan = plan.items ??= {}
      }
      else if (token === 'additionalProperties') {
        plan = plan.additional ??= {}
      }
    }
    Object.assign(plan, mark)
  }
  return root
}

/**
 * Applies a target profile to a tool's finished `portable` input schema. A strict profile whose rules
 * a tool cannot meet gives the `portable` schema back, marked non-strict, with each reason a warning.
 */
export function applyTarget(schema: JsonSchemaObject, profile: TargetProfile): TargetResult {
  const diagnostics: Diagnostic[] = []
  const encoded: JsonPointer[] = []
  const leftOut: [JsonPointer, CoercionPlan][] = []
  const fallbacks: { path: JsonPointer, reason: string }[] = []
  let nullsMeanAbsent = false
  const ctx: TargetContext = {
    profile: profile.name,
    report: (code, severity, path, message) => diagnostics.push({ code, severity, path, flatPath: path, message }),
    encode(path) {
      // What was encoded (and said) inside this place is now inside its JSON text.
      const inside = (pointer: JsonPointer): boolean => pointer.startsWith(`${path}/`)
      encoded.splice(0, encoded.length, ...encoded.filter(pointer => !inside(pointer)), path)
      leftOut.splice(0, leftOut.length, ...leftOut.filter(([pointer]) => !inside(pointer)))
      diagnostics.splice(0, diagnostics.length, ...diagnostics.filter(d => !inside(d.path)))
    },
    fallback: (path, reason) => fallbacks.push({ path, reason }),
    nullsMeanAbsent: () => nullsMeanAbsent = true,
    nullMeansLeftOut: (path, unwrap) => leftOut.push([path, unwrap ? { nullIsAbsent: true, unwrap: 'value' } : { nullIsAbsent: true }]),
    isEncoded: path => encoded.includes(path),
  }
  const out = applyNodeRules(schema, '', profile.rules, ctx)
  const document = isSchemaObject(out) ? out : schema
  for (const rule of profile.rules)
    rule.document?.(document, ctx)
  if (profile.strict && fallbacks.length > 0) {
    return {
      schema,
      strict: false,
      nullsMeanAbsent: false,
      diagnostics: fallbacks.map(({ path, reason }) => ({ code: 'strict-fallback', severity: 'warning', path, flatPath: path, message: `served as portable, not ${profile.name}: ${reason}` })),
    }
  }
  // A place a later rule removed (the root's `additionalProperties` in gemini) has nothing to decode.
  const marks: [JsonPointer, CoercionPlan][] = [...encoded.map(pointer => [pointer, { parse: 'json' }] as [JsonPointer, CoercionPlan]), ...leftOut]
  const decode = decodePlan(marks.filter(([pointer]) => reaches(document, pointer.split('/').slice(1))).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
  return { schema: document, ...(profile.strict ? { strict: true } : {}), ...(decode ? { decode } : {}), nullsMeanAbsent, diagnostics }
}

/** How a profile compiles: the flattening it starts from, and the target rules after it. */
export interface ResolvedProfile {
  flatten: 'portable' | 'minimal'
  profile?: TargetProfile
}

/** A profile by name or a user's own, checked once; an unknown name is an error that lists the known ones. */
export function resolveTarget(profile: ProfileName | TargetProfile): ResolvedProfile {
  if (typeof profile === 'object' && profile !== null) {
    if (typeof profile.name !== 'string' || !Array.isArray(profile.rules))
      throw new TypeError('a flatmcp target profile needs a string `name` and a `rules` array')
    return { flatten: 'portable', profile }
  }
  if (profile === 'portable' || profile === 'minimal')
    return { flatten: profile }
  if (hasOwn(TARGET_PROFILES, profile))
    return { flatten: 'portable', profile: TARGET_PROFILES[profile as keyof typeof TARGET_PROFILES] }
  throw new TypeError(`unknown flatmcp profile "${String(profile)}"; expected one of ${PROFILE_NAMES.map(n => `"${n}"`).join(', ')}, or a profile object`)
}

export const PROFILE_NAMES: ProfileName[] = ['portable', 'minimal', 'openai-strict', 'anthropic-strict', 'gemini']

/** The first pointer where two schemas differ, for a readable violation. */
function firstDifference(a: unknown, b: unknown, path: JsonPointer = ''): JsonPointer {
  const both = (Array.isArray(a) && Array.isArray(b)) || (isSchemaObject(a) && isSchemaObject(b))
  if (both) {
    const x = a as Record<string, unknown>
    const y = b as Record<string, unknown>
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!jsonEqual(x[key], y[key]))
        return firstDifference(x[key], y[key], childPointer(path, key))
    }
  }
  return path
}

/**
 * Where a schema breaks a profile's rules, as `pointer: rule` lines (empty when it holds). The
 * ship-time probe runs this on what ships. `minimal` promises no shape beyond flat object unions. A
 * target profile's output is a fixed point of its rules: applied again, they change nothing.
 */
export function profileViolations(schema: JsonSchema, profile: ProfileName | TargetProfile = 'portable'): string[] {
  const resolved = resolveTarget(profile)
  if (!resolved.profile)
    return resolved.flatten === 'portable' ? portableViolations(schema) : []
  if (!isSchemaObject(schema))
    return ['/: not an object schema']
  const again = applyTarget(schema, resolved.profile)
  if (again.strict === false)
    return again.diagnostics.map(d => `${d.path || '/'}: ${d.message}`)
  return jsonEqual(again.schema, schema) && !again.decode ? [] : [`${firstDifference(schema, again.schema) || '/'}: not in ${resolved.profile.name} form (its rules would still change it)`]
}
