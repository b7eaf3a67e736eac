// A strict profile's nulls, read once: where its decoding already tells a left-out key (a bare
// `null`, removed) from a real null (the JSON text "null", or `{ "value": null }`), the null that is
// left is the model's own value, so the coercion plan keeps it at that key in every alternative of
// the object (one whose keys do not name it may still take it: an open object's other key).
// Beneath a place advertised as JSON text the model wrote the original's value itself, where no key
// had to be sent: every null there is a value, so nothing there drops nulls. A rest key's text is
// such a place: the keys it holds, and all below them, are the model's values as written; a key the
// flat schema names beside the rest key is not, and below it nulls are read as anywhere else.
import type { CoercionPlan } from './plan-coercion'
import { hasOwn, jsonEqual, setOwn } from '../json'
import { mapPlans } from './plan-algebra'

/** The keys whose null the decoding at this object already read (`nullIsAbsent`). */
function decodedKeys(decode: CoercionPlan): string[] {
  return decode.properties ? Object.keys(decode.properties).filter(key => decode.properties![key]!.nullIsAbsent === true) : []
}

/**
 * The root plan's definitions as planned (`originals`), with those made here (`all`): each copied for
 * JSON text (`asText`: name → its copy's name), each spelled out for a decoding that holds JSON text
 * (`spelled`: name and decoding → the name of the plan made for it, the definition's own where it is
 * the same), and those that drop nulls (`dropping`, found when first needed).
 */
interface Defs {
  originals: Record<string, CoercionPlan>
  all: Record<string, CoercionPlan>
  asText: Map<string, string>
  spelled: Map<string, string>
  dropping?: Set<string>
  /** At each decoding that merges a rest key: the keys named beside it (see `TargetResult.restNamed`). */
  named?: WeakMap<CoercionPlan, ReadonlySet<string>>
  /** Each decoding met at a named plan, as text (`decodeText`). */
  texts: WeakMap<CoercionPlan, string>
}

/**
 * The coercion plan with each object's `keepNull` holding the keys its decoding reads the nulls of;
 * `named`, at each decoding that merges a rest key, the keys sent beside it (without, every key the
 * decoding does not plan there is read as sent inside the text).
 */
export function keepDecodedNulls(plan: CoercionPlan, decode: CoercionPlan, named?: WeakMap<CoercionPlan, ReadonlySet<string>>): CoercionPlan {
  // A plan that drops no null (gemini's; a profile's that keeps them) has nothing to keep.
  if (!JSON.stringify(plan).includes('"keepNull":'))
    return plan
  const defs: Defs = { originals: plan.defs ?? {}, all: { ...plan.defs }, asText: new Map(), spelled: new Map(), named, texts: new WeakMap() }
  const out = { ...withDecodedNulls(plan, decode, defs, 0) }
  if (defs.asText.size > 0 || defs.spelled.size > 0) {
    delete out.defs
    const used = usedDefs(out, defs.all)
    if (Object.keys(used).length > 0)
      out.defs = used
  }
  return out
}

/** The definitions a plan (without its own `defs`) names, at any depth: one now reached only as a copy is left out. */
function usedDefs(plan: CoercionPlan, all: Record<string, CoercionPlan>): Record<string, CoercionPlan> {
  const used = new Set<string>()
  const pending: CoercionPlan[] = [plan]
  while (pending.length > 0) {
    mapPlans(pending.pop()!, (place) => {
      if (place.ref !== undefined && hasOwn(all, place.ref) && !used.has(place.ref)) {
        used.add(place.ref)
        pending.push(all[place.ref]!)
      }
      return place
    })
  }
  const out: Record<string, CoercionPlan> = {}
  for (const [name, def] of Object.entries(all)) {
    if (used.has(name))
      setOwn(out, name, def)
  }
  return out
}

/** `base`, or `base` primed until no definition has the name. */
function freeName(base: string, defs: Defs): string {
  let name = base
  while (hasOwn(defs.all, name))
    name = `${name}'`
  return name
}

function withDecodedNulls(plan: CoercionPlan, decode: CoercionPlan, defs: Defs, depth: number): CoercionPlan {
  if (decode.parse === 'json')
    return nullsAsValues(plan, defs)
  if (depth > 64)
    return plan
  // A named plan (`ref`) is shared by every place that uses it: left as it is, unless JSON text lies below.
  if (plan.ref !== undefined)
    return spelledOut(plan, decode, defs, depth)
  const out: CoercionPlan = { ...plan }
  const keys = decodedKeys(decode)
  // An object whose decoding merges its rest key's JSON text in: the nulls of the keys sent beside it
  // that stand for a key left out, the decoding removed (`nullIsAbsent`); every null left is a value
  // (written inside the text, or at a named key the original takes or refuses either way). A key the
  // flat schema names beside the rest key is planned as it is (its optional keys below, in a closed
  // object, are the coercion plan's to drop); any other came from the text.
  const fromText = decode.rest !== undefined
  if (fromText)
    delete out.keepNull
  else if (out.keepNull && keys.length > 0)
    out.keepNull = [...new Set([...out.keepNull, ...keys])]
  const sentBeside = fromText ? defs.named?.get(decode) : undefined
  const below = (sub: CoercionPlan, at: CoercionPlan): CoercionPlan => withDecodedNulls(sub, at, defs, depth + 1)
  const beside = (sub: CoercionPlan, at: CoercionPlan | undefined, key?: string): CoercionPlan => at ? below(sub, at) : fromText && !(key !== undefined && sentBeside?.has(key)) ? nullsAsValues(sub, defs) : sub
  if (out.properties && (decode.properties || fromText)) {
    const properties: Record<string, CoercionPlan> = {}
    for (const [key, sub] of Object.entries(out.properties))
      setOwn(properties, key, beside(sub, decode.properties && hasOwn(decode.properties, key) ? decode.properties[key] : undefined, key))
    out.properties = properties
  }
  // A key sent beside the rest key that the original plans with its other keys (a record's known
  // keys) keeps that plan, not the text's: named apart, as a declared key's plan is.
  if (fromText && out.additional && sentBeside) {
    for (const key of sentBeside) {
      if (!out.properties || !hasOwn(out.properties, key))
        setOwn(out.properties ??= {}, key, beside(out.additional, decode.properties && hasOwn(decode.properties, key) ? decode.properties[key] : undefined, key))
    }
  }
  if (out.items && decode.items)
    out.items = below(out.items, decode.items)
  if (out.prefix && decode.items)
    out.prefix = out.prefix.map(sub => sub && below(sub, decode.items!))
  if (out.additional)
    out.additional = beside(out.additional, decode.additional)
  if (out.discriminator)
    out.discriminator = { ...out.discriminator, cases: Object.fromEntries(Object.entries(out.discriminator.cases).map(([tag, sub]) => [tag, below(sub, decode)])) }
  if (out.variants)
    out.variants = out.variants.map(variant => ({ ...variant, plan: below(variant.plan, decode) }))
  return out
}

/** Whether a decoding parses JSON text at its place or below. */
const jsonTextIn = new WeakMap<CoercionPlan, boolean>()

function holdsJsonText(decode: CoercionPlan): boolean {
  let holds = jsonTextIn.get(decode)
  if (holds === undefined) {
    holds = decode.parse === 'json' || decode.rest !== undefined || [...Object.values(decode.properties ?? {}), decode.items, decode.additional].some(sub => sub !== undefined && holdsJsonText(sub))
    jsonTextIn.set(decode, holds)
  }
  return holds
}

/** The decoding as text, with the keys named beside each rest key (two decodings alike but for those plan a definition apart). */
function decodeText(decode: CoercionPlan, defs: Defs): string {
  let text = defs.texts.get(decode)
  if (text === undefined) {
    const named = defs.named
    text = JSON.stringify(decode, named && ((_key, value: unknown) => {
      const keys = typeof value === 'object' && value !== null ? named.get(value as CoercionPlan) : undefined
      return keys ? { ...(value as CoercionPlan), '': [...keys].sort() } : value
    }))
    defs.texts.set(decode, text)
  }
  return text
}

/**
 * A place that follows a named plan, where its decoding holds JSON text: the definition planned for
 * that decoding, named once per decoding alike (a recursive one refers to itself), so the text's
 * nulls are kept; the definition's own name where that plan is the same.
 */
function spelledOut(plan: CoercionPlan, decode: CoercionPlan, defs: Defs, depth: number): CoercionPlan {
  const ref = plan.ref!
  if (!holdsJsonText(decode) || !hasOwn(defs.originals, ref))
    return plan
  const key = `${ref}\u0000${decodeText(decode, defs)}`
  let name = defs.spelled.get(key)
  if (name === undefined) {
    name = freeName(`${ref} holding text`, defs)
    defs.spelled.set(key, name)
    setOwn(defs.all, name, {})
    const body = withDecodedNulls(defs.originals[ref]!, decode, defs, depth + 1)
    if (jsonEqual(body, defs.originals[ref])) {
      delete defs.all[name]
      defs.spelled.set(key, name = ref)
    }
    else {
      setOwn(defs.all, name, body)
    }
  }
  return name === ref ? plan : { ...plan, ref: name }
}

/**
 * The plan with no null dropped anywhere (no `keepNull`; a union's alternatives are kept for their
 * repairs, and with no `keepNull` in any, a value that fits several keeps its nulls too); a named plan
 * it reaches, copied so once.
 */
function nullsAsValues(plan: CoercionPlan, defs: Defs): CoercionPlan {
  return mapPlans(plan, place => {
    const { keepNull: _keepNull, ...rest } = place
    // Alternatives with nothing to repair would only keep the reading from being compiled.
    if (rest.variants?.every(variant => Object.keys(variant.plan).length === 0))
      delete rest.variants
    if (rest.ref !== undefined && hasOwn(defs.originals, rest.ref))
      rest.ref = textDef(rest.ref, defs)
    return rest
  })
}

/** The name of the copy of definition `name` that reads nulls as values, made once (a recursive one refers to itself). */
function textDef(name: string, defs: Defs): string {
  let copy = defs.asText.get(name)
  // A definition that drops no null, itself or through one it names, is its own copy.
  if (copy === undefined && !(defs.dropping ??= droppingDefs(defs.originals)).has(name))
    return name
  if (copy === undefined) {
    copy = freeName(`${name} as text`, defs)
    defs.asText.set(name, copy)
    setOwn(defs.all, copy, {})
    setOwn(defs.all, copy, nullsAsValues(defs.originals[name]!, defs))
  }
  return copy
}

/** The definitions that drop a null (`keepNull`) themselves or through one they name, at any depth. */
function droppingDefs(all: Record<string, CoercionPlan>): Set<string> {
  const dropping = new Set<string>()
  const namedBy = new Map<string, string[]>()
  for (const [name, def] of Object.entries(all)) {
    mapPlans(def, (place) => {
      if (place.keepNull)
        dropping.add(name)
      if (place.ref !== undefined) {
        const users = namedBy.get(place.ref)
        if (users)
          users.push(name)
        else
          namedBy.set(place.ref, [name])
      }
      return place
    })
  }
  const pending = [...dropping]
  while (pending.length > 0) {
    for (const user of namedBy.get(pending.pop()!) ?? []) {
      if (!dropping.has(user)) {
        dropping.add(user)
        pending.push(user)
      }
    }
  }
  return dropping
}
