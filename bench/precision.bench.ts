// What the validator-faithful rewrites cost in precision: of the invalid variations of valid
// arguments (each one zod rejects), the share the advertised schema still rejects under ajv with
// ajv-formats, with the compiler before the rewrites (core at BEFORE, read from git) and now.
import type { JsonSchema } from '@flatmcp/core'
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { compileTool, toOriginalSchema } from '@flatmcp/core'
import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'
import { getChat, sendBatch, sendMessage, updateChat } from '../examples/chat-server/src/chat.tools'
import { createRandom, sampleValue } from '../packages/unplugin/src/core/check/sample'
import { CLIENT_VALIDATORS } from '../packages/unplugin/src/core/check/validators'

/** The last commit before the rewrites. */
export const BEFORE = 'ce6cb38'
const VALUES = 60

/** Inputs as people write them: flags, formats, steps, lengths. */
const WRITTEN = [
  defineTool({ name: 'create_user', input: z.object({ handle: z.string().regex(/^[a-z0-9_]{3,15}$/i), email: z.email(), born: z.iso.date(), bio: z.string().max(160).optional() }), handler: () => 'ok' }),
  defineTool({ name: 'price_item', input: z.object({ sku: z.string().regex(/^[A-Z]{3}-\d{4}$/), price: z.number().positive().multipleOf(0.01), currency: z.enum(['EUR', 'USD']) }), handler: () => 'ok' }),
  defineTool({ name: 'allow_host', input: z.object({ host: z.hostname(), ip: z.ipv6().optional(), ttl: z.iso.duration(), note: z.string().min(4) }), handler: () => 'ok' }),
  defineTool({ name: 'grep_logs', input: z.object({ line: z.string().regex(/^ERROR .+$/m), since: z.iso.datetime() }), handler: () => 'ok' }),
]

interface Tool { name: string, input: unknown }
const TOOLS: Tool[] = [sendMessage, updateChat, getChat, sendBatch, ...WRITTEN]

/** Invalid variations of a valid value: leaves replaced by near misses, keys dropped or added. */
function* variations(value: unknown): Generator<unknown> {
  if (typeof value === 'string') {
    yield ''
    yield `${value}!`
    yield value.toUpperCase()
    yield 'x'.repeat(300)
    yield 1
    return
  }
  if (typeof value === 'number') {
    yield value + 0.001
    yield -value - 1
    yield 1e9
    yield String(value)
    return
  }
  if (Array.isArray(value)) {
    yield []
    yield [...value, ...value, ...value, ...value, ...value, ...value]
    for (let i = 0; i < value.length; i++) {
      for (const variant of variations(value[i]))
        yield value.map((item, n) => n === i ? variant : item)
    }
    return
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    yield { ...record, zz_unknown: 1 }
    for (const key of Object.keys(record)) {
      const { [key]: _dropped, ...rest } = record
      yield rest
      for (const variant of variations(record[key]))
        yield { ...record, [key]: variant }
    }
  }
}

type Compile = (tool: Tool) => JsonSchema

/** The compiler at BEFORE, from git, run from its sources beside the current one. */
async function compilerBefore(root: string): Promise<Compile | undefined> {
  const dir = path.join(root, 'bench/.work/core-before')
  try {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const archive = execFileSync('git', ['archive', BEFORE, 'packages/core/src'], { cwd: root })
    execFileSync('tar', ['-x', '-C', dir], { input: archive })
  }
  catch {
    return undefined
  }
  const core = await import(path.join(dir, 'packages/core/src/index.ts')) as { compileTool: typeof compileTool }
  return tool => core.compileTool({ name: tool.name, input: tool.input }).inputSchema
}

export interface PrecisionRow { tool: string, invalid: number, before: number, after: number, validBefore: number, validAfter: number }

export async function runPrecision(log: (line: string) => void, root: string): Promise<PrecisionRow[] | undefined> {
  const before = await compilerBefore(root)
  if (!before)
    return undefined
  const strict = CLIENT_VALIDATORS.find(v => v.name === 'ajv 2020 + ajv-formats')!
  const rows: PrecisionRow[] = []
  for (const tool of TOOLS) {
    log(`precision: ${tool.name}`)
    const original = tool.input as z.ZodType
    const json = toOriginalSchema(original).schema
    const random = createRandom(7)
    const schemas = { before: before(tool), after: compileTool({ name: tool.name, input: tool.input }).inputSchema }
    const tests = { before: strict.compile(schemas.before as object), after: strict.compile(schemas.after as object) }
    const row: PrecisionRow = { tool: tool.name, invalid: 0, before: 0, after: 0, validBefore: 0, validAfter: 0 }
    let valid = 0
    for (let i = 0; i < VALUES * 20 && valid < VALUES; i++) {
      const value = JSON.parse(JSON.stringify(sampleValue(json, random) ?? null)) as unknown
      if (!original.safeParse(value).success)
        continue
      valid++
      row.validBefore += tests.before(value) ? 1 : 0
      row.validAfter += tests.after(value) ? 1 : 0
      for (const variant of variations(value)) {
        if (original.safeParse(variant).success)
          continue
        row.invalid++
        row.before += tests.before(variant) ? 0 : 1
        row.after += tests.after(variant) ? 0 : 1
      }
    }
    row.validBefore /= valid || 1
    row.validAfter /= valid || 1
    rows.push(row)
  }
  return rows
}
