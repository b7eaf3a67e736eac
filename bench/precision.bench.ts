// What the validator-faithful rewrites cost in precision: of the invalid variations of valid
// arguments (each one zod rejects), the share the advertised schema still rejects under ajv with
// ajv-formats, with the compiler before the rewrites (core at BEFORE, read from git) and now.
import type { JsonSchema, ProfileName } from '@flatmcp/core'
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
export const WRITTEN = [
  defineTool({ name: 'create_user', input: z.object({ handle: z.string().regex(/^[a-z0-9_]{3,15}$/i), email: z.email(), born: z.iso.date(), bio: z.string().max(160).optional() }), handler: () => 'ok' }),
  defineTool({ name: 'price_item', input: z.object({ sku: z.string().regex(/^[A-Z]{3}-\d{4}$/), price: z.number().positive().multipleOf(0.01), currency: z.enum(['EUR', 'USD']) }), handler: () => 'ok' }),
  defineTool({ name: 'allow_host', input: z.object({ host: z.hostname(), ip: z.ipv6().optional(), ttl: z.iso.duration(), note: z.string().min(4) }), handler: () => 'ok' }),
  defineTool({ name: 'grep_logs', input: z.object({ line: z.string().regex(/^ERROR .+$/m), since: z.iso.datetime() }), handler: () => 'ok' }),
]

interface Tool { name: string, input: unknown }
/** The example's tools and inputs as people write them. */
export const TOOLS: Tool[] = [sendMessage, updateChat, getChat, sendBatch, ...WRITTEN]

/** Invalid variations of a valid value: leaves replaced by near misses, keys dropped or added. */
export function* variations(value: unknown): Generator<unknown> {
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

type Compile = (tool: Tool & { params?: unknown }, profile?: ProfileName) => JsonSchema

/** The compiler at BEFORE, from git, run from its sources beside the current one. */
export async function compilerBefore(root: string, commit = BEFORE): Promise<Compile | undefined> {
  const dir = path.join(root, `bench/.work/core-${commit}`)
  try {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const archive = execFileSync('git', ['archive', commit, 'packages/core/src'], { cwd: root })
    execFileSync('tar', ['-x', '-C', dir], { input: archive })
  }
  catch {
    return undefined
  }
  const core = await import(path.join(dir, 'packages/core/src/index.ts')) as { compileTool: typeof compileTool }
  return (tool, profile) => core.compileTool({ name: tool.name, input: tool.input, ...(tool.params === undefined ? {} : { params: tool.params }) }, profile === undefined ? {} : { profile }).inputSchema
}

export interface PrecisionRow { tool: string, invalid: number, before: number, after: number, validBefore: number, validAfter: number }

/**
 * Valid arguments sampled from the original and invalid variations of them (each one zod rejects):
 * per schema, the share of valid ones it accepts and the number of invalid ones it still rejects,
 * under ajv with ajv-formats.
 */
export function measurePrecision(input: unknown, schemas: JsonSchema[]): { invalid: number, rejected: number[], validAccepted: number[] } {
  const strict = CLIENT_VALIDATORS.find(v => v.name === 'ajv 2020 + ajv-formats')!
  const original = input as z.ZodType
  const json = toOriginalSchema(original).schema
  const random = createRandom(7)
  const tests = schemas.map(schema => strict.compile(schema as object))
  const result = { invalid: 0, rejected: tests.map(() => 0), validAccepted: tests.map(() => 0) }
  let valid = 0
  for (let i = 0; i < VALUES * 20 && valid < VALUES; i++) {
    const value = JSON.parse(JSON.stringify(sampleValue(json, random) ?? null)) as unknown
    if (!original.safeParse(value).success)
      continue
    valid++
    tests.forEach((test, n) => { result.validAccepted[n]! += test(value) ? 1 : 0 })
    for (const variant of variations(value)) {
      if (original.safeParse(variant).success)
        continue
      result.invalid++
      tests.forEach((test, n) => { result.rejected[n]! += test(variant) ? 0 : 1 })
    }
  }
  result.validAccepted = result.validAccepted.map(n => n / (valid || 1))
  return result
}

export async function runPrecision(log: (line: string) => void, root: string): Promise<PrecisionRow[] | undefined> {
  const before = await compilerBefore(root)
  if (!before)
    return undefined
  const rows: PrecisionRow[] = []
  for (const tool of TOOLS) {
    log(`precision: ${tool.name}`)
    const { invalid, rejected, validAccepted } = measurePrecision(tool.input, [before({ name: tool.name, input: tool.input }), compileTool({ name: tool.name, input: tool.input }).inputSchema])
    rows.push({ tool: tool.name, invalid, before: rejected[0]!, after: rejected[1]!, validBefore: validAccepted[0]!, validAfter: validAccepted[1]! })
  }
  return rows
}
