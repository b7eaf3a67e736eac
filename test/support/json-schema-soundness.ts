// Soundness of a JSON Schema in every profile, as the suites and the keyword property test judge it:
// the schema is a tool's one key `v` of a closed root, its parser a validator (the json-schema
// preset), and every valid datum must pass each profile's flat schema under the four validators: as
// it is where the profile sends values as they are, and where it advertises another form (a strict
// profile, gemini), as that form, which must map back to the datum itself.
import type { CompiledTool, PresetName } from '@flatmcp/core'
import { isDeepStrictEqual } from 'node:util'
import { compileTool, modelAnswer, PROFILE_NAMES, resolveTarget } from '@flatmcp/core'
import { createRandom, sampleValue } from '../../packages/unplugin/src/core/check/sample'
import { inverse, omitsInheritedKey } from './round-trip'
import { rejectedBy } from './validators'

/** The profiles that promise a flat schema: `minimal` leaves all but unions as they came. */
export const PROFILES = PROFILE_NAMES.filter(name => name !== 'minimal')

/** A schema as tool `t`'s one key `v`, its local references moved with it; undefined for what needs a document elsewhere or an anchor. */
export function asTool(schema: unknown, draft7: boolean): Record<string, unknown> | undefined {
  if (/"\$(?:id|anchor|dynamicRef|dynamicAnchor|recursiveRef)"|"\$ref":"(?!#)/.test(JSON.stringify(schema)))
    return undefined
  const moved = (node: unknown): unknown => {
    if (Array.isArray(node))
      return node.map(moved)
    if (typeof node !== 'object' || node === null)
      return node
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, key === '$ref' && typeof child === 'string' ? `#/properties/v${child.slice(1)}` : key === 'enum' || key === 'const' ? child : moved(child)]))
  }
  const inner = typeof schema === 'object' && schema !== null ? Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')) : schema
  return { ...(draft7 ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}), type: 'object', properties: { v: moved(inner) }, required: ['v'], additionalProperties: false }
}

/**
 * How a parser reads a datum, where it is not what a validator keeps: serde's reading of a schemars
 * schema drops keys and nulls (`serdeReading`). Two data it reads alike are one argument to the tool.
 */
export type Reading = (datum: unknown) => unknown

/**
 * What is wrong with `datum` in `profile`: no form of it (or, under a parser's `reading`, of a datum
 * it reads alike) passes the advertised schema and maps back to what the parser reads; undefined
 * when one does.
 */
export function unsoundIn(compiled: CompiledTool, profile: typeof PROFILES[number], datum: unknown, reading?: Reading): string | undefined {
  if (!reading)
    return formProblem(compiled, profile, datum, isDeepStrictEqual)
  const read = reading(datum)
  const alike = (a: unknown, b: unknown): boolean => isDeepStrictEqual(reading((a as { v: unknown }).v), reading((b as { v: unknown }).v))
  const first = formProblem(compiled, profile, datum, alike)
  return first === undefined || isDeepStrictEqual(read, datum) || formProblem(compiled, profile, read, alike) === undefined ? undefined : first
}

function formProblem(compiled: CompiledTool, profile: typeof PROFILES[number], datum: unknown, same: (a: unknown, b: unknown) => boolean): string | undefined {
  const value = { v: datum }
  if (compiled.strict !== true && profile !== 'gemini') {
    const refused = rejectedBy(compiled.inputSchema, value)
    return refused.length > 0 ? `refused by ${refused.join(', ')}` : undefined
  }
  let written: unknown
  try {
    written = modelAnswer(compiled.inputSchema, compiled.decode, value, { nullsForMissing: resolveTarget(profile).profile?.nullsForMissing === true && compiled.strict === true })
  }
  catch (error) {
    return `no form: ${(error as Error).message}`
  }
  // gemini's OpenAPI `nullable` is read by ajv and not by @cfworker/json-schema (documented).
  const refused = rejectedBy(compiled.inputSchema, written).filter(name => profile !== 'gemini' || name !== '@cfworker/json-schema')
  // The documented limit: a left-out key every object inherits (`toString`) is read by ajv from the prototype.
  const inheritedRead = omitsInheritedKey(compiled.inputSchema, written) && refused.every(name => name.startsWith('ajv'))
  if (refused.length > 0 && !inheritedRead)
    return `its form ${JSON.stringify(written)} refused by ${refused.join(', ')}`
  const back = inverse(compiled, written, candidate => same(candidate, value))
  return same(back, value) ? undefined : `its form ${JSON.stringify(written)} maps back to ${JSON.stringify(back)}`
}

/** Every datum's problems in every profile, as lines (`where: datum: problem`). */
export function unsoundData(cases: { where: string, tool: Record<string, unknown>, preset: PresetName, data: unknown[], reading?: Reading }[]): Record<string, string[]> {
  const found: Record<string, string[]> = Object.fromEntries(PROFILES.map(profile => [profile, []]))
  for (const { where, tool, preset, data, reading } of cases) {
    for (const profile of PROFILES) {
      const compiled = compileTool({ name: 't', input: tool }, { profile, preset })
      for (const datum of data) {
        const problem = unsoundIn(compiled, profile, datum, reading)
        if (problem !== undefined)
          found[profile]!.push(`${where}: ${JSON.stringify(datum)}: ${problem}`)
      }
    }
  }
  return found
}

/**
 * Values every validator accepts under a schema: the valid data of a suite that has none of its own.
 * Sampled from the schema itself and from its flat portable form, a superset whose samples the
 * original then sorts (a sampler rarely meets an `allOf` of `oneOf`s by itself).
 */
export function sampled(tool: Record<string, unknown>, preset: PresetName, seed: number, count: number): unknown[] {
  const random = createRandom(seed)
  const flat = compileTool({ name: 't', input: tool }, { preset }).inputSchema
  // Judged as a 2020-12 document (the validators' own dialect); one they cannot compile (draft-04 tuples) has no valid data here.
  const { $schema: _dialect, ...judge } = tool
  try {
    rejectedBy(judge, {})
  }
  catch {
    return []
  }
  return Array.from({ length: count }, (_, i) => sampleValue(i % 2 === 0 ? tool : flat, random, { relax: i % 4 >= 2, extraKeys: preset === 'json-schema' }) as { v: unknown })
    .filter(value => rejectedBy(judge, value).length === 0)
    .map(value => value.v)
}


type Node = Record<string, unknown>
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * serde's reading of a datum under a schemars schema (`schema`: the tool's key `v`, `root`: the
 * document its `$ref`s point into): keys no matching part of the schema declares are dropped (serde
 * ignores unknown fields unless the schema closes the object), and so is an optional key's `null`
 * (an `Option` left out reads as `None`), but not a key that takes null alone, whose presence picks
 * a unit variant.
 */
export function serdeReading(schema: unknown, root: Node): Reading {
  const resolve = (node: unknown): unknown => isNode(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')
    ? resolve({ ...node.$ref.slice(2).split('/').reduce<any>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], root), ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')) })
    : node
  // One document per branch, so the validators compile each once.
  const documents = new WeakMap<Node, Node>()
  const accepts = (node: unknown, value: unknown): boolean => {
    const branch = isNode(node) ? node : {}
    const document = documents.get(branch) ?? { ...branch, $defs: root.$defs, definitions: root.definitions }
    documents.set(branch, document)
    try {
      return rejectedBy(document, value).length === 0
    }
    catch {
      return false
    }
  }
  // The parts of a schema that apply to an object: itself, its allOf, and the first branch of each union that takes the value.
  const parts = (node: unknown, value: unknown): Node[] => {
    const at = resolve(node)
    if (!isNode(at))
      return []
    const found = [at, ...(Array.isArray(at.allOf) ? at.allOf.flatMap(member => parts(member, value)) : [])]
    for (const keyword of ['oneOf', 'anyOf']) {
      const branch = Array.isArray(at[keyword]) ? (at[keyword] as unknown[]).find(b => accepts(resolve(b), value)) : undefined
      if (branch !== undefined)
        found.push(...parts(branch, value))
    }
    return found
  }
  const onlyNull = (node: unknown): boolean => isNode(node) && (node.type === 'null' || (Array.isArray(node.enum) && node.enum.every(v => v === null)))
  const read = (node: unknown, value: unknown): unknown => {
    const at = parts(node, value)
    if (Array.isArray(value)) {
      const prefix = at.flatMap(p => Array.isArray(p.prefixItems) ? [p.prefixItems as unknown[]] : [])[0] ?? []
      const items = at.find(p => isNode(p.items) || p.items === true)?.items
      return value.map((item, i) => read(i < prefix.length ? prefix[i] : items, item))
    }
    if (!isNode(value) || at.length === 0)
      return value
    const declared = new Map<string, unknown>()
    for (const p of at) {
      for (const [key, child] of Object.entries(isNode(p.properties) ? p.properties : {}))
        declared.set(key, child)
    }
    const required = new Set(at.flatMap(p => Array.isArray(p.required) ? p.required as string[] : []))
    const keepsOthers = at.some(p => (p.additionalProperties !== undefined && p.additionalProperties !== false) || isNode(p.patternProperties))
    const out: Node = {}
    for (const [key, item] of Object.entries(value)) {
      const child = declared.get(key)
      if (child === undefined && !keepsOthers)
        continue
      if (item === null && child !== undefined && !required.has(key) && !onlyNull(resolve(child)))
        continue
      out[key] = read(child ?? at.find(p => isNode(p.additionalProperties))?.additionalProperties, item)
    }
    return out
  }
  return datum => read(schema, datum)
}
