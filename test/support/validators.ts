// The JSON Schema validators clients run on a model's arguments before the server sees them (the
// probe's own set): a flat schema must accept every value the original accepts under each of them.
import { clientCheck } from '../../packages/unplugin/src/core/check/validators'

export { CLIENT_VALIDATORS } from '../../packages/unplugin/src/core/check/validators'

/** Compiled once per schema object: property tests validate many values against one schema. */
const compiled = new WeakMap<object, (value: unknown) => string[]>()

/** The validators that reject `value` under `schema` (empty when every one accepts it). */
export function rejectedBy(schema: unknown, value: unknown): string[] {
  const target = schema === true ? {} : schema === false ? { not: {} } : schema as object
  let check = compiled.get(target)
  if (!check) {
    check = clientCheck(target)
    compiled.set(target, check)
  }
  return check(value)
}

/**
 * The validators that reject a value under `schema`, as a function, or undefined where some
 * validator cannot compile the schema (a pattern zod wrote in legacy syntax): an original that no
 * validator can be the parser of.
 */
export function validatorsOf(schema: unknown): ((value: unknown) => string[]) | undefined {
  try {
    rejectedBy(schema, {})
    return value => rejectedBy(schema, value)
  }
  catch {
    return undefined
  }
}
