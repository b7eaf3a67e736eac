// The upstream's own schema as a chooser: it picks which reading of a call goes upstream (the first it
// accepts; else the first), never refuses one, for the upstream's parser decides. It reads the schema
// without the keywords a validator may spend more than linear time on, so a hostile pattern cannot
// meet a client's long string, and declines a value a recursive union would spend too long on.
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool } from '../../artifact/format'
import type { ChooserSchema } from '../../tool/standard-schema'
import type { ToolDefinition } from '../../tool/define-tool'
import { attachCompiled } from '../../precomputed/registry'
import { as2020 } from './chooser-drafts'
import { boundedTest } from './chooser-work'
import { defineOwn, isObject } from '../../util/object'

/** Builds a test of a value from a JSON Schema (ajv, `@cfworker/json-schema`…). */
export type Validator = (schema: object) => (value: unknown) => boolean

/**
 * Keywords a validator may spend more than linear time on, or that only narrow a string: a chooser
 * of readings does without them (it accepts more, so it picks the first reading more often; the
 * upstream's parser decides either way). A hostile `pattern` cannot then meet a client's long string.
 */
const COSTLY = new Set(['pattern', 'patternProperties', 'propertyNames', 'format', 'uniqueItems', '$schema', '$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$comment'])

/**
 * A `$ref` outside the schema (a network URI, another file): no validator compiles it without fetching
 * it, which MCP 2026-07-28 forbids a server, and a chooser that cannot be compiled chooses nothing.
 */
const outsideRef = (key: string, value: unknown): boolean => key === '$ref' && typeof value === 'string' && !value.startsWith('#')

/** Keywords whose value maps names to subschemas (or to lists of names): their keys stay. */
const NAMED = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies', 'dependentRequired'])

/**
 * The upstream's schema as a chooser reads it: costly keywords cut, a `$ref` outside it read as any
 * value, `additionalProperties` beside a cut `patternProperties` opened, and older drafts' forms as
 * 2020-12 has them (`chooser-drafts.ts`).
 */
export function chooserSchema(schema: unknown): unknown {
  if (Array.isArray(schema))
    return schema.map(chooserSchema)
  if (!isObject(schema))
    return schema
  const node = as2020(schema)
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (COSTLY.has(key) || outsideRef(key, value) || (key === 'additionalProperties' && node.patternProperties !== undefined))
      continue
    // `properties`, `$defs` and the like hold names, not keywords: their keys stay (as own keys, `__proto__` too).
    const kept = NAMED.has(key)
      ? (isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, chooserSchema(child)])) : value)
      : key === 'enum' || key === 'const' || key === 'required' || key === 'default' || key === 'examples' ? value : chooserSchema(value)
    defineOwn(out, key, kept)
  }
  return out
}

/**
 * An upstream schema as a Standard Schema that names its parser and only chooses among readings: its
 * test is made once per list version, on the tool's first call, before its readings are checked
 * (`prepare`, see `readArgs`); one that cannot be made or run chooses nothing.
 */
export function upstreamInput(schema: object, preset: Compiler.PresetName, validator: Validator | undefined): ChooserSchema {
  let accepts: ((value: unknown) => boolean | 'unchecked') | null | undefined
  const prepare = (): void => {
    // Made once: a schema the validator refuses is not compiled again on every call.
    if (accepts === undefined)
      accepts = validator ? safely(() => boundedTest(validator, chooserSchema(schema) as object)) ?? null : null
  }
  // A reading too costly to check is not chosen: where none is, the first goes (see `readArgs`).
  const test = (value: unknown): boolean => {
    prepare()
    const verdict = accepts === null || safely(() => accepts!(value))
    return verdict !== false && verdict !== 'unchecked'
  }
  return {
    '~standard': {
      version: 1,
      vendor: 'json-schema',
      validate: (value: unknown) => test(value) ? { value } : { issues: [{ message: 'the upstream\'s schema rejects this reading' }] },
      jsonSchema: { input: () => schema, output: () => schema },
    },
    '~flatmcp': { preset, chooser: true, prepare },
  }
}

/** A proxied tool: its compiled (or snapshot) data served, its calls chosen by the upstream's schema, then `handler`. */
export function proxiedDefinition(tool: ProxiedTool, preset: Compiler.PresetName, validator: Validator | undefined, handler: ToolDefinition['handler']): ToolDefinition {
  return attachCompiled({ name: tool.name, input: upstreamInput(tool.upstream.tool.inputSchema, preset, validator) as ToolDefinition['input'], handler }, tool.precomputed)
}

/** What a call that throws gives: nothing. */
export function safely<T>(make: () => T): T | undefined {
  try {
    return make()
  }
  catch {
    return undefined
  }
}
