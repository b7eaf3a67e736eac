import type { JsonSchema, SchemaConverters } from '@flatmcp/core'
import { toOriginalSchema } from '@flatmcp/core'
import { createRandom, sampleValue } from './sample'
import { clientCheck } from './validators'

// Parsed JSON, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value)

interface Validating { '~standard': { validate: (value: unknown) => { issues?: unknown } | Promise<{ issues?: unknown }> } }

async function accepted(schema: unknown, value: unknown): Promise<boolean> {
  const result = await (schema as Validating)['~standard'].validate(value)
  return !result.issues
}

function keysOf(schema: JsonSchema | undefined): string[] {
  return isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : []
}

function pick(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key)))
}

/** Smaller values that still break the property: fewer keys, shorter arrays and strings, plainer numbers. */
function* shrinkCandidates(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      yield [...value.slice(0, i), ...value.slice(i + 1)]
    for (let i = 0; i < value.length; i++) {
      for (const smaller of shrinkCandidates(value[i]))
        yield value.map((item, n) => n === i ? smaller : item)
    }
  }
  else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const { [key]: _dropped, ...rest } = value
      yield rest
    }
    for (const key of Object.keys(value)) {
      for (const smaller of shrinkCandidates(value[key]))
        yield { ...value, [key]: smaller }
    }
  }
  else if (typeof value === 'string' && value.length > 0) {
    yield ''
    yield value.slice(0, Math.ceil(value.length / 2))
  }
  else if (typeof value === 'number' && value !== 0) {
    yield 0
    yield Math.trunc(value)
  }
}

async function minimise(value: unknown, stillFails: (candidate: unknown) => Promise<boolean>): Promise<unknown> {
  let current = value
  for (let round = 0; round < 200; round++) {
    let smaller: unknown
    for (const candidate of shrinkCandidates(current)) {
      if (await stillFails(candidate)) {
        smaller = candidate
        break
      }
    }
    if (smaller === undefined)
      return current
    current = smaller
  }
  return current
}

/** A tool's schemas in the order its arguments merge them: shared fields, params, input (each present). */
export function toolParts(definition: { params?: unknown, input?: unknown }, extendSchema: unknown): unknown[] {
  return [extendSchema, definition.params, definition.input].filter(part => part !== undefined)
}

export interface SupersetOptions {
  samples: number
  seed: number
  /** Also generate beyond the JSON (its constraints relaxed, edge strings and numbers): finds what the JSON does not show. */
  relax?: boolean
  /** Schema libraries' converters (see `toOriginalSchema`). */
  converters?: SchemaConverters
}

export interface SupersetResult {
  /** Values the original accepted, each checked against the advertised schema. */
  checked: number
  /** What the sampler could not aim for. */
  unmet: string[]
  /** The first value the original accepts and a client validator rejects, minimised. */
  counterexample?: { value: unknown, rejectedBy: string[] }
}

/**
 * The superset invariant on samples: values the original schemas (`parts`: a tool's shared fields,
 * params and input, each owning its keys) accept must pass `advertised` under every validator a
 * client runs. Seeded, so a failure reproduces.
 */
export async function checkSuperset(advertised: JsonSchema, parts: unknown[], options: SupersetOptions): Promise<SupersetResult> {
  const rejectedBy = clientCheck(advertised === true ? {} : advertised === false ? { not: {} } : advertised)
  const withJson = parts.map(schema => ({ schema, json: toOriginalSchema(schema, 'input', options.converters).schema }))
  const partKeys = withJson.map(part => keysOf(part.json))
  const valid = async (value: unknown): Promise<boolean> => {
    if (!isObject(value))
      return false
    for (const [n, part] of withJson.entries()) {
      const own = n === withJson.length - 1 ? Object.fromEntries(Object.entries(value).filter(([key]) => !partKeys.slice(0, -1).flat().includes(key))) : pick(value, partKeys[n]!)
      if (!await accepted(part.schema, own))
        return false
    }
    return true
  }
  const random = createRandom(options.seed)
  const unmet = new Set<string>()
  let checked = 0
  for (let i = 0; i < options.samples; i++) {
    const value = Object.assign({}, ...withJson.map(part => sampleValue(part.json, random, { unmet, relax: options.relax }))) as Record<string, unknown>
    const plain = JSON.parse(JSON.stringify(value)) as unknown
    if (!await valid(plain))
      continue
    checked++
    if (rejectedBy(plain).length === 0)
      continue
    const small = await minimise(plain, async candidate => await valid(candidate) && rejectedBy(candidate).length > 0)
    return { checked, unmet: [...unmet], counterexample: { value: small, rejectedBy: rejectedBy(small) } }
  }
  return { checked, unmet: [...unmet] }
}
