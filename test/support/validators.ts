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
