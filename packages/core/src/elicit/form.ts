// A schema written for elicitation, as forms a client can show: MCP's `requestedSchema` holds a flat
// object of primitives only (strings with four formats, numbers with bounds, booleans, enums, and
// multi-select lists of strings). Nested objects become titled flat fields whose keys are their
// paths; a union of objects is asked in rounds, its tag first, then the chosen variant's fields;
// what a form cannot hold (a list of objects, a record, a nested union) is an error naming its path.
// The original schema still judges the answer, so a bound a form cannot say is only left unsaid.
import type { JsonSchemaObject } from '../types'
import type { SchemaConverters } from '../frontend/original-schema'
import { toOriginalSchema } from '../frontend/original-schema'
import { isSchemaObject, resolvePointer } from '../json'

/** One field of a form: a primitive the client shows, and where its answer goes in the value. */
export interface FormField {
  /** Its key in `requestedSchema`: the path joined with `.`. */
  key: string
  /** Where the answer goes in the rebuilt value. */
  path: string[]
  /** What a field left empty stands for, where the key must be there but takes `null`. */
  emptyAs?: null
  /** A yes or no for whether the object at `path`, which may be left out (or null), is given: its own fields follow. */
  presence?: true
}

/** One elicitation request: the form, and where each answer goes. */
export interface FormRound {
  requestedSchema: { type: 'object', properties: Record<string, Record<string, unknown>>, required?: string[] }
  fields: FormField[]
  /** Values the form does not ask for, since the schema allows one only (a `const`). */
  fixed?: { path: string[], value: unknown }[]
}

/** A schema as forms: one round, or, for a union of objects, its tag's round and a round per variant. */
export interface ElicitationForm {
  first: FormRound
  /** For a union: the tag's key and, by its value, the round asking the chosen variant's fields. */
  union?: { key: string, path: string[], rounds: Record<string, FormRound> }
}

/** A schema that no form can ask: names the JSON path and why. */
export class FormError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path || '/'}: ${reason}`)
    this.name = 'FormError'
  }
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])
const STRING_KEYS = ['minLength', 'maxLength', 'default'] as const
const NUMBER_KEYS = ['minimum', 'maximum', 'default'] as const

/** `sendAt` → `Send at`, `media_url` → `Media url`: a field's title when its schema has none. */
function titleOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const escape = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1')

class FormBuilder {
  private readonly seen = new Set<unknown>()

  constructor(private readonly root: unknown) {}

  /** The schema at a node, `$ref`s followed (a cycle is an error: a form has no depth to recurse into). */
  resolve(schema: unknown, pointer: string): JsonSchemaObject {
    let node = schema
    for (let hops = 0; isSchemaObject(node) && typeof node.$ref === 'string'; hops++) {
      if (hops > 32 || !node.$ref.startsWith('#'))
        throw new FormError(pointer, `a $ref a form cannot follow (${node.$ref})`)
      node = resolvePointer(this.root, node.$ref.slice(1))
    }
    if (node === true || (isSchemaObject(node) && Object.keys(node).length === 0))
      throw new FormError(pointer, 'any value: a form asks for a string, a number, a boolean or a choice')
    if (!isSchemaObject(node))
      throw new FormError(pointer, 'not a schema a form can ask')
    return node
  }

  /** The schema without a `null` branch (`T | null` is asked as an optional `T`), and whether it had one. */
  nonNull(schema: JsonSchemaObject, pointer: string): { schema: JsonSchemaObject, nullable: boolean } {
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
    if (branches) {
      const resolved = branches.map((branch, i) => this.resolve(branch, `${pointer}/anyOf/${i}`))
      const others = resolved.filter(branch => branch.type !== 'null')
      if (others.length === 1 && others.length < resolved.length)
        return { schema: others[0]!, nullable: true }
    }
    if (Array.isArray(schema.type) && schema.type.includes('null') && schema.type.length === 2)
      return { schema: { ...schema, type: schema.type.find(type => type !== 'null') }, nullable: true }
    return { schema, nullable: false }
  }

  /** An object's fields into `round`, under `path`; `required` when the object itself must be there. */
  object(schema: JsonSchemaObject, pointer: string, path: string[], titles: string[], round: FormRound, required: boolean, skip?: string): void {
    if (this.seen.has(schema))
      throw new FormError(pointer, 'a recursive object: a form cannot nest without end')
    this.seen.add(schema)
    if (isSchemaObject(schema.additionalProperties) || (schema.properties === undefined && schema.additionalProperties !== false && schema.patternProperties !== undefined))
      throw new FormError(pointer, 'a record (keys of the user\'s choosing): a form has fixed fields')
    const properties = isSchemaObject(schema.properties) ? schema.properties as Record<string, unknown> : {}
    const requiredKeys = Array.isArray(schema.required) ? schema.required as string[] : []
    for (const [key, child] of Object.entries(properties)) {
      if (key === skip)
        continue
      const at = `${pointer}/properties/${escape(key)}`
      const { schema: resolved, nullable } = this.nonNull(this.resolve(child, at), at)
      const keyRequired = required && requiredKeys.includes(key)
      this.field(resolved, at, [...path, key], [...titles, typeof resolved.title === 'string' ? resolved.title : titleOf(key)], round, keyRequired && !nullable, keyRequired && nullable)
    }
    this.seen.delete(schema)
  }

  /**
   * One property: a primitive field, a fixed value, or a nested object's fields. `emptyAsNull`: the
   * key must be there but takes `null`, which a form cannot say: left empty, it is `null`.
   */
  field(schema: JsonSchemaObject, pointer: string, path: string[], titles: string[], round: FormRound, required: boolean, emptyAsNull = false): void {
    const key = path.join('.')
    const described = { title: titles.join(' › '), ...(typeof schema.description === 'string' ? { description: schema.description } : {}) }
    const add = (property: Record<string, unknown>, presence = false): void => {
      round.requestedSchema.properties[key] = { ...property, ...described }
      round.fields.push({ key, path, ...(emptyAsNull ? { emptyAs: null } : {}), ...(presence ? { presence: true } : {}) })
      if (required)
        (round.requestedSchema.required ??= []).push(key)
    }
    if (Array.isArray(schema.type))
      throw new FormError(pointer, 'a union inside the form: only the top-level schema may be a union (asked in rounds)')
    if (schema.const !== undefined) {
      if (required) {
        (round.fixed ??= []).push({ path, value: schema.const })
        return
      }
      // One value or none (or null): a choice of one, which the user may leave empty.
      if (typeof schema.const !== 'string')
        throw new FormError(pointer, 'an optional or nullable constant that is not a string: a form offers strings')
      add({ type: 'string', enum: [schema.const] })
      return
    }
    if (Array.isArray(schema.enum)) {
      if (!schema.enum.every(value => typeof value === 'string'))
        throw new FormError(pointer, 'a choice of values that are not all strings: a form offers strings')
      add({ type: 'string', enum: schema.enum, ...(typeof schema.default === 'string' ? { default: schema.default } : {}) })
      return
    }
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
    if (branches) {
      const resolved = branches.map((branch, i) => this.resolve(branch, `${pointer}/anyOf/${i}`))
      if (!resolved.every(branch => typeof branch.const === 'string'))
        throw new FormError(pointer, 'a union inside the form: only the top-level schema may be a union (asked in rounds)')
      add({ type: 'string', oneOf: resolved.map(branch => ({ const: branch.const, title: typeof branch.title === 'string' ? branch.title : branch.const })) })
      return
    }
    switch (schema.type) {
      case 'string':
        add({ type: 'string', ...pick(schema, STRING_KEYS), ...(typeof schema.format === 'string' && FORMATS.has(schema.format) ? { format: schema.format } : {}) })
        return
      case 'number':
      case 'integer':
        add({ type: schema.type, ...pick(schema, NUMBER_KEYS) })
        return
      case 'boolean':
        add({ type: 'boolean', ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}) })
        return
      case 'object':
        // A required object is there even when the user answers none of its (optional) fields; one
        // that may be left out (or null) is asked for with a yes or no first, so `{}` can be said too.
        if (required)
          (round.fixed ??= []).push({ path, value: {} })
        else
          add({ type: 'boolean' }, true)
        this.object(schema, pointer, path, titles, round, required)
        return
      case 'array': {
        const items = isSchemaObject(schema.items) ? this.resolve(schema.items, `${pointer}/items`) : undefined
        if (items && Array.isArray(items.enum) && items.enum.every(value => typeof value === 'string')) {
          add({ type: 'array', items: { type: 'string', enum: items.enum }, ...pick(schema, ['minItems', 'maxItems'] as const) })
          return
        }
        throw new FormError(pointer, 'a list of anything but a choice of strings (a list of objects, of numbers…): a form asks for one value per field, or several of a choice')
      }
      default:
        throw new FormError(pointer, `a value of ${schema.type === undefined ? 'no one type' : `type ${JSON.stringify(schema.type)}`}: a form asks for a string, a number, a boolean or a choice`)
    }
  }
}

function pick(schema: JsonSchemaObject, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter(key => typeof schema[key] === 'number' || (key === 'default' && schema[key] !== undefined)).map(key => [key, schema[key]]))
}

const emptyRound = (): FormRound => ({ requestedSchema: { type: 'object', properties: {} }, fields: [] })

/**
 * A schema (zod or any supported library, or JSON Schema as data) as elicitation forms. Its root is
 * an object, or a union of objects that share a tag (each variant's tag a distinct string `const`).
 * Throws a `FormError` naming the JSON path of what no form can ask.
 */
export function compileForm(schema: unknown, converters?: SchemaConverters): ElicitationForm {
  const original = toOriginalSchema(schema, 'input', converters).schema
  const builder = new FormBuilder(original)
  const root = builder.resolve(original, '')
  const branches = Array.isArray(root.oneOf) ? root.oneOf : Array.isArray(root.anyOf) ? root.anyOf : undefined
  if (!branches) {
    if (root.type !== 'object')
      throw new FormError('', 'a form asks for an object\'s fields: the schema\'s root is no object')
    const first = emptyRound()
    builder.object(root, '', [], [], first, true)
    return { first }
  }
  const variants = branches.map((branch, i) => builder.resolve(branch, `/oneOf/${i}`))
  const tags = Object.keys(isSchemaObject(variants[0]!.properties) ? variants[0]!.properties : {})
  const tagOf = (variant: JsonSchemaObject, key: string): unknown => {
    const property = isSchemaObject(variant.properties) ? builder.resolve((variant.properties as Record<string, unknown>)[key] ?? {}, '') : undefined
    return property?.const ?? (Array.isArray(property?.enum) && property.enum.length === 1 ? property.enum[0] : undefined)
  }
  const tag = tags.find((key) => {
    try {
      const values = variants.map(variant => tagOf(variant, key))
      return values.every(value => typeof value === 'string') && new Set(values).size === values.length
    }
    catch {
      return false
    }
  })
  if (tag === undefined)
    throw new FormError('', 'a union whose variants share no tag (a key each sets to its own string): a form asks which one first, by its tag')
  const first = emptyRound()
  first.requestedSchema.properties[tag] = {
    type: 'string',
    title: typeof root.title === 'string' ? root.title : titleOf(tag),
    oneOf: variants.map(variant => ({ const: tagOf(variant, tag), title: typeof variant.title === 'string' ? variant.title : typeof variant.description === 'string' ? variant.description : tagOf(variant, tag) })),
  }
  first.requestedSchema.required = [tag]
  first.fields.push({ key: tag, path: [tag] })
  const rounds: Record<string, FormRound> = {}
  variants.forEach((variant, i) => {
    const round = emptyRound()
    builder.object(variant, `/oneOf/${i}`, [], [], round, true, tag)
    rounds[tagOf(variant, tag) as string] = round
  })
  return { first, union: { key: tag, path: [tag], rounds } }
}
