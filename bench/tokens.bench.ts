// What the advertised tools cost a model's context: o200k_base tokens of each tool's definition
// (name, description, input schema as compact JSON) per profile, divided by the original's (the
// schema library's own JSON Schema), on the example's tools, inputs as people write them, and tools
// modelled on public MCP servers; with portable's precision beside it (of the invalid variations of
// valid arguments zod rejects, the share the advertised schema still rejects under ajv + ajv-formats,
// and the original JSON Schema's), and the portable tokens of the compiler before the cuts.
import type { CompiledTool, ProfileName, ToolDefinition } from '@flatmcp/core'
import { compileTool, PROFILE_NAMES, toOriginalSchema } from '@flatmcp/core'
import { getChat, sendBatch, sendMessage, updateChat } from '../examples/chat-server/src/chat.tools'
import { definitionTokens, loadTokenizer, toolTokens } from '../packages/unplugin/src/core/compile/tokens'
import { median } from './measure'
import { compilerBefore, measurePrecision, WRITTEN } from './precision.bench'
import { REAL_TOOLS } from './real-tools'

/** The commit before the token cuts (`propertyNames`, shorter JSON-text hints). */
export const BEFORE_CUTS = 'd1ccdcb'
/** What a build ships and the proxy serves: `minimal` is a base profile an author builds on, no client is sent it. */
export const TOKEN_PROFILES: ProfileName[] = PROFILE_NAMES.filter(name => name !== 'minimal')

export interface TokensRow {
  set: 'example' | 'written' | 'real'
  tool: string
  original: number
  profiles: Record<string, number>
  /** Tokens per profile with `examples: false`: what the examples per variant cost is the difference. */
  withoutExamples: Record<string, number>
  /** Portable tokens with the compiler before the cuts. */
  portableBefore?: number
  /** Invalid variations, and how many the original's JSON Schema and portable's reject. */
  invalid: number
  rejectedOriginal: number
  rejectedPortable: number
}

export async function runTokens(log: (line: string) => void, root: string): Promise<TokensRow[]> {
  await loadTokenizer()
  const before = await compilerBefore(root, BEFORE_CUTS)
  const sets: [TokensRow['set'], readonly ToolDefinition[]][] = [['example', [sendMessage, updateChat, getChat, sendBatch] as ToolDefinition[]], ['written', WRITTEN as ToolDefinition[]], ['real', REAL_TOOLS as ToolDefinition[]]]
  const rows: TokensRow[] = []
  for (const [set, tools] of sets) {
    for (const tool of tools) {
      log(`tokens: ${tool.name}`)
      const compiled: CompiledTool[] = TOKEN_PROFILES.map(profile => compileTool(tool, { profile }))
      const tokens = toolTokens(tool, compiled, 'portable')
      const withoutExamples = toolTokens(tool, TOKEN_PROFILES.map(profile => compileTool(tool, { profile, examples: false })), 'portable').profiles
      // Precision on the input alone: the samples come from it.
      const inputOnly = { name: tool.name, input: tool.input }
      const { invalid, rejected } = measurePrecision(tool.input, [toOriginalSchema(tool.input).schema, compileTool(inputOnly).inputSchema])
      const portableBefore = before && definitionTokens({ name: tool.name, description: compiled[0]!.description, inputSchema: before(tool as { name: string, input: unknown, params?: unknown }) })
      rows.push({ set, tool: tool.name, original: tokens.original, profiles: tokens.profiles, withoutExamples, ...(portableBefore ? { portableBefore } : {}), invalid, rejectedOriginal: rejected[0]!, rejectedPortable: rejected[1]! })
    }
  }
  return rows
}

/** Per profile, the median of advertised ÷ original over the rows. */
export function medianRatios(rows: TokensRow[]): Record<string, number> {
  return Object.fromEntries(TOKEN_PROFILES.map(profile => [profile, median(rows.map(r => r.profiles[profile]! / r.original))]))
}
