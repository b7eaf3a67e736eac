// Null-valued keys left out of a strict model's arguments: in one object (keeping those the original
// takes null for), or everywhere (bounded), the last reading a server tries.
import { set } from './coerce-args'

type Json = unknown

/** The object without its null-valued keys outside `keep`; itself when it has none. */
export function withoutNulls(value: Record<string, Json>, keep: string[]): Record<string, Json> {
  // Copied from the first dropped key on (a `delete` would leave V8 a slow object for the parser).
  let copy: Record<string, Json> | undefined
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (value[key] === null && !keep.includes(key)) {
      if (!copy) {
        copy = {}
        for (let j = 0; j < i; j++)
          set(copy, keys[j]!, value[keys[j]!])
      }
    }
    else if (copy) {
      set(copy, key, value[key])
    }
  }
  return copy ?? value
}

const MAX_DEPTH = 128
/**
 * Places the last reading ("every null anywhere") visits: a fallback for values the plan cannot
 * place, so it is bounded well below the body a transport takes (a 4 MiB body of 200,000 elements
 * cost it 10× zod's own rejection); past it the rest is left as it is, for the original to judge.
 */
export const MAX_WORK = 1 << 16

/** The value with every null-valued object key left out, at any depth (bounded); copies what changes. */
export function withoutNullKeys(value: Json, budget: { work: number }, depth: number): Json {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || --budget.work < 0)
    return value
  if (Array.isArray(value)) {
    let out = value
    for (let i = 0; i < value.length && budget.work > 0; i++) {
      const next = withoutNullKeys(value[i], budget, depth + 1)
      if (next !== value[i]) {
        if (out === value)
          out = value.slice()
        out[i] = next
      }
    }
    return out
  }
  const source = value as Record<string, Json>
  let out = source
  for (const key of Object.keys(source)) {
    const next = withoutNullKeys(source[key], budget, depth + 1)
    if (next !== source[key]) {
      if (out === source)
        out = { ...source }
      set(out, key, next)
    }
  }
  return withoutNulls(out, [])
}
