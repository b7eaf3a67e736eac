// The real parser as the judge: tools written in the shapes public Python servers use, served by the
// real official SDK (`mcp`) and the real `fastmcp`, their `tools/list` read over stdio by a real
// client. Every value pydantic accepts (each judged by a real call, whose tool echoes what pydantic
// parsed) passes the flat schema of each profile under the four validators; where a profile
// advertises another form, that form passes its schema and, mapped back by the runtime's inverse,
// gives the same output through the same real call.
import type { CompiledTool, JsonSchemaObject, PresetName, ProfileName } from '@flatmcp/core'
import type { Connected } from './support/client'
import { compileTool, detectPreset, modelAnswer, outputDifference, profileViolations, withoutSharedDefinitions } from '@flatmcp/core'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRandom, sampleValue } from '../packages/unplugin/src/core/check/sample'
import { connectStdioV2 } from './support/client'
import { PYTHON_DIR, pythonStack } from './support/python'
import { inverse } from './support/round-trip'
import { rejectedBy } from './support/validators'
import { SLOW } from './support/timeouts'

const stack = pythonStack()
const VALUES_PER_TOOL = 40

/**
 * Values where pydantic and validators part, beside the sampled ones: Rust regex's Unicode `\d`
 * and `\w` and its `.` that takes `\r`, datetimes without an offset or with a space (which
 * ajv-formats' `date-time` refuses), a tag pydantic requires though the JSON gives it a default,
 * `null` at every `= None` key, extra keys where the model allows them, recursion past the unroll.
 */
const EDGES: Record<string, Record<string, unknown>[]> = {
  search: [{ query: 'é' }, { query: 'ab_c', code: '١٢٣' }, { query: 'a', word: 'a\rb c' }, { query: 'Δ x', ratio: 0.07 }, { query: 'x', code: null, word: null }],
  draw: [{ shape: { kind: 'circle', radius: 1 } }, { shape: { radius: 1 } }, { shape: { kind: 'rect', w: 1, h: 2 }, color: 'blue', label: null, tags: null }],
  git_log: [{ repo_path: 'x', start_timestamp: null, end_timestamp: null, paths: null }, { repo_path: 'x', paths: [] }],
  put_item: [{ table: 't', item: { pk: 'a', extra: { x: [1] } }, values: { a: [1, { b: null }] }, labels: {} }, { table: 't', item: { pk: 'a' }, options: { limit: 1 } }, { table: 't', item: { pk: 'a' }, options: null, values: null, labels: null }],
  lookup: [{ target: { name: 'n' } }, { target: { id: 1, name: 'n' } }, { target: { id: 1 }, tree: { label: 'a', children: [{ label: 'b', children: [{ label: 'c', children: [{ label: 'd' }] }] }] } }, { target: { name: 'n', owner: null }, tree: null }],
  notify: [{ targets: [], message: 'm' }, { targets: [{ type: 'slack', channel: 'c', thread: null }, { type: 'email', address: 'a@b.c', cc: [] }], message: 'm' }],
  get_metric_data: [{ namespace: 'n', metric_name: 'm', dimensions: null, start_time: null }, { namespace: 'n', metric_name: 'm', dimensions: [{ name: 'a', value: 'b' }], start_time: '2024-01-01T10:00:00Z', statistic: 'Sum' }, { namespace: 'n', metric_name: 'm', start_time: '2024-01-01T10:00:00' }, { namespace: 'n', metric_name: 'm', start_time: '2024-01-01 10:00' }],
  fetch: [{ url: 'https://example.com', max_length: 999999, start_index: 0, raw: true }],
}

interface Listed { name: string, inputSchema: JsonSchemaObject }
interface Judged { value: Record<string, unknown>, output: string }

/** A profile as the corpus compiles it: a name, and `omitAbsentNulls` for portable's opt-in. */
const PROFILES: { label: string, profile: ProfileName, omitAbsentNulls?: boolean }[] = [
  { label: 'portable', profile: 'portable' },
  { label: 'minimal', profile: 'minimal' },
  { label: 'portable, omitAbsentNulls', profile: 'portable', omitAbsentNulls: true },
  { label: 'openai-strict', profile: 'openai-strict' },
  { label: 'anthropic-strict', profile: 'anthropic-strict' },
  { label: 'gemini', profile: 'gemini' },
]

/** Places in a schema a flat one must not have, by JSON pointer. */
function leftovers(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null)
    return []
  if (Array.isArray(schema))
    return schema.flatMap((item, i) => leftovers(item, `${path}/${i}`))
  const node = schema as Record<string, unknown>
  const found = ['$ref', '$defs', 'discriminator', 'title', 'oneOf'].filter(keyword => keyword in node && !path.endsWith('/properties')).map(keyword => `${path}/${keyword}`)
  if (Array.isArray(node.type) && node.type.includes('object') && node.type.includes('array'))
    found.push(`${path}/type (object and array)`)
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'enum' && key !== 'default' && key !== 'const' && key !== 'examples')
      found.push(...leftovers(child, `${path}/${key}`))
  }
  return found
}

describe.skipIf('skipped' in stack).each(['mcp', 'fastmcp'] as const)('tools served by the real Python %s', (sdk) => {
  let server: Connected
  let listed: Listed[]
  let preset: PresetName
  const judged = new Map<string, Judged[]>()

  /** What pydantic makes of arguments, through a real call: the echoed output, or undefined when it rejects them. */
  async function judge(tool: string, args: unknown): Promise<string | undefined> {
    const result = await server.client.callTool({ name: tool, arguments: args as Record<string, unknown> }) as { isError?: boolean, content: { type: string, text?: string }[] }
    return result.isError ? undefined : result.content[0]?.text
  }

  beforeAll(async () => {
    const { python } = stack as { python: string }
    server = await connectStdioV2(python, [join(PYTHON_DIR, 'serve.py'), sdk], PYTHON_DIR)
    listed = (await server.client.listTools()).tools as unknown as Listed[]
    preset = detectPreset(listed.map(tool => tool.inputSchema)).preset.name
    for (const tool of listed) {
      const random = createRandom(tool.name.length * 7919 + (sdk === 'mcp' ? 1 : 2))
      const accepted: Judged[] = []
      const values = [...EDGES[tool.name] ?? [], ...Array.from({ length: VALUES_PER_TOOL }, (_, i) => sampleValue(tool.inputSchema, random, { relax: i % 2 === 1 }) as Record<string, unknown>)]
      for (const value of values) {
        const output = await judge(tool.name, value)
        if (output !== undefined)
          accepted.push({ value, output })
      }
      judged.set(tool.name, accepted)
    }
  }, SLOW)

  afterAll(async () => {
    await server?.close()
  })

  it('lists the corpus, read as pydantic\'s (each tool alone too, where the SDK keeps pydantic\'s fingerprints)', () => {
    expect(listed.map(tool => tool.name).sort()).toEqual(['draw', 'fetch', 'get_metric_data', 'git_log', 'lookup', 'notify', 'put_item', 'search'])
    expect(preset).toBe('pydantic')
    if (sdk === 'mcp') {
      for (const tool of listed)
        expect(compileTool({ name: tool.name, input: tool.inputSchema }).preset, tool.name).toBe('pydantic')
    }
  })

  it('pydantic accepts most sampled values: the checks below see real arguments', () => {
    for (const [tool, accepted] of judged)
      expect(accepted.length, tool).toBeGreaterThan(VALUES_PER_TOOL / 4)
  })

  it.each(PROFILES)('$label: no object advertised as an array, no reference, definitions, discriminator or title left, the profile\'s own shape', ({ profile, omitAbsentNulls }) => {
    for (const tool of listed) {
      const compiled = compileTool({ name: tool.name, input: tool.inputSchema }, { profile, preset, omitAbsentNulls })
      // A strict profile's own `$defs` (each shape it would write out twice, as bare `$ref`s) are read expanded.
      if (profile !== 'minimal')
        expect(leftovers(withoutSharedDefinitions(compiled.inputSchema)), tool.name).toEqual([])
      expect(profileViolations(compiled.inputSchema, compiled.strict === false ? 'portable' : profile), tool.name).toEqual([])
      expect(JSON.stringify(compiled.inputSchema), tool.name).not.toContain('"discriminator"')
    }
  })

  it.each(PROFILES)('$label: every value pydantic accepts, or its advertised form, passes the flat schema and reaches the tool with the same output', async ({ profile, omitAbsentNulls }) => {
    let checked = 0
    let nullable = 0
    for (const tool of listed) {
      const compiled: CompiledTool = compileTool({ name: tool.name, input: tool.inputSchema }, { profile, preset, omitAbsentNulls })
      const advertised = compiled.inputSchema
      const strict = compiled.strict === true
      const mapsBack = strict || profile === 'gemini' || omitAbsentNulls === true
      for (const { value, output } of judged.get(tool.name)!) {
        checked++
        if (!mapsBack) {
          expect(rejectedBy(advertised, value), `${tool.name} ${JSON.stringify(value)}\nflat: ${JSON.stringify(advertised)}`).toEqual([])
          continue
        }
        const written = modelAnswer(advertised, compiled.decode, value, { nullsForMissing: profile === 'openai-strict' && strict })
        // gemini's OpenAPI `nullable`, where null is not a left-out key, is read by ajv and not by @cfworker/json-schema (documented).
        const rejecting = rejectedBy(advertised, written)
        const kept = profile === 'gemini' ? rejecting.filter(name => name !== '@cfworker/json-schema') : rejecting
        nullable += rejecting.length - kept.length
        expect(kept, `${tool.name}: the form of ${JSON.stringify(value)}, ${JSON.stringify(written)}\nflat: ${JSON.stringify(advertised)}`).toEqual([])
        // The reading a server picks: the first the original's own schema accepts.
        const back = inverse(compiled, written, candidate => rejectedBy(tool.inputSchema, candidate).length === 0)
        const actual = await judge(tool.name, back)
        expect(actual, `${tool.name}: pydantic rejects the inverse of ${JSON.stringify(written)}: ${JSON.stringify(back)}`).toBeDefined()
        const differs = outputDifference(JSON.parse(output), JSON.parse(actual!))
        expect(differs, `${tool.name}: outputs differ at ${differs}\nvalue: ${JSON.stringify(value)}\nwritten: ${JSON.stringify(written)}\nback: ${JSON.stringify(back)}`).toBeUndefined()
      }
    }
    expect(checked).toBeGreaterThan(listed.length * VALUES_PER_TOOL / 4)
    // Where pydantic reads null as a left-out key, gemini advertises no null: what is left is rare.
    expect(nullable).toBeLessThan(checked / 20)
  }, SLOW)
})
