// Applying a target profile: its rules over the finished `portable` schema, and the inverse map
// (a decode plan) that undoes what they changed.
import type { ObjectFacts } from './names'
import type { CoercionPlan } from '../plan/plan-coercion'
import type { Diagnostic, JsonPointer, JsonSchema, JsonSchemaObject, ParserSemantics } from '../types'
import type { TargetContext, TargetRule } from './rules'
import { hasOwn, isSchemaObject, setOwn } from '../json'
import { childPointer } from '../json'
import { applyNodeRules, takesNull } from './rules'

/**
 * The optional keys of a portable schema that the parser reads alike whether left out or `null`:
 * any that takes null (`nullable`), or one whose default is null (`default-null`). Not a key that
 * takes null alone: that is no optional value but a marker whose presence says something (serde's
 * unit variant `{"Unit1": null}`, which a union of such keys tells apart by which one is there).
 */
function nullsLikeAbsence(schema: JsonSchema, mode: ParserSemantics['nullAsAbsent'], path: JsonPointer = '', found = new Set<JsonPointer>()): Set<JsonPointer> {
  if (mode === 'never' || !isSchemaObject(schema))
    return found
  const required = Array.isArray(schema.required) ? schema.required : []
  if (isSchemaObject(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties)) {
      const at = childPointer(path, 'properties', key)
      if (!required.includes(key) && takesNull(child as JsonSchema) && !onlyNull(child as JsonSchema) && (mode === 'nullable' || (isSchemaObject(child) && child.default === null)))
        found.add(at)
      nullsLikeAbsence(child as JsonSchema, mode, at, found)
    }
  }
  for (const keyword of ['items', 'additionalProperties'])
    nullsLikeAbsence(schema[keyword] as JsonSchema, mode, childPointer(path, keyword), found)
  return found
}

function onlyNull(schema: JsonSchema): boolean {
  return isSchemaObject(schema) && (schema.type === 'null' || (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(value => value === null)))
}

/**
 * A profile that rewrites the `portable` schema for one target. Built-in ones are below; a user's own
 * is any list of rules (`targetRules` holds the built-in ones), passed as `profile` or in `profiles`.
 */
export interface TargetProfile {
  name: string
  /** The target checks these schemas strictly: a tool that cannot meet its rules is served as `portable`. */
  strict?: boolean
  rules: readonly TargetRule[]
  /** Whose API the target is, as a sentence names it: `Anthropic`. */
  vendor?: string
  /** The target's model writes `null` for every key it leaves out (every key is required there): how the probe writes its answers. */
  nullsForMissing?: boolean
  /**
   * What the target takes per request across every strict tool of a server: what one tool costs, and
   * the limits. Over one, a client sending them all as strict fails (the probe warns).
   */
  requestBudget?: RequestBudget
  /** The target reads a `null` only as OpenAPI's `nullable: true`, which JSON Schema validators read as nothing (the probe warns). */
  nullable?: 'openapi'
  /**
   * `shared`: the target reads the root's `$defs`, so a subschema the flattening wrote out more than
   * once is listed once there and referenced (OpenAI's and Anthropic's strict modes). Default: inline.
   */
  definitions?: 'shared'
  /** What its client takes of an object (see `PROFILE_OBJECTS`). Default: objects of any keys, and `additionalProperties`. */
  objects?: ObjectFacts
  /** Rules of the target's route a schema may break beyond the profile's rules' fixed point, as `pointer: rule` lines (`profileViolations` reports them). */
  violations?: (schema: JsonSchemaObject) => string[]
}

/** A vendor's budget per request, summed over the strict tools sent: each of `limits` by what `cost` counts. */
export interface RequestBudget {
  limits: Readonly<Record<string, number>>
  /** What one tool's schema spends of each limit. */
  cost: (schema: JsonSchema) => Readonly<Record<string, number>>
  /** Each limit in words: `optional parameters`. */
  words: Readonly<Record<string, string>>
}

/** What a target profile made of one tool's input schema. */
export interface TargetResult {
  schema: JsonSchemaObject
  /** For a strict profile: whether this tool met its rules (else `schema` is the `portable` one). */
  strict?: boolean
  /** Places advertised as JSON text, as a coercion plan that parses them back (`parse: "json"`). */
  decode?: CoercionPlan
  /**
   * At each object of `decode` that merges a rest key: the keys the flat schema names beside it. Any
   * other key the original names there is sent inside the rest key's text (where the flat schema cut
   * a recursive definition, all of them).
   */
  restNamed?: WeakMap<CoercionPlan, ReadonlySet<string>>
  /** Optional keys were advertised as nullable: the coercion plan drops the nulls the original rejects. */
  nullsMeanAbsent: boolean
  diagnostics: Diagnostic[]
}

/**
 * Whether a pointer's tokens lead somewhere in a schema, through any branch a later split made,
 * and into the value of a place wrapped for null (`{ value }`, see requireEveryKey) where `wrapped`
 * lists it: a user's own `value` key is never taken for a wrapper.
 */
function reaches(schema: unknown, tokens: string[], wrapped: ReadonlySet<JsonPointer>, at: JsonPointer = '', unwrapped = false): boolean {
  if (tokens.length === 0)
    return true
  if (!isSchemaObject(schema))
    return false
  // Pointers were recorded before the wrap: the wrapped value stands at the same place.
  if (!unwrapped && wrapped.has(at) && Array.isArray(schema.anyOf)) {
    const wrapper = schema.anyOf[0]
    return isSchemaObject(wrapper) && isSchemaObject(wrapper.properties) && reaches(wrapper.properties.value, tokens, wrapped, at, true)
  }
  if (Array.isArray(schema.anyOf) && tokens[0] !== 'anyOf')
    return schema.anyOf.some(branch => reaches(branch, tokens, wrapped, at, unwrapped))
  const key = tokens[0]!.replace(/~1/g, '/').replace(/~0/g, '~')
  return hasOwn(schema, key) && reaches(schema[key], tokens.slice(1), wrapped, `${at}/${tokens[0]}`)
}

/** A coercion plan that does at each pointer of the flat schema what its mark says (parse JSON text, remove a null, unwrap). */
function decodePlan(marks: [JsonPointer, CoercionPlan][], restNamed: ReadonlyMap<JsonPointer, readonly string[]>, named: WeakMap<CoercionPlan, ReadonlySet<string>>): CoercionPlan | undefined {
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
    // The branches of a union the flat schema kept share one decoding: the keys any of them names.
    if (mark.rest !== undefined)
      named.set(plan, new Set([...named.get(plan) ?? [], ...restNamed.get(pointer) ?? []]))
  }
  return root
}

/**
 * Applies a target profile to a tool's finished `portable` input schema. A strict profile whose rules
 * a tool cannot meet gives the `portable` schema back, marked non-strict, with each reason a warning.
 */
export interface ApplyOptions {
  /** Where the parser reads a key left out and `null` alike (a preset's `nullAsAbsent`). */
  nullAsAbsent?: ParserSemantics['nullAsAbsent']
  /** Whether the parser keeps keys an object does not declare (a preset's `unknownKeys`). Default: strip. */
  unknownKeys?: ParserSemantics['unknownKeys']
  /** How the parser reads a `format` the flattening kept: checked (`asserted`, the default), or as an annotation (a validator's default). */
  formats?: 'asserted' | 'annotation'
}

export function applyTarget(schema: JsonSchemaObject, profile: TargetProfile, options: ApplyOptions = {}): TargetResult {
  const sameAsAbsent = nullsLikeAbsence(schema, options.nullAsAbsent ?? 'never')
  const diagnostics: Diagnostic[] = []
  const encoded: JsonPointer[] = []
  const leftOut: [JsonPointer, CoercionPlan][] = []
  const fallbacks: { path: JsonPointer, reason: string }[] = []
  let nullsMeanAbsent = false
  // The objects closed with a rest key whose mark is in `leftOut` (asked of every object), each with
  // the keys it names beside its rest key.
  const restNamed = new Map<JsonPointer, readonly string[]>()
  // Whether any pointer recorded (encoded, left out, said) lies under a values schema: until one does, a rest key forgets nothing.
  let valuesSaid = false
  const said = (pointer: JsonPointer): JsonPointer => {
    valuesSaid ||= pointer.includes('/additionalProperties')
    return pointer
  }
  // What was recorded under `prefix` (encoded, left out, said) is forgotten: it is inside JSON text now.
  const forget = (prefix: string): void => {
    const inside = (pointer: JsonPointer): boolean => pointer.startsWith(prefix)
    encoded.splice(0, encoded.length, ...encoded.filter(pointer => !inside(pointer)))
    leftOut.splice(0, leftOut.length, ...leftOut.filter(([pointer]) => !inside(pointer)))
    diagnostics.splice(0, diagnostics.length, ...diagnostics.filter(d => !inside(d.path)))
    for (const pointer of restNamed.keys()) {
      if (inside(pointer))
        restNamed.delete(pointer)
    }
  }
  const ctx: TargetContext = {
    profile: profile.name,
    report: (code, severity, path, message) => diagnostics.push({ code, severity, path: said(path), flatPath: path, message }),
    encode(path) {
      // What was encoded (and said) inside this place is now inside its JSON text.
      forget(`${path}/`)
      encoded.push(said(path))
    },
    fallback: (path, reason) => fallbacks.push({ path, reason }),
    nullsMeanAbsent: () => nullsMeanAbsent = true,
    nullMeansLeftOut: (path, unwrap) => leftOut.push([said(path), unwrap ? { nullIsAbsent: true, unwrap: 'value' } : { nullIsAbsent: true }]),
    restKey(path, key, named) {
      // The other keys' values are inside the rest key's JSON text now, judged by the original alone.
      // Only where something was said under some object's values schema is there anything to forget
      // (filtering every pointer at each of thousands of objects open by omission made a compile quadratic).
      if (valuesSaid)
        forget(`${path}/additionalProperties`)
      leftOut.push([said(path), { rest: key }])
      restNamed.set(path, named)
    },
    hasRestKey: path => restNamed.has(path),
    isEncoded: path => encoded.includes(path),
    // Pointers of the portable schema; a branch a rule split off stands where its node stood.
    nullIsAbsent: path => sameAsAbsent.has(path.replace(/\/anyOf\/\d+/g, '')),
    keepsUnknownKeys: options.unknownKeys === 'keep',
    formatsAnnotate: options.formats === 'annotation',
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
  const wrapped = new Set(leftOut.filter(([, mark]) => mark.unwrap).map(([pointer]) => pointer))
  const named = new WeakMap<CoercionPlan, ReadonlySet<string>>()
  const decode = decodePlan(marks.filter(([pointer]) => reaches(document, pointer.split('/').slice(1), wrapped)).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0), restNamed, named)
  return { schema: document, ...(profile.strict ? { strict: true } : {}), ...(decode ? { decode, restNamed: named } : {}), nullsMeanAbsent, diagnostics }
}
