// A strict profile's nulls, read once: where its decoding already tells a left-out key (a bare
// `null`, removed) from a real null (the JSON text "null", or `{ "value": null }`), the null that is
// left is the model's own value, so the coercion plan keeps it at that key in every alternative of
// the object (one whose keys do not name it may still take it: an open object's other key).
import type { CoercionPlan } from './plan-coercion'
import { hasOwn, setOwn } from '../json'

/** The keys whose null the decoding at this object already read (`nullIsAbsent`). */
function decodedKeys(decode: CoercionPlan): string[] {
  return decode.properties ? Object.keys(decode.properties).filter(key => decode.properties![key]!.nullIsAbsent === true) : []
}

/** The coercion plan with each object's `keepNull` holding the keys its decoding reads the nulls of. */
export function keepDecodedNulls(plan: CoercionPlan, decode: CoercionPlan, depth = 0): CoercionPlan {
  // A named plan (`ref`) is shared by every place that uses it: left as it is.
  if (depth > 64 || plan.ref !== undefined)
    return plan
  const out: CoercionPlan = { ...plan }
  const keys = decodedKeys(decode)
  if (out.keepNull && keys.length > 0)
    out.keepNull = [...new Set([...out.keepNull, ...keys])]
  if (out.properties && decode.properties) {
    const properties: Record<string, CoercionPlan> = {}
    for (const [key, sub] of Object.entries(out.properties))
      setOwn(properties, key, hasOwn(decode.properties, key) ? keepDecodedNulls(sub, decode.properties[key]!, depth + 1) : sub)
    out.properties = properties
  }
  if (out.items && decode.items)
    out.items = keepDecodedNulls(out.items, decode.items, depth + 1)
  if (out.prefix && decode.items)
    out.prefix = out.prefix.map(sub => sub && keepDecodedNulls(sub, decode.items!, depth + 1))
  if (out.additional && decode.additional)
    out.additional = keepDecodedNulls(out.additional, decode.additional, depth + 1)
  if (out.discriminator)
    out.discriminator = { ...out.discriminator, cases: Object.fromEntries(Object.entries(out.discriminator.cases).map(([tag, sub]) => [tag, keepDecodedNulls(sub, decode, depth + 1)])) }
  if (out.variants)
    out.variants = out.variants.map(variant => ({ ...variant, plan: keepDecodedNulls(variant.plan, decode, depth + 1) }))
  return out
}
