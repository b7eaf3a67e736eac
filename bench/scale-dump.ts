// The catalogue of the benchmark at scale, written out for the people who write its tasks:
// `tsx --conditions=flatmcp-source bench/scale-dump.ts <dir>` writes one text file per server (id,
// source, field, then each tool: name, description, parameters with their descriptions and enums) and
// an index.md. It prints and runs no ranking, so phrasings are written blind to every ranker.
import type { ScaleServer } from './scale-harness'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { scaleCatalogue } from './scale-catalogue'

/** A schema's parameters, nested ones as `parent.child`, each with its type, description and enum. */
function parameters(schema: unknown, prefix = '', depth = 0): string[] {
  const node = schema as { properties?: Record<string, Record<string, unknown>>, required?: string[] } | undefined
  if (!node?.properties || depth > 3)
    return []
  return Object.entries(node.properties).flatMap(([key, child]) => {
    const name = `${prefix}${key}`
    const type = typeof child.type === 'string' ? child.type : Array.isArray(child.type) ? child.type.join('|') : ''
    const values = Array.isArray(child.enum) ? ` [one of: ${child.enum.map(value => JSON.stringify(value)).join(', ')}]` : ''
    const description = typeof child.description === 'string' ? ` — ${child.description.replace(/\s+/g, ' ').trim()}` : ''
    const required = node.required?.includes(key) ? ', required' : ''
    const nested = child.type === 'array' ? parameters(child.items, `${name}[].`, depth + 1) : parameters(child, `${name}.`, depth + 1)
    return [`    - ${name} (${type || 'any'}${required})${description}${values}`, ...nested]
  })
}

/** One server's file: its id, source and field, then each tool. */
export function serverText(server: ScaleServer): string {
  const tools = server.tools.map(tool => [
    `## ${tool.name}`,
    '',
    (tool.description ?? '(no description)').trim(),
    '',
    '  parameters:',
    ...(parameters(tool.inputSchema).length > 0 ? parameters(tool.inputSchema) : ['    (none)']),
    '',
  ].join('\n'))
  return [`# ${server.id}`, '', `source: ${server.source}`, `field: ${server.field}`, `tools: ${server.tools.length}`, `task id of a tool: ${server.id}:<tool name>`, '', ...tools].join('\n')
}

/** The index: every server with its source, field and tool count, the fields' totals, and what was left out. */
export function indexText(servers: readonly ScaleServer[], left: readonly { id: string, source: string, reason: string }[]): string {
  const total = servers.reduce((sum, server) => sum + server.tools.length, 0)
  const fields = new Map<string, { servers: number, tools: number }>()
  for (const server of servers) {
    const field = fields.get(server.field) ?? { servers: 0, tools: 0 }
    fields.set(server.field, { servers: field.servers + 1, tools: field.tools + server.tools.length })
  }
  return [
    '# The catalogue of the retrieval benchmark at scale',
    '',
    `${servers.length} servers, ${total} tools. A task names a tool as \`<server id>:<tool name>\` (bench/data/scale-tasks.json).`,
    '',
    '| server id | source | field | tools | file |',
    '|---|---|---|---|---|',
    ...servers.map(server => `| ${server.id} | ${server.source} | ${server.field} | ${server.tools.length} | ${server.id}.txt |`),
    '',
    '## Fields',
    '',
    '| field | servers | tools |',
    '|---|---|---|',
    ...[...fields].sort((a, b) => b[1].tools - a[1].tools).map(([field, { servers: count, tools }]) => `| ${field} | ${count} | ${tools} |`),
    '',
    '## Left out (tried, did not list)',
    '',
    ...(left.length === 0 ? ['(none)'] : left.map(server => `- ${server.id} (${server.source}): ${server.reason}`)),
    '',
  ].join('\n')
}

const dir = process.argv[2]
if (dir === undefined) {
  console.error('usage: tsx --conditions=flatmcp-source bench/scale-dump.ts <dir>')
  process.exit(2)
}
const { servers, left } = await scaleCatalogue(line => process.stderr.write(`· ${line}\n`))
mkdirSync(dir, { recursive: true })
for (const server of servers)
  writeFileSync(path.join(dir, `${server.id}.txt`), serverText(server))
writeFileSync(path.join(dir, 'index.md'), indexText(servers, left))
console.log(`wrote ${servers.length} servers (${servers.reduce((sum, server) => sum + server.tools.length, 0)} tools) to ${dir}`)
