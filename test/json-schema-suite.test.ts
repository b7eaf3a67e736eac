// Judged by suites other people wrote (read from ../shared/suites, data only, never copied here): the
// official JSON-Schema-Test-Suite (drafts 2020-12 and 7), schemars' expected outputs (read as serde
// reads them, below) and FastMCP's schema-utility cases, whose
// parser is a validator (the json-schema preset), as support/json-schema-soundness.ts judges a
// schema: every valid datum (the suite's own, or sampled and accepted by the validators) has a form
// in every profile that passes its flat schema and maps back to itself. `.ci/run` requires the suites (FLATMCP_REQUIRE_SUITES=1); elsewhere their
// absence skips, and says so.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { asTool, PROFILES, sampled, serdeReading, unsoundData } from './support/json-schema-soundness'
import { keywordPrecision } from './support/keyword-precision'

const SUITES = process.env.FLATMCP_SUITES ?? join(ROOT, '..', 'shared', 'suites')
const present = existsSync(join(SUITES, 'jsts'))
if (!present && process.env.FLATMCP_REQUIRE_SUITES === '1')
  throw new Error(`the suites other people wrote are required here (FLATMCP_REQUIRE_SUITES=1), and ${SUITES} holds none: set FLATMCP_SUITES to their folder`)
if (!present)
  console.warn(`json-schema-suite: skipped, no suites at ${SUITES} (set FLATMCP_SUITES; .ci/run requires them)`)

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

describe.skipIf(!present)('the official suite\'s formats read as annotations', () => {
  // A validator reads a format as an annotation by default: an "invalid email" is valid. The strict
  // profiles hold a model to a format they list, so under the json-schema preset they list none.
  it.each(['draft2020-12'])('%s: every datum valid only because its format is an annotation has a form in both strict profiles', (draft) => {
    const cases = []
    for (const file of readdirSync(join(SUITES, 'jsts', draft)).filter(name => name.endsWith('.json'))) {
      for (const group of JSON.parse(readFileSync(join(SUITES, 'jsts', draft, file), 'utf8')) as { description: string, schema: unknown, tests: { description: string, data: unknown, valid: boolean }[] }[]) {
        // Typed as the strings they are (the suite's format schemas take any kind): a place of any kind is JSON text, whose format no validator reads.
        const tool = asTool({ ...group.schema as object, type: 'string' }, false)
        const annotated = group.tests.filter(test => test.valid && /only an annotation/.test(test.description) && typeof test.data === 'string').map(test => test.data)
        if (tool && annotated.length > 0)
          cases.push({ where: `${file} "${group.description}"`, tool, preset: 'json-schema' as const, data: annotated })
      }
    }
    expect(cases.length).toBeGreaterThan(8)
    const found = unsoundData(cases)
    expect({ 'openai-strict': found['openai-strict'], 'anthropic-strict': found['anthropic-strict'] }).toEqual({ 'openai-strict': [], 'anthropic-strict': [] })
  })
})

describe.skipIf(!present)('precision per keyword on the official suite', () => {
  // Where portable says a keyword, it keeps out what the original keeps out, but for two shapes it
  // cannot say: a tuple's positions (one `items` for all), and the schema of a key every object
  // inherits (`__proto__`, `toString`: untyped, or validators reading the inherited member refuse a
  // call that leaves the key out). Strict targets say less (a place they cannot close is JSON text).
  const CANNOT_SAY = new Set(['items', 'properties'])

  it('portable keeps ≥ 0.95 of the original\'s precision on every keyword it carries, but the two shapes it cannot say', () => {
    const rows = keywordPrecision(SUITES)!
    expect(rows.length).toBeGreaterThan(30)
    const below = rows.filter(row => row.carried.portable! > 0 && row.keptCarried.portable! < row.carried.portable! * 0.95).map(row => row.keyword)
    expect(below.filter(keyword => !CANNOT_SAY.has(keyword))).toEqual([])
    // Keywords every target takes as they are: each strict profile keeps out all it carries there.
    for (const keyword of ['enum', 'type']) {
      const row = rows.find(r => r.keyword === keyword)!
      for (const profile of ['openai-strict', 'gemini'] as const)
        expect(row.keptCarried[profile], `${keyword} in ${profile}`).toBe(row.carried[profile])
    }
  })
})

describe.skipIf(!present)('FastMCP\'s schema-utility cases', () => {
  it('FastMCP\'s inputs: every sampled valid value passes every profile', () => {
    const { cases } = JSON.parse(readFileSync(join(SUITES, 'fastmcp', 'test_json_schema.cases.json'), 'utf8')) as { cases: { id: string, input: unknown }[] }
    const tools = cases.map(({ id, input }, i) => ({ where: id, tool: asTool(input, false), seed: i + 1 })).filter(c => c.tool !== undefined) as { where: string, tool: Record<string, unknown>, seed: number }[]
    const judged = tools.map(({ where, tool, seed }) => ({ where, tool, preset: 'json-schema' as const, data: sampled(tool, 'json-schema', seed, 120) }))
    expect(judged.reduce((sum, c) => sum + c.data.length, 0)).toBeGreaterThan(500)
    expect(unsoundData(judged)).toEqual(none)
  })
})

describe.skipIf(!present)('schemars\' expected outputs', () => {
  // Rust's schemas, read with the serde preset as a proxy in front of a Rust server reads them. The
  // parser is serde: two data it reads alike (an unknown key dropped, an Option's null left out) are
  // one argument, so a datum passes where it, or what serde reads of it, has a form that maps back
  // to what serde reads.
  it('every sampled valid value of every schemars schema passes every profile, as serde reads it', () => {
    const dir = join(SUITES, 'generated', 'schemars')
    const judged = readdirSync(dir).filter(name => name.endsWith('.json')).map((file, i) => {
      const tool = asTool(JSON.parse(readFileSync(join(dir, file), 'utf8')), false)!
      const v = (tool.properties as Record<string, Record<string, unknown>>).v!
      return { where: file, tool, preset: 'serde' as const, data: sampled(tool, 'serde', i + 1, 60), reading: serdeReading(v, v) }
    })
    expect(judged.length).toBeGreaterThan(20)
    expect(judged.reduce((sum, c) => sum + c.data.length, 0)).toBeGreaterThan(800)
    expect(unsoundData(judged)).toEqual(none)
  })
})
