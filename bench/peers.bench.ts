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
  /** FastMCP's output with the root `"type": "object"` MCP requires of a tool's input (FastMCP leaves it out where its input does). */
  fastmcpTyped: number
  /** The input has a value schema that says no type (`{}`, a description alone, a `$ref` to another document): portable spells it as every type, with `items`, for the clients that need one. */
  untyped: boolean
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
    fastmcpTyped: tokens({ type: 'object', ...c.fastmcpAdvertised as object }),
    untyped: hasUntypedValue(c.input),
    profiles: Object.fromEntries(TOKEN_PROFILES.map(profile => [profile, tokens(compileTool({ name: 'tool', input: { type: 'object', ...c.input } }, { profile, preset: 'json-schema' }).inputSchema)])),
  }))
}

/** Keywords that say what a value may be: a schema with none of them takes any value. */
const SAYS_TYPE = ['type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'not', 'properties', 'items', 'prefixItems']

/** A `$ref` to a document elsewhere: neither FastMCP nor flatmcp fetches it, so the value is as untyped as `{}`. */
const isOutsideRef = (node: Record<string, unknown>): boolean => typeof node.$ref === 'string' && !node.$ref.startsWith('#')

const isSchema = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A value schema that says no type: `{}`, a description alone, a `$ref` to another document. */
const untyped = (node: Record<string, unknown>): boolean => !SAYS_TYPE.some(key => key in node) || isOutsideRef(node)

/** The schemas of the values a schema holds or chooses among: properties, items (a list or one), additional values, alternatives, definitions. */
function childrenOf(node: Record<string, unknown>): Record<string, unknown>[] {
  const listed = (value: unknown): unknown[] => Array.isArray(value) ? value : [value]
  return [
    ...Object.values(isSchema(node.properties) ? node.properties : {}),
    ...Object.values(isSchema(node.patternProperties) ? node.patternProperties : {}),
    ...listed(node.items),
    ...listed(node.prefixItems),
    node.additionalProperties,
    ...['anyOf', 'oneOf', 'allOf'].flatMap(key => listed(node[key])),
    ...['$defs', 'definitions'].flatMap(key => Object.values(isSchema(node[key]) ? node[key] : {})),
  ].filter(isSchema)
}

/** Whether a value anywhere in the input says no type: an untyped schema, or an array whose items say nothing. */
export function hasUntypedValue(schema: unknown): boolean {
  if (!isSchema(schema))
    return false
  if (schema.type === 'array' && schema.items === undefined && schema.prefixItems === undefined)
    return true
  return childrenOf(schema).some(child => untyped(child) || hasUntypedValue(child))
}
