// Small facts about values the build checks in several places, written once.

/** A JSON object: not null, not an array. */
// Parsed JSON, read field by field where it is used.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An object literal's kind of object (its prototype `Object.prototype` or none): not a class instance, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null)
    return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}
