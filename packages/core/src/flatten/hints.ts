import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext, KeyHint, ObjectVariant } from './context'
import { isSchemaObject, ownValue } from '../json'
import { report } from './context'

/** A key required in every variant whose string values tell the variants apart. */
export interface Discriminator {
  key: string
  /** The values each variant accepts, in variant order. */
  values: string[][]
}

function literalValues(schema: unknown): unknown[] | undefined {
  if (!isSchemaObject(schema))
    return undefined
  if ('const' in schema)
    return [schema.const]
  return Array.isArray(schema.enum) && schema.enum.length > 0 ? schema.enum : undefined
}

function candidate(variants: JsonSchemaObject[], key: string): { values: unknown[][] } | undefined {
  const values: unknown[][] = []
  for (const variant of variants) {
    const listed = Array.isArray(variant.required) && variant.required.includes(key) && isSchemaObject(variant.properties)
      ? literalValues(ownValue(variant.properties, key))
      : undefined
    if (!listed)
      return undefined
    values.push(listed)
  }
  return { values }
}

function disjointStrings(values: unknown[][]): values is string[][] {
  const seen = new Set<string>()
  for (const list of values) {
    for (const value of list) {
      if (typeof value !== 'string' || seen.has(value))
        return false
    }
    for (const value of list as string[])
      seen.add(value)
  }
  return true
}

/**
 * The discriminator of a union of objects: `declared` when it qualifies, else the first key (in the
 * first variant's order) that every variant requires with distinct string literals.
 */
export function tagOf(variants: JsonSchemaObject[], declared?: string): Discriminator | undefined {
  const first = variants[0]
  const keys = declared !== undefined ? [declared] : first && isSchemaObject(first.properties) ? Object.keys(first.properties) : []
  for (const key of keys) {
    const found = candidate(variants, key)
    if (found && disjointStrings(found.values))
      return { key, values: found.values }
  }
  return undefined
}

/** `tagOf`, reporting a declared discriminator that does not qualify (the union then has no hints). */
export function findDiscriminator(variants: JsonSchemaObject[], declared: string | undefined, ctx: FlattenContext, path: JsonPointer): Discriminator | undefined {
  const found = tagOf(variants, declared)
  if (!found && declared !== undefined)
    report(ctx, 'non-string-discriminator', 'info', path, `discriminator "${declared}" does not have distinct string values in every variant; the union is flattened without per-variant hints`)
  return found
}

function quote(values: string[]): string {
  const quoted = values.map(value => JSON.stringify(value))
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

function descriptionOf(schema: JsonSchema | undefined): string | undefined {
  return isSchemaObject(schema) && typeof schema.description === 'string' ? schema.description : undefined
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** The discriminator's flat schema: every value, the variants' descriptions in its description. */
export function describeVariants(discriminator: Discriminator, variants: ObjectVariant[]): JsonSchemaObject {
  const own = variants.map(v => descriptionOf(isSchemaObject(v.schema.properties) ? v.schema.properties[discriminator.key] as JsonSchema : undefined))
  const shared = own.every(d => d === own[0]) ? own[0] : undefined
  // A variant's own words for its discriminator value (`method: z.literal('create').describe(…)`)
  // say what the variant does, like the variant's description: both stay, by value.
  const perVariant = variants
    .map((v, i) => [shared === undefined ? own[i] : undefined, v.description].filter(Boolean).join('. '))
    .map((text, i) => text ? `${quote(discriminator.values[i]!)}: ${text}` : undefined)
    .filter(Boolean)
  const parts = [shared, perVariant.length > 0 ? perVariant.join('; ') : undefined].filter(Boolean)
  const out: JsonSchemaObject = { type: 'string', enum: discriminator.values.flat() }
  if (parts.length > 0)
    out.description = parts.map(part => sentence(part!)).join(' ')
  return out
}

/**
 * A flat key's description: its own (or, where variants describe it differently, each variant's),
 * then which discriminator values use it and which require it. A variant that is itself a union
 * flattened on the same discriminator brings its own hint, which this one refines (never repeats).
 */
/** How many tag values a discriminator's variants have in all: counted once per discriminator, not once per key. */
const valueCounts = new WeakMap<Discriminator, number>()
function valueCount(discriminator: Discriminator): number {
  let count = valueCounts.get(discriminator)
  if (count === undefined) {
    count = discriminator.values.reduce((sum, values) => sum + values.length, 0)
    valueCounts.set(discriminator, count)
  }
  return count
}

export function describeVariantKey(discriminator: Discriminator, label: string, variants: ObjectVariant[], key: string, declaredBy: number[], requiredBy: number[], hintOf: (schema: unknown) => KeyHint | undefined): { description: string, hint: KeyHint } {
  const { key: tag, values } = discriminator
  const declared: string[] = []
  const required: string[] = []
  const own: Record<string, string> = {}
  const requiring = new Set(requiredBy)
  for (const i of declaredBy) {
    const property = ownValue(variants[i]!.schema.properties as Record<string, JsonSchema> | undefined, key)
    const inner = hintOf(property)
    if (inner?.tag === tag) {
      const mine = new Set(values[i])
      for (const value of inner.declaredBy.filter(v => mine.has(v))) {
        declared.push(value)
        if (inner.own[value])
          own[value] = inner.own[value]
      }
      required.push(...inner.requiredBy.filter(v => mine.has(v)))
      continue
    }
    const text = descriptionOf(property)
    for (const value of values[i]!) {
      declared.push(value)
      if (text)
        own[value] = text
    }
    if (requiring.has(i))
      required.push(...values[i]!)
  }
  const parts: string[] = []
  // The values that share each text, in one pass (a union may have thousands of variants).
  const byText = new Map<string | undefined, string[]>()
  for (const value of declared) {
    const sharing = byText.get(own[value])
    if (sharing)
      sharing.push(value)
    else
      byText.set(own[value], [value])
  }
  const texts = [...byText.keys()]
  if (texts.length === 1 && texts[0]) {
    parts.push(sentence(texts[0]))
  }
  else if (texts.length > 1) {
    for (const [text, sharing] of byText) {
      if (text)
        parts.push(`For ${label} ${quote(sharing)}: ${sentence(text)}`)
    }
  }
  const everywhere = declared.length === valueCount(discriminator)
  if (!everywhere && required.length === declared.length)
    parts.push(`Only for ${label} ${quote(declared)}, where it is required.`)
  else if (!everywhere)
    parts.push(`Only for ${label} ${quote(declared)}.`)
  if (required.length > 0 && required.length < declared.length)
    parts.push(`Required when ${label} is ${quote(required)}.`)
  return { description: parts.join(' '), hint: { tag, declaredBy: declared, requiredBy: required, own } }
}
