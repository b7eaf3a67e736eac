// A schema with no `$ref` and no `$defs`, for a place that takes none: Gemini 3.x refuses either in a
// function *response* ("The referenced name `#/$defs/X` in function_response.response does not match
// to a display_name"), so a tool result that holds a schema (a `describe_tools` answer) holds it so.
// Each local `$ref` is written out where it stands. What cannot be written out — a `$ref` inside its
// own expansion (recursion), one that points nowhere or outside the document, or one past the
// budget — becomes a node that says what stood there, of the target's `type` where it says one: the
// answer is a description for a model to read, and the call is still checked against the real schema.
import type { JsonSchema, JsonSchemaObject } from '../types'
import { isSchemaObject, resolvePointer } from '../json'
import { KIND_ORDER, mapSubschemas } from '../keywords'

/** Annotations a `$ref`'s siblings may set over its target's without changing what it accepts. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$comment'])
const REFERENCE_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const
/** Past this depth a node is not written out (a hostile schema may nest thousands deep). */
const MAX_DEPTH = 256

/** What was written out, and each `$ref` that could not be (as it was written) with why. */
export interface ReferenceFree {
  schema: JsonSchema
  cut: { ref: string, why: 'recursive' | 'unresolved' | 'budget' }[]
}

/**
 * `schema` with every local `$ref` written out and every `$defs`/`definitions` dropped. `budget`: the
 * most characters of JSON the written-out targets may add together; past it, a `$ref` is cut, so the
 * result is at most about `budget` characters longer than `schema`, however its definitions nest.
 */
export function withoutReferences(schema: JsonSchema, budget: number): ReferenceFree {
  const cut: ReferenceFree['cut'] = []
  let spent = 0
  const sizes = new WeakMap<object, number>()
  const write = (node: JsonSchema, expanding: readonly string[], depth = 0): JsonSchema => {
    if (!isSchemaObject(node))
      return node
    if (depth > MAX_DEPTH)
      return { description: `Nested past ${MAX_DEPTH} levels; not written out.` }
    const keyword = REFERENCE_KEYWORDS.find(name => typeof node[name] === 'string')
    const { $defs: _defs, definitions: _definitions, ...rest } = node
    if (keyword === undefined)
      return mapSubschemas(rest, child => write(child, expanding, depth + 1))
    const ref = node[keyword] as string
    const { [keyword]: _ref, ...siblings } = rest
    const here = mapSubschemas(siblings, child => write(child, expanding, depth + 1))
    const target = keyword === '$ref' && ref.startsWith('#') ? resolvePointer(schema, decodePointer(ref.slice(1))) : undefined
    const size = target === undefined ? 0 : measured(target, budget - spent, sizes)
    const why = target === undefined || (typeof target !== 'boolean' && !isSchemaObject(target)) ? 'unresolved' : expanding.includes(ref) ? 'recursive' : spent + size > budget ? 'budget' : undefined
    if (why !== undefined) {
      cut.push({ ref, why })
      return { ...cutNode(ref, why, target), ...here }
    }
    spent += size
    return merged(write(target as JsonSchema, [...expanding, ref], depth + 1), here)
  }
  return { schema: write(schema, []), cut }
}

/**
 * The length of `node`'s JSON text, or more than `limit` once past it: a big target is measured no
 * further than what is left of the budget, and once per object (`sizes`) however many `$ref`s name it
 * (writing each one's target out to measure it took seconds for a few thousand `$ref`s to one big shape).
 * A size said to be past a limit stays past every later one, for what is left only shrinks.
 */
function measured(node: unknown, limit: number, sizes: WeakMap<object, number>): number {
  const known = typeof node === 'object' && node !== null ? sizes.get(node) : undefined
  if (known !== undefined)
    return known
  let total = 0
  const pending: unknown[] = [node]
  while (pending.length > 0 && total <= limit) {
    const next = pending.pop()
    if (typeof next === 'string')
      total += next.length > limit ? next.length : JSON.stringify(next).length
    else if (Array.isArray(next)) {
      total += 1 + Math.max(next.length, 1)
      pending.push(...next.slice(0, limit - total + 1))
    }
    else if (typeof next === 'object' && next !== null) {
      const keys = Object.keys(next)
      total += 1 + Math.max(keys.length, 1)
      for (const key of keys.slice(0, limit - total + 1))
        pending.push(key, (next as Record<string, unknown>)[key])
      total += keys.length // each key's colon
    }
    else {
      total += String(next).length
    }
  }
  const size = total <= limit ? total : limit + 1
  if (typeof node === 'object' && node !== null)
    sizes.set(node, size)
  return size
}

/** A `$ref`'s pointer as JSON Pointer reads it (`#/$defs/a%20b` names `a b`). */
function decodePointer(fragment: string): string {
  try {
    return decodeURIComponent(fragment)
  }
  catch {
    return fragment
  }
}

/** JSON Schema's type names: a cut node takes its target's `type` only as one or a few of them (a hostile one thousands long was copied into every cut node). */
const TYPE_NAMES: ReadonlySet<string> = new Set(KIND_ORDER)

function isTypeName(name: unknown): boolean {
  return typeof name === 'string' && TYPE_NAMES.has(name)
}

/** What stands for a `$ref` not written out: its target's `type` where it says one, and a sentence of what it was. */
function cutNode(ref: string, why: ReferenceFree['cut'][number]['why'], target: unknown): JsonSchemaObject {
  const typed = isSchemaObject(target) ? target.type : undefined
  const type = isTypeName(typed) || (Array.isArray(typed) && typed.length <= TYPE_NAMES.size && typed.every(isTypeName)) ? { type: typed } : {}
  const name = ref.split('/').at(-1) || ref
  const said = why === 'recursive' ? `the same shape as the enclosing "${name}" (recursive; not written out again)` : why === 'budget' ? `the shape "${name}" (not written out: the answer's size bound)` : `the shape "${name}" (not in this document)`
  return { ...type, description: `As ${said}.` }
}

/**
 * A written-out target with its `$ref`'s siblings: annotations over the target's; any other keyword
 * beside it in `allOf` (merged into one node, `properties` would change what the target's
 * `additionalProperties` allows).
 */
function merged(target: JsonSchema, siblings: JsonSchemaObject): JsonSchema {
  const keys = Object.keys(siblings)
  if (keys.length === 0)
    return target
  if (isSchemaObject(target) && keys.every(key => ANNOTATIONS.has(key)))
    return { ...target, ...siblings }
  return { ...siblings, allOf: [...(Array.isArray(siblings.allOf) ? siblings.allOf : []), target] }
}
