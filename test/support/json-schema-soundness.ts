// Soundness of a JSON Schema in every profile, as the suites and the keyword property test judge it:
// the schema is a tool's one key `v` of a closed root, its parser a validator (the json-schema
// preset), and every valid datum must pass each profile's flat schema under the four validators: as
// it is where the profile sends values as they are, and where it advertises another form (a strict
// profile, gemini), as that form, which must map back to the datum itself.
import type { CompiledTool, PresetName } from '@flatmcp/core'
import { isDeepStrictEqual } from 'node:util'
import { compileTool, modelAnswer } from '@flatmcp/core'
import { createRandom, sampleValue } from '../../packages/unplugin/src/core/check/sample'
import { inverse, omitsInheritedKey } from './round-trip'
import { rejectedBy } from './validators'

export const PROFILES = ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] as const

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

/** What is wrong with `datum` in `profile`: its advertised form refused, or mapped back to something else; undefined when nothing is. */
export function unsoundIn(compiled: CompiledTool, profile: typeof PROFILES[number], datum: unknown): string | undefined {
  const value = { v: datum }
  if (compiled.strict !== true && profile !== 'gemini') {
    const refused = rejectedBy(compiled.inputSchema, value)
    return refused.length > 0 ? `refused by ${refused.join(', ')}` : undefined
  }
  let written: unknown
  try {
    written = modelAnswer(compiled.inputSchema, compiled.decode, value, { nullsForMissing: profile === 'openai-strict' && compiled.strict === true })
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
  const back = inverse(compiled, written, candidate => isDeepStrictEqual(candidate, value))
  return isDeepStrictEqual(back, value) ? undefined : `its form ${JSON.stringify(written)} maps back to ${JSON.stringify(back)}`
}

/** Every datum's problems in every profile, as lines (`where: datum: problem`). */
export function unsoundData(cases: { where: string, tool: Record<string, unknown>, preset: PresetName, data: unknown[] }[]): Record<string, string[]> {
  const found: Record<string, string[]> = Object.fromEntries(PROFILES.map(profile => [profile, []]))
  for (const { where, tool, preset, data } of cases) {
    for (const profile of PROFILES) {
      const compiled = compileTool({ name: 't', input: tool }, { profile, preset })
      for (const datum of data) {
        const problem = unsoundIn(compiled, profile, datum)
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
  return Array.from({ length: count }, (_, i) => sampleValue(i % 2 === 0 ? tool : flat, random, { relax: i % 4 >= 2 }) as { v: unknown })
    .filter(value => rejectedBy(judge, value).length === 0)
    .map(value => value.v)
}

