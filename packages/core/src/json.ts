import type { JsonPointer, JsonSchema, JsonSchemaObject } from './types'

export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || isSchemaObject(value)
}

/** Whether `key` is an object's own property: a key named like a prototype member (`constructor`) is data. */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}

/** The own property `key` of an object, never one it inherits. */
export function ownValue<T>(object: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return object !== undefined && hasOwn(object, key) ? object[key] : undefined
}

/** Sets `key` as an own data property: a `__proto__` key never reaches the prototype. */
/** `object` without one key (a copy). */
export function withoutKeyword<T extends Record<string, unknown>>(object: T, keyword: string): T {
  const { [keyword]: _dropped, ...rest } = object
  return rest as T
}

export function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b)
    return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return false
  if (Array.isArray(a) !== Array.isArray(b))
    return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length)
    return false
  return ka.every(key => hasOwn(b, key)
    && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

/** Values in first-seen order, without structural duplicates. */
export function uniqueJson<T>(values: Iterable<T>): T[] {
  const out: T[] = []
  const primitives = new Set<unknown>()
  for (const value of values) {
    if (typeof value !== 'object' || value === null) {
      if (primitives.has(value))
        continue
      primitives.add(value)
      out.push(value)
    }
    else if (!out.some(seen => jsonEqual(seen, value))) {
      out.push(value)
    }
  }
  return out
}

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1')
}

export function childPointer(base: JsonPointer, ...tokens: (string | number)[]): JsonPointer {
  return base + tokens.map(token => `/${escapePointerToken(token)}`).join('')
}

/** Resolves a JSON pointer (RFC 6901: `''`, `/a/b`, with `~0` and `~1` escapes) inside `root`. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '')
    return root
  if (!pointer.startsWith('/'))
    return undefined
  let node: unknown = root
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof node !== 'object' || node === null || !hasOwn(node, token))
      return undefined
    node = (node as Record<string, unknown>)[token]
  }
  return node
}

/**
 * The JSON pointer a local `$ref` (`#`, `#/a/b`) names inside `root`, or undefined. A `$ref` is a
 * URI fragment, so it is percent-decoded first; some generators (zod among them) write keys
 * unencoded, so a fragment that does not decode, or names nothing decoded, is tried as written.
 */
export function refPointer(root: unknown, ref: string): JsonPointer | undefined {
  if (!ref.startsWith('#'))
    return undefined
  const raw = ref.slice(1)
  let decoded: string | undefined
  try {
    decoded = decodeURIComponent(raw)
  }
  catch {
    // Not percent-encoding: read it as written.
  }
  return [decoded, raw].find((pointer): pointer is string => pointer !== undefined && resolvePointer(root, pointer) !== undefined)
}

/** The schema a local `$ref` names inside `root`, or undefined. */
export function resolveRef(root: unknown, ref: string): unknown {
  const pointer = refPointer(root, ref)
  return pointer === undefined ? undefined : resolvePointer(root, pointer)
}
