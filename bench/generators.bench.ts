// Schemas other languages' generators write, per profile: tokens advertised ÷ the schema as its
// server lists it, precision (of the invalid variations of valid arguments the original rejects, the
// share the flat schema still rejects, ÷ the original's share, under ajv + ajv-formats) and compile
// time per tool; read now (JSON Schema front end, the preset detected over each server's list) and
// before it (core at BEFORE_GENERATORS, through a Standard Schema wrapper: a JavaScript library's
// semantics). The corpus: the Python servers of test/python (official SDK and FastMCP, listed over
// stdio where python3 is at hand) and the generator-shaped schemas of test/support.
import type { JsonSchemaObject, PresetName, ProfileName } from '@flatmcp/core'
import { join } from 'node:path'
import { compileTool, detectPreset, isJsonSchemaDocument, PROFILE_NAMES, toOriginalSchema } from '@flatmcp/core'
import { createRandom, sampleValue } from '../packages/unplugin/src/core/check/sample'
import { CLIENT_VALIDATORS } from '../packages/unplugin/src/core/check/validators'
import { definitionTokens, loadTokenizer } from '../packages/unplugin/src/core/compile/tokens'
import { connectStdioV2 } from '../test/support/client'
import { GENERATED_SCHEMAS } from '../test/support/generated-schemas'
import { PYTHON_DIR, pythonStack } from '../test/support/python'
import { measure } from './measure'
import { compilerBefore, variations } from './precision.bench'

/** The last commit before the JSON Schema front end and the presets. */
export const BEFORE_GENERATORS = 'ad37372'
/** What a build ships and the proxy serves: `minimal` is a base profile an author builds on, no client is sent it. */
export const GENERATOR_PROFILES: ProfileName[] = PROFILE_NAMES.filter(name => name !== 'minimal')
const VALUES = 40

interface CorpusTool { set: string, name: string, description?: string, schema: JsonSchemaObject, preset: PresetName }

export interface GeneratorRow {
  set: string
  tool: string
  preset: PresetName
  original: number
  before: Record<string, number>
  after: Record<string, number>
  invalid: number
  rejectedOriginal: number
  rejectedBefore: number
  rejectedAfter: number
  compileBefore: number
  compileAfter: number
}

/** The Python servers' lists (where python3 can run them), then the generator-shaped schemas. */
async function corpus(log: (line: string) => void): Promise<CorpusTool[]> {
  const tools: CorpusTool[] = []
  const stack = pythonStack()
  if ('python' in stack) {
    for (const sdk of ['mcp', 'fastmcp']) {
      log(`generators: listing the ${sdk} server`)
      const server = await connectStdioV2(stack.python, [join(PYTHON_DIR, 'serve.py'), sdk], PYTHON_DIR)
      const listed = (await server.client.listTools()).tools as unknown as { name: string, description?: string, inputSchema: JsonSchemaObject }[]
      await server.close()
      const preset = detectPreset(listed.map(tool => tool.inputSchema)).preset.name
      tools.push(...listed.map(tool => ({ set: `python ${sdk}`, name: tool.name, description: tool.description, schema: tool.inputSchema, preset })))
    }
  }
  tools.push(...GENERATED_SCHEMAS.map(s => ({ set: s.preset, name: s.name, schema: s.schema, preset: detectPreset(s.schema).preset.name })))
  return tools
}

/** A JSON Schema as a Standard Schema whose vendor the compiler before the front end did not know. */
function wrapped(schema: JsonSchemaObject): unknown {
  return { '~standard': { version: 1, vendor: 'json', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => schema, output: () => schema } } }
}

export async function runGenerators(log: (line: string) => void, root: string): Promise<GeneratorRow[] | undefined> {
  await loadTokenizer()
  const before = await compilerBefore(root, BEFORE_GENERATORS)
  if (!before)
    return undefined
  const strict = CLIENT_VALIDATORS.find(v => v.name === 'ajv 2020 + ajv-formats')!
  const rows: GeneratorRow[] = []
  for (const tool of await corpus(log)) {
    log(`generators: ${tool.set} ${tool.name}`)
    const definition = { name: tool.name, input: tool.schema }
    const tokensOf = (inputSchema: unknown): number => definitionTokens({ name: tool.name, description: tool.description, inputSchema })
    const after = Object.fromEntries(GENERATOR_PROFILES.map(profile => [profile, tokensOf(compileTool(definition, { profile, preset: tool.preset }).inputSchema)]))
    const then = Object.fromEntries(GENERATOR_PROFILES.map(profile => [profile, tokensOf(before({ name: tool.name, input: wrapped(tool.schema) }, profile))]))
    // The judge: the schema as its preset reads it, under the strictest validator of the matrix.
    const { $schema: _dialect, ...read } = toOriginalSchema(tool.schema, 'input', {}, { preset: tool.preset }).schema
    const [original, flatBefore, flatAfter] = [read, before({ name: tool.name, input: wrapped(tool.schema) }), compileTool(definition, { preset: tool.preset }).inputSchema].map(schema => strict.compile(schema as object))
    const random = createRandom(tool.name.length)
    let invalid = 0
    const rejected = [0, 0, 0]
    for (let i = 0, valid = 0; i < VALUES * 20 && valid < VALUES; i++) {
      const value = JSON.parse(JSON.stringify(sampleValue(tool.schema, random) ?? null)) as unknown
      if (!original!(value))
        continue
      valid++
      for (const variant of variations(value)) {
        if (original!(variant))
          continue
        invalid++
        ;[original!, flatBefore!, flatAfter!].forEach((test, n) => { rejected[n]! += test(variant) ? 0 : 1 })
      }
    }
    rows.push({
      set: tool.set,
      tool: tool.name,
      preset: tool.preset,
      original: tokensOf(isJsonSchemaDocument(tool.schema) ? tool.schema : {}),
      before: then,
      after,
      invalid,
      rejectedOriginal: rejected[0]!,
      rejectedBefore: rejected[1]!,
      rejectedAfter: rejected[2]!,
      compileBefore: await measure(() => before({ name: tool.name, input: wrapped(tool.schema) }), { budgetMs: 300 }),
      compileAfter: await measure(() => compileTool(definition, { preset: tool.preset }), { budgetMs: 300 }),
    })
  }
  return rows
}
