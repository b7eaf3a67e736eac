// A server bundle whose tools carry precomputed data contains no compiler, and runs where the
// compiler is not installed at all.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { compileTool } from '@flatmcp/core'
import { toPrecomputed } from '@flatmcp/runtime'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { connectStdio, ROOT } from './support/client'

const input = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('one'), item: z.object({ id: z.string() }) }),
  z.object({ kind: z.literal('many'), item: z.array(z.object({ id: z.string() })) }),
])

/** A recursive input: its plan names the tree once and refers to it at every depth. */
type Node = { v: string, kids: Node[] | null }
const Node: z.ZodType<Node> = z.object({ v: z.string(), kids: z.array(z.lazy(() => Node)).nullable() })
const treeInput = z.object({ tree: Node })
const treeSource = `
type Node = { v: string, kids: Node[] | null }
const Node: z.ZodType<Node> = z.object({ v: z.string(), kids: z.array(z.lazy(() => Node)).nullable() })
const treeInput = z.object({ tree: Node })
`

const entry = (precomputed: unknown, treePrecomputed: unknown): string => `
import { attachCompiled, defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/sdk'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
${treeSource}
const count = (node: Node): number => 1 + (node.kids ?? []).reduce((sum, kid) => sum + count(kid), 0)
const tree = defineTool({ name: 'tree', input: treeInput, handler: input => String(count(input.tree)) })
attachCompiled(tree, ${JSON.stringify(treePrecomputed)})

const tool = defineTool({
  name: 'pick',
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('one'), item: z.object({ id: z.string() }) }),
    z.object({ kind: z.literal('many'), item: z.array(z.object({ id: z.string() })) }),
  ]),
  handler: input => input.kind === 'one' ? input.item.id : input.item.map(i => i.id).join(','),
})
attachCompiled(tool, ${JSON.stringify(precomputed)})
await createMcpServer([tool, tree], { name: 'bundled', version: '1.0.0' }).connect(new StdioServerTransport())
`

describe('a bundled server with precomputed data', () => {
  let bundle: string
  let outfile: string
  beforeAll(async () => {
    const work = path.join(ROOT, 'node_modules/.cache/flatmcp-test')
    mkdirSync(work, { recursive: true })
    const source = path.join(work, 'bundle-entry.ts')
    writeFileSync(source, entry(toPrecomputed(compileTool({ name: 'pick', input })), toPrecomputed(compileTool({ name: 'tree', input: treeInput }))))
    // Outside the workspace: nothing can be resolved from node_modules when it runs.
    outfile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flatmcp-bundle-')), 'server.mjs')
    await build({ entryPoints: [source], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent', banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' } })
    bundle = readFileSync(outfile, 'utf8')
  })

  it('contains none of the compiler', () => {
    for (const name of ['flattenSchema', 'joinSchemas', 'planCoercion', 'mergeObjects', 'portableNode'])
      expect(bundle).not.toContain(`function ${name}(`)
    expect(bundle).toContain('function coerceArgs(')
  })

  describe('when run', () => {
    let session: Awaited<ReturnType<typeof connectStdio>>
    beforeAll(async () => {
      session = await connectStdio(process.execPath, [outfile], path.dirname(outfile))
    })
    afterAll(async () => {
      await session?.close()
    })

    it('serves the flat schema and calls the tool without compiling', async () => {
      const { tools } = await session.client.listTools()
      expect((tools[0]!.inputSchema.properties as any).item.type).toEqual(['object', 'array'])
      const result = await session.client.callTool({ name: 'pick', arguments: { kind: 'many', item: JSON.stringify([{ id: 'a' }, { id: 'b' }]) } })
      expect((result.content as { text: string }[])[0]!.text).toBe('a,b')
      expect(session.stderr()).not.toContain('compiling at start-up')
    })

    it('repairs a recursive argument stringified at every level, six levels deep', async () => {
      let node: unknown = JSON.stringify({ v: 'leaf', kids: null })
      for (let depth = 0; depth < 6; depth++)
        node = JSON.stringify({ v: `n${depth}`, kids: [node, JSON.stringify({ v: 'x', kids: [] })] })
      const result = await session.client.callTool({ name: 'tree', arguments: { tree: node } })
      expect((result.content as { text: string }[])[0]!.text).toBe('13')
      expect(result.isError).toBeFalsy()
    })
  })
})

describe('a server on one MCP SDK major loads nothing of the other', () => {
  /** The packages a server's bundle imports at run time: every bare import except flatmcp's own, bundled from their built dist. */
  async function packagesImported(entry: string): Promise<string[]> {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [{
        name: 'external-but-flatmcp',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, args => args.path.startsWith('@flatmcp/') || args.path.startsWith('node:') ? undefined : { path: args.path, external: true })
        },
      }],
    })
    const imports = Object.values(result.metafile.outputs).flatMap(output => output.imports.filter(i => i.external).map(i => i.path))
    return [...new Set(imports.map(path => path.split('/').slice(0, path.startsWith('@') ? 2 : 1).join('/')))].sort()
  }

  it.each([
    ['examples/chat-server/src/stdio.ts', '@modelcontextprotocol/sdk', '@modelcontextprotocol/server'],
    ['examples/chat-server/src/stdio-v2.ts', '@modelcontextprotocol/server', '@modelcontextprotocol/sdk'],
    ['examples/chat-server/src/flat-v2.ts', '@modelcontextprotocol/server', '@modelcontextprotocol/sdk'],
  ])('%s imports %s and never %s', async (entry, uses, never) => {
    const imported = await packagesImported(entry)
    expect(imported).toContain(uses)
    expect(imported).not.toContain(never)
    expect(imported).not.toContain('@flatmcp/core')
  })
})

describe('a fetch-handler server on the MCP SDK 2.x (a Worker)', () => {
  it('bundles for a runtime without Node built-ins, and serves a 2026-07-28 client', async () => {
    const work = path.join(ROOT, 'node_modules/.cache/flatmcp-test')
    mkdirSync(work, { recursive: true })
    const source = path.join(work, 'worker-entry.ts')
    const precomputed = toPrecomputed(compileTool({ name: 'echo', input: z.object({ items: z.array(z.string()) }) }))
    writeFileSync(source, `
import { attachCompiled, defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { z } from 'zod'
const echo = defineTool({ name: 'echo', input: z.object({ items: z.array(z.string()) }), handler: input => input.items.join('+') })
attachCompiled(echo, ${JSON.stringify(precomputed)})
const handler = createMcpHandler(request => createMcpServer([echo], { name: 'worker', version: '1.0.0' }, { request }))
export default { fetch: (request: Request) => handler.fetch(request) }
`)
    // platform "browser" resolves no `node:` import: one would fail the build.
    const outfile = path.join(mkdtempSync(path.join(os.tmpdir(), 'flatmcp-worker-')), 'worker.mjs')
    await build({ absWorkingDir: ROOT, entryPoints: [source], bundle: true, platform: 'browser', conditions: ['workerd', 'worker', 'browser'], format: 'esm', outfile, logLevel: 'silent' })
    expect(readFileSync(outfile, 'utf8')).not.toMatch(/from\s*["']node:/)
    const worker = (await import(pathToFileURL(outfile).href) as { default: { fetch: (request: Request) => Promise<Response> } }).default
    const client = new Client({ name: 'worker-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(new URL('http://worker.test/mcp'), { fetch: (url, init) => worker.fetch(new Request(url, init)) }))
    const result = await client.callTool({ name: 'echo', arguments: { items: '["a","b"]' } })
    expect((result.content as { text: string }[])[0]!.text).toBe('a+b')
    await client.close()
  })
})
