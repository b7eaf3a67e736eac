// What a zod `.default()` lists. zod writes the default's value into the JSON as JSON.stringify makes
// it: `Infinity` and `NaN` as `null`, a `Map` as `{}` (another value than the parser applies), and a
// function's value as it was at the build (a time, a random id: the artifact then differs on every
// build). Both are left out of the listed schema, and said; the server's parser still applies them.
import type { JsonPointer, JsonSchemaObject } from '../types'
import type { Reading } from './json-schema'
import { isSchemaObject, resolvePointer } from '../json'

/** A value JSON carries as it is: finite numbers, strings, booleans, null, and arrays and plain objects of them. */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return true
  if (typeof value === 'number')
    return Number.isFinite(value)
  if (depth > 64 || typeof value !== 'object')
    return false
  if (Array.isArray(value))
    return value.every(item => isJsonValue(item, depth + 1))
  const prototype = Object.getPrototypeOf(value) as unknown
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(item => isJsonValue(item, depth + 1))
}

function described(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint')
    return String(value)
  if (typeof value === 'object' && value !== null)
    return `a ${value.constructor?.name ?? 'object'}`
  return typeof value
}

/** Defaults seen while zod converts one schema; `settled` reads each again once the clock has moved. */
export interface DefaultWatch {
  /** A `.default()` node as zod wrote it: its JSON node and where it is. */
  seen: (read: () => unknown, json: JsonSchemaObject, path: JsonPointer) => void
  /** What was left out of `root` (zod's output) and why, once every default has been read again a moment later. */
  settled: (root: JsonSchemaObject) => Reading[]
}

export function watchDefaults(): DefaultWatch {
  let lastRead = 0
  const readings: Reading[] = []
  const later: { read: () => unknown, path: JsonPointer, text: string }[] = []
  const leaveOut = (json: JsonSchemaObject, path: JsonPointer, message: string): void => {
    delete json.default
    readings.push({ kind: 'default', path, message })
  }
  return {
    seen(read, json, path) {
      if (!('default' in json))
        return
      const value = read()
      lastRead = Date.now()
      if (!isJsonValue(value))
        return leaveOut(json, path, `the default (${described(value)}) is no JSON value: it would be listed as ${JSON.stringify(json.default)}; left out of the listed schema (the server still applies it). Give a default JSON can carry`)
      const text = JSON.stringify(value)
      if (text !== JSON.stringify(json.default))
        return leaveOut(json, path, computedMessage(JSON.stringify(json.default), text))
      later.push({ read, path, text })
    },
    settled(root) {
      // A default made from the time differs only once the clock has moved: at most a millisecond's wait.
      while (later.length > 0 && Date.now() <= lastRead) { /* wait for the next millisecond */ }
      for (const { read, path, text } of later) {
        const again = JSON.stringify(read())
        // zod's output is a copy of the nodes it showed: the place is found by its path.
        const node = resolvePointer(root, path)
        if (again !== text && isSchemaObject(node))
          leaveOut(node, path, computedMessage(text, again))
      }
      return readings
    },
  }
}

function computedMessage(first: string, then: string): string {
  return `the default is computed each time a call is parsed (${first.slice(0, 60)}, then ${then.slice(0, 60)}); left out of the listed schema, which would list the build's value and differ on every build (the server still applies it)`
}
