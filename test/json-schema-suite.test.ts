// Judged by suites other people wrote (read from ../shared/suites, data only, never copied here): the
// official JSON-Schema-Test-Suite (drafts 2020-12 and 7) and FastMCP's schema-utility cases, whose
// parser is a validator (the json-schema preset). Each schema is a tool's one key, `v`, of a closed root; every valid datum (the
// suite's own, or sampled from the schema and accepted by the validators) must pass each profile's
// flat schema under the four validators: as it is where the profile sends values as they are, and
// where it advertises another form (a strict profile, gemini), as that form, which must map back to
// the datum itself. `.ci/run` requires the suites (FLATMCP_REQUIRE_SUITES=1); elsewhere their
// absence skips, and says so.
import type { CompiledTool, PresetName } from '@flatmcp/core'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { compileTool, modelAnswer } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { createRandom, sampleValue } from '../packages/unplugin/src/core/check/sample'
import { ROOT } from './support/client'
import { inverse } from './support/round-trip'
import { rejectedBy } from './support/validators'

const SUITES = process.env.FLATMCP_SUITES ?? join(ROOT, '..', 'shared', 'suites')
const present = existsSync(join(SUITES, 'jsts'))
if (!present && process.env.FLATMCP_REQUIRE_SUITES === '1')
  throw new Error(`the suites other people wrote are required here (FLATMCP_REQUIRE_SUITES=1), and ${SUITES} holds none: set FLATMCP_SUITES to their folder`)
if (!present)
  console.warn(`json-schema-suite: skipped, no suites at ${SUITES} (set FLATMCP_SUITES; .ci/run requires them)`)

const PROFILES = ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] as const

/** A schema as tool `t`'s one key `v`, its local references moved with it; undefined for what needs a document elsewhere or an anchor. */
function asTool(schema: unknown, draft7: boolean): Record<string, unknown> | undefined {
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
function unsoundIn(compiled: CompiledTool, profile: typeof PROFILES[number], datum: unknown): string | undefined {
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
  if (refused.length > 0)
    return `its form ${JSON.stringify(written)} refused by ${refused.join(', ')}`
  const back = inverse(compiled, written, candidate => isDeepStrictEqual(candidate, value))
  return isDeepStrictEqual(back, value) ? undefined : `its form ${JSON.stringify(written)} maps back to ${JSON.stringify(back)}`
}

/** Every datum's problems in every profile, as lines (`where: datum: problem`). */
function unsoundData(cases: { where: string, tool: Record<string, unknown>, preset: PresetName, data: unknown[] }[]): Record<string, string[]> {
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

const none = Object.fromEntries(PROFILES.map(profile => [profile, []]))

describe.skipIf(!present)('the official JSON-Schema-Test-Suite', () => {
  it.each(['draft2020-12', 'draft7'])('%s: every valid datum has a form in every profile that passes its flat schema and maps back to itself', (draft) => {
    const cases = []
    let data = 0
    for (const file of readdirSync(join(SUITES, 'jsts', draft)).filter(name => name.endsWith('.json'))) {
      for (const group of JSON.parse(readFileSync(join(SUITES, 'jsts', draft, file), 'utf8')) as { description: string, schema: unknown, tests: { description: string, data: unknown, valid: boolean }[] }[]) {
        const tool = asTool(group.schema, draft === 'draft7')
        // A format is an annotation by default: the json-schema preset's parser is a validator that asserts it (documented).
        const valid = group.tests.filter(test => test.valid && !/only an annotation/.test(test.description)).map(test => test.data)
        if (tool && valid.length > 0) {
          cases.push({ where: `${file} "${group.description}"`, tool, preset: 'json-schema' as const, data: valid })
          data += valid.length
        }
      }
    }
    expect(data).toBeGreaterThan(500)
    expect(unsoundData(cases)).toEqual(none)
  })
})

/**
 * Values every validator accepts under a schema: the valid data of a suite that has none of its own.
 * Sampled from the schema itself and from its flat portable form, a superset whose samples the
 * original then sorts (a sampler rarely meets an `allOf` of `oneOf`s by itself).
 */
function sampled(tool: Record<string, unknown>, preset: PresetName, seed: number, count: number): unknown[] {
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

describe.skipIf(!present)('FastMCP\'s schema-utility cases', () => {
  it('FastMCP\'s inputs: every sampled valid value passes every profile', () => {
    const { cases } = JSON.parse(readFileSync(join(SUITES, 'fastmcp', 'test_json_schema.cases.json'), 'utf8')) as { cases: { id: string, input: unknown }[] }
    const tools = cases.map(({ id, input }, i) => ({ where: id, tool: asTool(input, false), seed: i + 1 })).filter(c => c.tool !== undefined) as { where: string, tool: Record<string, unknown>, seed: number }[]
    const judged = tools.map(({ where, tool, seed }) => ({ where, tool, preset: 'json-schema' as const, data: sampled(tool, 'json-schema', seed, 120) }))
    expect(judged.reduce((sum, c) => sum + c.data.length, 0)).toBeGreaterThan(500)
    expect(unsoundData(judged)).toEqual(none)
  })
})
