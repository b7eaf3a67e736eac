// Small facts about parsed JSON the runtime checks in many places, written once. The coercer keeps
// its own copy: its entry imports nothing.

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An own key: a name such as `constructor` or `__proto__` is never found on the prototype. */
export const hasOwn = (object: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(object, key)

/** The value at an own key, else undefined. */
export function ownValue<T>(object: Record<string, T> | undefined, key: string): T | undefined {
  return object !== undefined && hasOwn(object, key) ? object[key] : undefined
}

/** Sets a key as an own data property (a `__proto__` key stays a key). */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Whether a value nests deeper than `limit` objects and arrays, told without recursion. */
export function nestsDeeper(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null)
      continue
    if (depth >= limit)
      return true
    for (const child of Array.isArray(node) ? node : Object.values(node))
      stack.push([child, depth + 1])
  }
  return false
}

/** The keys of `object` that are set (not undefined), as a new object: optional options passed on as given. */
export function definedOf<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {}
  for (const key of keys) {
    if (object[key] !== undefined)
      picked[key] = object[key]
  }
  return picked
}
