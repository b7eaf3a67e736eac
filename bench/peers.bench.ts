// flatmcp beside a peer on the peer's own inputs: FastMCP's schema-utility test inputs (read from
// ../shared/suites, or FLATMCP_SUITES; data only), o200k_base tokens of each schema as given, as
// FastMCP 4.0 advertises it (dereferenced, titles pruned; computed by FastMCP's own functions and
// stored beside each case), and as each flatmcp profile lists it.
import type { ProfileName } from '@flatmcp/core'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileTool } from '@flatmcp/core'
import { definitionTokens, loadTokenizer } from '../packages/unplugin/src/core/compile/tokens'
import { TOKEN_PROFILES } from './tokens.bench'

export interface PeerRow {
  case: string
  original: number
  fastmcp: number
  profiles: Partial<Record<ProfileName, number>>
}

/** The rows, or undefined where the suites are not at hand. */
export async function runPeers(root: string): Promise<PeerRow[] | undefined> {
  const file = join(process.env.FLATMCP_SUITES ?? join(root, '..', 'shared', 'suites'), 'fastmcp', 'test_json_schema.cases.json')
  if (!existsSync(file))
    return undefined
  await loadTokenizer()
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: { id: string, input: Record<string, unknown>, fastmcpAdvertised: unknown }[] }
  const tokens = (inputSchema: unknown): number => definitionTokens({ name: 'tool', inputSchema })
  return cases.filter(c => c.input?.type === 'object' || c.input?.properties !== undefined).map(c => ({
    case: c.id.split('::').at(-1)!,
    original: tokens(c.input),
    fastmcp: tokens(c.fastmcpAdvertised),
    profiles: Object.fromEntries(TOKEN_PROFILES.map(profile => [profile, tokens(compileTool({ name: 'tool', input: { type: 'object', ...c.input } }, { profile, preset: 'json-schema' }).inputSchema)])),
  }))
}
