// Precision per keyword on the official JSON-Schema-Test-Suite (data only, read where the caller
// says): of each keyword file's invalid data that the original schema rejects
// under ajv 2020 + ajv-formats, the share each profile still keeps a model from sending. A profile
// keeps one out when its flat schema rejects the datum as the model would write it (the same value,
// or its advertised form: JSON text, wrapped keys), or when the datum has no advertised form at all
// (none, or one that maps back to another value: a key a closed object cannot carry).
import type { CompiledTool, JsonSchemaObject, ProfileName } from '@flatmcp/core'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { compileTool, modelAnswer, resolveTarget } from '@flatmcp/core'
import { asTool, PROFILES } from './json-schema-soundness'
import { inverse } from './round-trip'
import { rejectedBy, validatorsOf } from './validators'

const JUDGE = 'ajv 2020 + ajv-formats'

export interface KeywordPrecisionRow {
  /** The suite's file: one keyword (or a family of them). */
  keyword: string
  /** Invalid data the original rejects. */
  invalid: number
  /** Of those, how many each profile keeps out. */
  kept: Partial<Record<ProfileName, number>>
  /** Of those, how many stand where the profile's flat schema still says the keyword (it carries it there). */
  carried: Partial<Record<ProfileName, number>>
  /** Of the carried ones, how many the profile keeps out. */
  keptCarried: Partial<Record<ProfileName, number>>
}

function keptOut(compiled: CompiledTool, profile: typeof PROFILES[number], datum: unknown): boolean {
  const value = { v: datum }
  if (compiled.strict !== true && profile !== 'gemini')
    return rejectedBy(compiled.inputSchema, value).includes(JUDGE)
  let written: unknown
  try {
    written = modelAnswer(compiled.inputSchema, compiled.decode, value as never, { nullsForMissing: resolveTarget(profile).profile?.nullsForMissing === true && compiled.strict === true })
  }
  catch {
    return true
  }
  return rejectedBy(compiled.inputSchema, written).includes(JUDGE) || !isDeepStrictEqual(inverse(compiled, written as never), value)
}

/** Whether the flat schema of `v` still says `keyword`, and is not JSON text as a whole (which says nothing to a validator). */
function carries(compiled: CompiledTool, keyword: string): boolean {
  const v = (compiled.inputSchema.properties as Record<string, JsonSchemaObject> | undefined)?.v ?? {}
  // JSON text beside typed branches (a bounded number) still says what those branches say.
  const typedBranch = Array.isArray(v.anyOf) && v.anyOf.some(branch => !['string', 'null'].includes((branch as JsonSchemaObject).type as string))
  const wholeText = compiled.decode?.properties?.v?.parse === 'json' && !typedBranch
  return !wholeText && JSON.stringify(v).includes(`"${keyword}":`)
}

/** One row per keyword file of draft 2020-12 in the `suites` folder, or undefined where it holds none. */
export function keywordPrecision(suites: string): KeywordPrecisionRow[] | undefined {
  const dir = join(suites, 'jsts', 'draft2020-12')
  if (!existsSync(dir))
    return undefined
  const rows: KeywordPrecisionRow[] = []
  for (const file of readdirSync(dir).filter(name => name.endsWith('.json')).sort()) {
    const keyword = file.replace(/\.json$/, '')
    const zero = (): Partial<Record<ProfileName, number>> => Object.fromEntries(PROFILES.map(p => [p, 0]))
    const row: KeywordPrecisionRow = { keyword, invalid: 0, kept: zero(), carried: zero(), keptCarried: zero() }
    for (const group of JSON.parse(readFileSync(join(dir, file), 'utf8')) as { schema: unknown, tests: { data: unknown, valid: boolean }[] }[]) {
      const tool = asTool(group.schema, false)
      // A schema the validators cannot compile (an empty enum) has no original to compare with.
      const original = tool && validatorsOf(tool)
      if (!tool || !original)
        continue
      const compiled = PROFILES.map(profile => [profile, compileTool({ name: 't', input: tool }, { profile, preset: 'json-schema' })] as const)
      for (const { data } of group.tests.filter(test => !test.valid)) {
        if (!original({ v: data }).includes(JUDGE))
          continue
        row.invalid++
        for (const [profile, tool] of compiled) {
          const kept = keptOut(tool, profile, data)
          const carried = carries(tool, keyword)
          row.kept[profile]! += Number(kept)
          row.carried[profile]! += Number(carried)
          row.keptCarried[profile]! += Number(kept && carried)
        }
      }
    }
    if (row.invalid > 0)
      rows.push(row)
  }
  return rows
}
