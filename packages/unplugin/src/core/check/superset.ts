import type { JsonSchema, PresetName, SchemaConverters } from '@flatmcp/core'
import { toOriginalSchema } from '@flatmcp/core'
import { isObject } from '../util'
import { createRandom, sampleValue } from './sample'
import { clientCheck } from './validators'


interface Validating { '~standard': { validate: (value: unknown) => { value?: unknown, issues?: unknown } | Promise<{ value?: unknown, issues?: unknown }> } }

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

export async function minimise(value: unknown, stillFails: (candidate: unknown) => Promise<boolean>): Promise<unknown> {
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
  /** The preset JSON Schema parts are read with (see `compileTool`). */
  preset?: PresetName | 'auto'
  /** How long sampling one tool may take, in milliseconds: the samples drawn by then are what is checked. Default: 30,000. */
  timeBudgetMs?: number
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
 * How a part parses a value: its library's own `validate`; for a JSON Schema given as data, the
 * client validators together, on the JSON as flatmcp read it for its parser (a tag pydantic
 * requires is required there), as the stand-in for a parser that runs elsewhere.
 */
function validatorOf(part: { schema: unknown, json: JsonSchema, nullAsAbsent: string }): (value: unknown) => { value?: unknown, issues?: unknown } | Promise<{ value?: unknown, issues?: unknown }> {
  const standard = (part.schema as Partial<Validating> | undefined)?.['~standard']
  if (typeof standard?.validate === 'function') {
    return async (value) => {
      try {
        return await standard.validate(value)
      }
      catch (error) {
        throw new ParserThrew(value, error)
      }
    }
  }
  const { $schema: _dialect, ...json } = isObject(part.json) ? part.json : {}
  const rejectedBy = clientCheck(json)
  // A parser that reads `null` like a left-out key (pydantic's `= None`) outputs the same for both.
  const output = part.nullAsAbsent === 'never' ? (value: unknown) => value : withoutNullMembers
  return (value) => {
    const issues = rejectedBy(value)
    return issues.length === 0 ? { value: output(value) } : { issues }
  }
}

function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map(withoutNullMembers)
  if (!isObject(value))
    return value
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null).map(([key, member]) => [key, withoutNullMembers(member)]))
}

/**
 * The author's schema threw while it parsed a generated value (a `refine` that throws) instead of
 * answering with issues: the check of that tool stops there, with the value, and the others go on.
 */
export class ParserThrew extends Error {
  constructor(readonly value: unknown, readonly thrown: unknown) {
    super(`the original schema threw while it parsed a generated value: ${thrown instanceof Error ? thrown.message : String(thrown)}`)
    this.name = 'ParserThrew'
  }
}

/** Values the original schemas accept, each with what they parse it to (the parts' outputs, merged). */
export interface OriginalReader {
  /** The parts with their JSON Schema, which the sampler aims at. */
  parts: { schema: unknown, json: JsonSchema }[]
  /** What the original parses `value` to, or undefined when it rejects it. */
  read: (value: unknown) => Promise<{ output: Record<string, unknown> } | undefined>
}

/** A tool's original schemas (`parts`: shared fields, params and input, each owning its keys) as one reader. */
export function originalReader(parts: unknown[], converters?: SchemaConverters, preset?: PresetName | 'auto'): OriginalReader {
  const withJson = parts.map((schema) => {
    const original = toOriginalSchema(schema, 'input', converters, { preset })
    const json = original.schema
    // Compiled once per tool: a JSON part's four client validators took most of a probe's time when compiled per sample.
    return { schema, json, validate: validatorOf({ schema, json, nullAsAbsent: original.semantics.nullAsAbsent }) }
  })
  const partKeys = withJson.map(part => keysOf(part.json))
  const read = async (value: unknown): Promise<{ output: Record<string, unknown> } | undefined> => {
    if (!isObject(value))
      return undefined
    const output: Record<string, unknown> = {}
    for (const [n, part] of withJson.entries()) {
      const own = n === withJson.length - 1 ? Object.fromEntries(Object.entries(value).filter(([key]) => !partKeys.slice(0, -1).flat().includes(key))) : pick(value, partKeys[n]!)
      const result = await part.validate(own)
      if (result.issues)
        return undefined
      Object.assign(output, (result as { value?: unknown }).value)
    }
    return { output }
  }
  return { parts: withJson, read }
}

/** `options.samples` values `draw` makes (as plain JSON), seeded, within the time a tool is given (said in `unmet` when it runs out). */
function* drawn<T>(options: SupersetOptions, unmet: Set<string>, draw: (random: ReturnType<typeof createRandom>) => T): Generator<T> {
  const random = createRandom(options.seed)
  const budget = options.timeBudgetMs ?? 30_000
  const started = Date.now()
  for (let i = 0; i < options.samples; i++) {
    if (Date.now() - started > budget) {
      unmet.add(`time: ${i} of ${options.samples} samples drawn in the ${budget / 1000} s a tool is given`)
      return
    }
    yield JSON.parse(JSON.stringify(draw(random))) as T
  }
}

/** Seeded samples of the original's JSON, as plain JSON, that the original accepts; `unmet` collects what the sampler could not aim for. */
export async function* acceptedSamples(reader: OriginalReader, options: SupersetOptions, unmet: Set<string>): AsyncGenerator<{ value: Record<string, unknown>, output: Record<string, unknown> }> {
  for (const value of drawn(options, unmet, random => Object.assign({}, ...reader.parts.map(part => sampleValue(part.json, random, { unmet, relax: options.relax }))) as Record<string, unknown>)) {
    const read = await reader.read(value)
    if (read)
      yield { value, output: read.output }
  }
}

/**
 * The superset invariant on a tool's outputs: values its original output schema accepts, sent as
 * the server sends them (`{ result: value }` where `wrap` says so), must pass the advertised output
 * schema under every validator a client runs.
 */
export async function checkOutputs(advertised: JsonSchema, output: unknown, wrap: string | undefined, options: SupersetOptions): Promise<SupersetResult> {
  const rejectedBy = clientCheck(advertised === true ? {} : advertised === false ? { not: {} } : advertised)
  const original = toOriginalSchema(output, 'output', options.converters, { preset: options.preset })
  const validate = validatorOf({ schema: output, json: original.schema, nullAsAbsent: 'never' })
  const accepts = async (value: unknown): Promise<boolean> => !(await validate(value)).issues
  const sent = (value: unknown): unknown => wrap === undefined ? value : { [wrap]: value }
  const unmet = new Set<string>()
  let checked = 0
  for (const value of drawn(options, unmet, random => sampleValue(original.schema, random, { unmet, relax: options.relax }))) {
    if (!await accepts(value))
      continue
    checked++
    if (rejectedBy(sent(value)).length === 0)
      continue
    const small = await minimise(value, async candidate => await accepts(candidate) && rejectedBy(sent(candidate)).length > 0)
    return { checked, unmet: [...unmet], counterexample: { value: sent(small), rejectedBy: rejectedBy(sent(small)) } }
  }
  return { checked, unmet: [...unmet] }
}

/**
 * The superset invariant on samples: values the original schemas (`parts`: a tool's shared fields,
 * params and input, each owning its keys) accept must pass `advertised` under every validator a
 * client runs. Seeded, so a failure reproduces.
 */
export async function checkSuperset(advertised: JsonSchema, parts: unknown[], options: SupersetOptions): Promise<SupersetResult> {
  const rejectedBy = clientCheck(advertised === true ? {} : advertised === false ? { not: {} } : advertised)
  const reader = originalReader(parts, options.converters, options.preset)
  const unmet = new Set<string>()
  let checked = 0
  for await (const { value } of acceptedSamples(reader, options, unmet)) {
    checked++
    if (rejectedBy(value).length === 0)
      continue
    const small = await minimise(value, async candidate => await reader.read(candidate) !== undefined && rejectedBy(candidate).length > 0)
    return { checked, unmet: [...unmet], counterexample: { value: small, rejectedBy: rejectedBy(small) } }
  }
  return { checked, unmet: [...unmet] }
}
