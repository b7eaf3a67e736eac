// Request time, start-up and call overhead: the flatmcp runtime against the official SDK's McpServer
// (converting zod schemas on every request), against compiling at start-up with compileTool, and
// against the limit: a server that writes a pre-serialized tools/list answer.
import type { ToolDefinition } from '@flatmcp/runtime'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, coerceArgs, toPrecomputed } from '@flatmcp/runtime'
import { createMcpServer, framePreserialized } from '@flatmcp/runtime/sdk'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { build } from 'esbuild'
import flatmcp from 'unplugin-flatmcp/esbuild'
import { z } from 'zod'
import { toolAt } from './catalog'
import { interleaved, median, measure } from './measure'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const WORK = path.join(HERE, '.work')
export const SIZES = [10, 100, 500]

export interface ServeResults {
  listInProcess: Record<number, Record<Variant, number>>
  listStdio: Record<number, Record<Variant, number>>
  coldStart: Record<Variant, number>
  call: { clean: { zod: number, flatmcp: number }, stringified: { zod: number, flatmcp: number } }
  hostile: { case: string, bytes: number, coerce: number, zod: number }[]
}
export type Variant = 'flatmcp' | 'startup' | 'sdk' | 'limit'
export const VARIANTS: Variant[] = ['flatmcp', 'startup', 'sdk', 'limit']

const catalog = (n: number): ToolDefinition[] => Array.from({ length: n }, (_, i) => toolAt(i) as ToolDefinition)

/** The SDK's way: every tool registered on McpServer with its zod schemas (params merged into the input). */
function sdkServer(tools: ToolDefinition[]): McpServer {
  const server = new McpServer({ name: 'sdk', version: '1.0.0' })
  for (const tool of tools) {
    const input = tool.params ? (tool.params as z.ZodObject).extend((tool.input as z.ZodObject).shape) : tool.input
    server.registerTool(tool.name, { description: tool.description, inputSchema: input as z.ZodObject }, async () => ({ content: [] }))
  }
  return server
}

type Handler = (request: unknown, extra: unknown) => Promise<unknown>
function listHandler(server: Server): Handler {
  return (server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers.get('tools/list')!
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
const EXTRA = { signal: new AbortController().signal, requestId: 1, sendNotification: async () => {}, sendRequest: async () => ({}) }

/** In-process: the server's tools/list handler plus the line a stdio transport writes, per request. */
async function listInProcess(n: number): Promise<Record<Variant, number>> {
  const precomputed = catalog(n).map(tool => attachCompiled(tool, toPrecomputed(compileTool(tool))))
  const flat = listHandler(createMcpServer(precomputed, { name: 'f', version: '1' }))
  const startup = listHandler(createMcpServer(catalog(n), { name: 's', version: '1' }))
  const sdk = listHandler(sdkServer(catalog(n)).server)
  const text = JSON.stringify({ tools: precomputed.map(tool => toPrecomputed(compileTool(tool)).tool) })
  // What StdioTransport writes: the pre-serialized text when there is one, else JSON.stringify.
  const answer = async (handler: Handler): Promise<string> => {
    const message = { jsonrpc: '2.0' as const, id: 1, result: await handler(LIST, EXTRA) as Record<string, unknown> }
    return framePreserialized(message) ?? `${JSON.stringify(message)}\n`
  }
  return {
    flatmcp: await measure(() => answer(flat), { batch: 5 }),
    startup: await measure(() => answer(startup), { batch: 5 }),
    sdk: await measure(() => answer(sdk), { batch: 2 }),
    limit: await measure(() => `{"jsonrpc":"2.0","id":1,"result":${text}}\n`, { batch: 50 }),
  }
}

const LIMIT_SERVER = `// The limit: answers tools/list with a buffer serialized once, and nothing else.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
const artifact = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const list = JSON.stringify({ tools: artifact.tools })
const write = text => process.stdout.write(text + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.method === 'initialize')
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'limit', version: '1' } } }))
  else if (message.method === 'tools/list')
    write('{"jsonrpc":"2.0","id":' + JSON.stringify(message.id) + ',"result":' + list + '}')
  else if (message.id !== undefined)
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }))
})
`

/** Builds the four server processes for a catalogue of n tools; returns how to start each. */
async function buildServers(n: number): Promise<Record<Variant, string[]>> {
  const dir = path.join(WORK, `n${n}`)
  mkdirSync(dir, { recursive: true })
  const catalogImport = path.relative(dir, path.join(HERE, 'catalog')).split(path.sep).join('/')
  writeFileSync(path.join(dir, 'catalog.tools.ts'), `import { toolAt } from '${catalogImport}'\n${Array.from({ length: n }, (_, i) => `export const tool${i} = toolAt(${i})`).join('\n')}\n`)
  writeFileSync(path.join(dir, 'server.ts'), `import { createMcpServer, StdioTransport } from '@flatmcp/runtime/sdk'
import * as catalog from './catalog.tools'
await createMcpServer(Object.values(catalog), { name: 'bench', version: '1' }).connect(new StdioTransport())
`)
  writeFileSync(path.join(dir, 'sdk.ts'), `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import * as catalog from './catalog.tools'
const server = new McpServer({ name: 'sdk', version: '1' })
for (const tool of Object.values(catalog)) {
  const input = tool.params ? tool.params.extend(tool.input.shape) : tool.input
  server.registerTool(tool.name, { description: tool.description, inputSchema: input }, async () => ({ content: [] }))
}
await server.connect(new StdioServerTransport())
`)
  writeFileSync(path.join(dir, 'limit.mjs'), LIMIT_SERVER)
  const common = { absWorkingDir: dir, bundle: true, packages: 'external' as const, platform: 'node' as const, format: 'esm' as const, target: 'node20', logLevel: 'silent' as const }
  await build({ ...common, entryPoints: ['server.ts'], outfile: 'dist/flatmcp.mjs', plugins: [flatmcp({ root: dir })] })
  await build({ ...common, entryPoints: ['server.ts'], outfile: 'dist/startup.mjs' })
  await build({ ...common, entryPoints: ['sdk.ts'], outfile: 'dist/sdk.mjs' })
  return {
    flatmcp: [path.join(dir, 'dist/flatmcp.mjs')],
    startup: [path.join(dir, 'dist/startup.mjs')],
    sdk: [path.join(dir, 'dist/sdk.mjs')],
    limit: [path.join(dir, 'limit.mjs'), path.join(dir, 'dist/catalog.tools.mcp.json')],
  }
}

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore', cwd: path.dirname(args[0]!) }))
  return client
}

async function listStdio(servers: Record<Variant, string[]>): Promise<Record<Variant, number>> {
  const out = {} as Record<Variant, number>
  for (const variant of VARIANTS) {
    const client = await connect(servers[variant])
    out[variant] = await measure(() => client.listTools(), { budgetMs: 2000, max: 60 })
    await client.close()
  }
  return out
}

async function coldStart(servers: Record<Variant, string[]>): Promise<Record<Variant, number>> {
  const out = {} as Record<Variant, number>
  for (const variant of VARIANTS) {
    const samples: number[] = []
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now()
      const client = await connect(servers[variant])
      await client.listTools()
      samples.push(performance.now() - t0)
      await client.close()
    }
    out[variant] = median(samples)
  }
  return out
}

async function callOverhead(): Promise<ServeResults['call']> {
  const tool = toolAt(0) as ToolDefinition
  const schema = tool.input as z.ZodType
  const plan = compileTool(tool).coercion
  const media = [{ url: 'https://example.com/a.png' }, { url: 'https://example.com/b.png', caption: 'b' }]
  const clean = { kind: 'mediaGroup', media }
  const stringified = { kind: 'mediaGroup', media: JSON.stringify(media) }
  const time = (fn: () => unknown): Promise<number> => measure(fn, { batch: 2000, budgetMs: 1000 })
  // Clean arguments in alternating rounds: the two are close, so load that comes and goes must fall on both.
  const cleanCall = interleaved({ zod: () => schema.safeParse(clean), flatmcp: () => schema.safeParse(coerceArgs(clean, plan)) })
  return {
    clean: cleanCall,
    stringified: { zod: await time(() => schema.safeParse(stringified)), flatmcp: await time(() => schema.safeParse(coerceArgs(stringified, plan))) },
  }
}

/**
 * The worst arguments a client can send within the SDK's 4 MiB HTTP body limit, for the coercer: many
 * strings where an object is expected. What the coercer spends is set beside what zod then spends
 * rejecting the same arguments (the coercer should never cost more than the parser it feeds).
 */
async function hostileCalls(): Promise<ServeResults['hostile']> {
  const tool = toolAt(0) as ToolDefinition
  const schema = tool.input as z.ZodType
  const plan = compileTool(tool).coercion
  // The catalogue's album takes at most 10 items; an array with no bound makes both sides walk it all.
  const unbounded = z.object({ files: z.array(z.object({ url: z.string(), caption: z.string().optional() })) })
  const unboundedPlan = compileTool({ name: 'files', input: unbounded }).coercion
  const cases: [string, unknown, z.ZodType, typeof plan][] = [
    ['700,000 × "[" (max 10)', { kind: 'mediaGroup', media: Array.from({ length: 700_000 }, () => '[') }, schema, plan],
    ['280,000 × broken {…} (max 10)', { kind: 'mediaGroup', media: Array.from({ length: 280_000 }, () => '{"url": }') }, schema, plan],
    ['one broken 3 MB […]', { kind: 'mediaGroup', media: `[${'{"url":"a"},'.repeat(250_000)}` }, schema, plan],
    ['700,000 × "[" (no bound)', { files: Array.from({ length: 700_000 }, () => '[') }, unbounded, unboundedPlan],
    ['280,000 × broken {…} (no bound)', { files: Array.from({ length: 280_000 }, () => '{"url": }') }, unbounded, unboundedPlan],
  ]
  const out: ServeResults['hostile'] = []
  for (const [label, args, parser, argsPlan] of cases) {
    out.push({
      case: label,
      bytes: JSON.stringify(args).length,
      coerce: await measure(() => coerceArgs(args, argsPlan), { min: 3, budgetMs: 1000 }),
      zod: await measure(() => parser.safeParse(args), { min: 3, budgetMs: 1000 }),
    })
  }
  return out
}

export async function runServe(log: (line: string) => void): Promise<ServeResults> {
  const results: ServeResults = { listInProcess: {}, listStdio: {}, coldStart: {} as Record<Variant, number>, call: undefined as never, hostile: [] }
  const warn = console.warn
  console.warn = () => {} // the start-up variant warns that it compiles; that is the point
  try {
    for (const n of SIZES) {
      log(`tools/list in process, ${n} tools`)
      results.listInProcess[n] = await listInProcess(n)
      log(`tools/list over stdio, ${n} tools`)
      const servers = await buildServers(n)
      results.listStdio[n] = await listStdio(servers)
      if (n === 100) {
        log('cold start, 100 tools')
        results.coldStart = await coldStart(servers)
      }
    }
  }
  finally {
    console.warn = warn
  }
  log('tools/call overhead')
  results.call = await callOverhead()
  log('hostile arguments')
  results.hostile = await hostileCalls()
  return results
}

export const artifactSize = (n: number): number => readFileSync(path.join(WORK, `n${n}`, 'dist/catalog.tools.mcp.json')).length
