// The generated specs of schema-arbitrary built as valibot schemas: the same shapes through
// valibot's own constructs (pipes with transformations, fallbacks, variants, loose and strict
// objects, tuples with rest), for the valibot front end's property test.
import type { Field, Spec } from './schema-arbitrary'
import * as v from 'valibot'
import { REGEXES } from './schema-arbitrary'

type Schema = v.GenericSchema

/** valibot's own string checks, standing in for the spec's formats (by index, round robin). */
const FORMAT_CHECKS: (() => Schema)[] = [
  () => v.pipe(v.string(), v.email()),
  () => v.pipe(v.string(), v.rfcEmail()),
  () => v.pipe(v.string(), v.ipv6()),
  () => v.pipe(v.string(), v.isoDateTime()),
  () => v.pipe(v.string(), v.isoTimestamp()),
  () => v.pipe(v.string(), v.url()),
  () => v.pipe(v.string(), v.uuid()),
  () => v.pipe(v.string(), v.includes('x')),
  () => v.pipe(v.string(), v.graphemes(2)),
  () => v.pipe(v.string(), v.trim(), v.startsWith('a')),
]

/**
 * `typed`: objects valibot strips (`v.object`) are strict, so a value's every key means something
 * (see toZod); everything else, fallbacks included, stays as it is.
 */
export function toValibot(s: Spec, typed = false): Schema {
  const inner = (child: Spec): Schema => toValibot(child, typed)
  switch (s.t) {
    case 'string': {
      const actions: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = []
      if (s.trim)
        actions.push(v.trim())
      if (s.min !== undefined)
        actions.push(v.minLength(s.min))
      if (s.max !== undefined)
        actions.push(v.maxLength(s.max))
      if (s.regex !== undefined)
        actions.push(v.regex(REGEXES[s.regex]!.regex))
      if (s.refine)
        actions.push(v.check(value => !value.includes('!')))
      if (s.transform)
        actions.push(v.transform(value => value))
      return actions.length === 0 ? v.string() : v.pipe(v.string(), ...actions as [v.PipeItem<string, string, v.BaseIssue<unknown>>])
    }
    case 'number': {
      const actions: v.PipeItem<number, number, v.BaseIssue<unknown>>[] = []
      if (s.int)
        actions.push(v.integer())
      if (s.min !== undefined)
        actions.push(v.minValue(s.min))
      if (s.max !== undefined)
        actions.push(v.maxValue(s.max))
      if (s.multipleOf !== undefined)
        actions.push(v.multipleOf(s.multipleOf))
      const out = actions.length === 0 ? v.number() : v.pipe(v.number(), ...actions as [v.PipeItem<number, number, v.BaseIssue<unknown>>])
      return s.catch ? v.fallback(out, 0) : out
    }
    case 'format': return FORMAT_CHECKS[s.format % FORMAT_CHECKS.length]!()
    case 'boolean': return v.boolean()
    case 'literal': return v.literal(s.value)
    case 'literals': return v.union(s.values.map(value => value === null ? v.null() : v.literal(value)))
    case 'null': return v.null()
    case 'unknown': return s.how === 'any' ? v.any() : v.unknown()
    case 'template': return v.pipe(v.string(), v.regex(/^id-\d+$/))
    case 'stringbool': return v.picklist(['true', 'false', 'yes', 'no', '1', '0'])
    case 'enum': return v.picklist(s.values)
    case 'object': return objectOf(s.fields, s.strict, typed, s.extra)
    case 'intersection': return typed
      ? objectOf([...s.left, ...s.right], true, true)
      : v.intersect([objectOf(s.left, false, false), objectOf(s.right, false, false)])
    case 'array': return v.pipe(v.array(inner(s.item)), v.minLength(s.min))
    case 'record': {
      const value = inner(s.value)
      if (s.keys === 'enum' || s.keys === 'partial')
        return v.record(v.picklist(['a', 'id']), s.keys === 'partial' ? v.optional(value) : value)
      return v.record(s.keys === 'pattern' ? v.pipe(v.string(), v.regex(/^[a-c]/i)) : v.string(), value)
    }
    case 'tuple': return s.rest ? v.tupleWithRest(s.items.map(inner), inner(s.rest)) : v.tuple(s.items.map(inner))
    case 'nullable': return v.nullable(inner(s.inner))
    case 'wrap': {
      const schema = inner(s.inner)
      switch (s.how) {
        case 'readonly': return v.pipe(schema, v.readonly())
        case 'brand': return v.pipe(schema, v.brand('b'))
        case 'lazy': return v.lazy(() => schema)
        case 'nonoptional': return v.nonOptional(v.optional(schema))
        case 'success': return v.pipe(schema, v.check(() => true))
      }
      break
    }
    case 'tree': {
      const node: Schema = objectOf([], typed, typed, undefined, s.via === 'union'
        ? { v: inner(s.leaf), kids: v.optional(v.union([v.null(), v.lazy(() => node)])), next: v.optional(v.union([v.lazy(() => node), v.null()])) }
        : { v: inner(s.leaf), kids: v.optional(v.array(v.lazy(() => node))) })
      return node
    }
    case 'union': return v.union(s.options.map(inner))
    case 'du': return v.variant(s.key, s.variants.map(variant => objectOf([{ key: s.key, spec: variant.values.length === 1 ? { t: 'literal', value: variant.values[0]! } : { t: 'enum', values: variant.values }, optional: false }, ...variant.fields], variant.strict, typed, variant.extra)) as never)
  }
  throw new Error(`no valibot twin for ${JSON.stringify(s)}`)
}

function objectOf(fields: Field[], strict: boolean, typed: boolean, extra?: 'loose' | Spec, more: Record<string, Schema> = {}): Schema {
  const entries: Record<string, Schema> = {}
  for (const f of fields) {
    const schema = f.described ? v.pipe(toValibot(f.spec, typed), v.description(`${f.key} as ${f.spec.t}`)) : toValibot(f.spec, typed)
    // A prefault stands in for a fallback (any value, and a missing key, become the fallback).
    entries[f.key] = f.default === 'prefault' ? v.fallback(schema, null as never) : f.default || f.optional ? v.optional(schema) : schema
  }
  Object.assign(entries, more)
  if (extra === 'loose')
    return v.looseObject(entries)
  if (extra)
    return v.objectWithRest(entries, toValibot(extra, typed))
  return strict || typed ? v.strictObject(entries) : v.object(entries)
}
