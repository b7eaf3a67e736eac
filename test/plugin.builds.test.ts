// The example server built by every bundler through its own command line (rolldown and rspack through
// their JS APIs): byte-identical artifacts, no compiler in the bundles, and each built server served
// to a real SDK client without compiling anything.
import type { Connected } from './support/client'
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { compileTool, TARGET_NAMES } from '@flatmcp/core'
import { toPrecomputed } from '@flatmcp/runtime'
import { definitionTokens, loadTokenizer } from 'unplugin-flatmcp/internal'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as chat from '../examples/chat-server/src/chat.tools'
import { packageEntries } from '../scripts/entries'
import { connectStdio, connectStdioV2, ROOT } from './support/client'
import { SLOW } from './support/timeouts'

const run = promisify(execFile)
const EXAMPLE = path.join(ROOT, 'examples/chat-server')
/** Each bundler the plugin has an entry for (`unplugin-flatmcp/vite`, …; not `/internal`), each built by the example's `build:<bundler>` script. */
const BUNDLERS = packageEntries('unplugin').map(entry => entry.specifier.split('/').slice(1)).filter(parts => parts.length === 1 && parts[0] !== 'internal').map(([bundler]) => bundler!)
const artifactOf = (bundler: string, module = 'chat'): string => readFileSync(path.join(EXAMPLE, `dist/${bundler}/src/${module}.tools.mcp.json`), 'utf8')
/** Every JavaScript file a bundler wrote (entries and their chunks), as one text. */
const bundleOf = (bundler: string): string => (readdirSync(path.join(EXAMPLE, `dist/${bundler}`), { recursive: true, encoding: 'utf8' }) as string[])
  .filter(file => /\.(m?js)$/.test(file))
  .map(file => readFileSync(path.join(EXAMPLE, `dist/${bundler}`, file), 'utf8'))
  .join('\n')

beforeAll(async () => {
  await loadTokenizer()
  for (const bundler of BUNDLERS)
    await run('npm', ['run', '-s', `build:${bundler}`], { cwd: EXAMPLE, env: { ...process.env, NODE_OPTIONS: '' } })
}, SLOW)

describe('artifacts', () => {
  it.each(['chat', 'flat'])('every bundler emits the same bytes for src/%s.tools.ts', (module) => {
    const reference = artifactOf('esbuild', module)
    for (const bundler of BUNDLERS)
      expect(artifactOf(bundler, module), bundler).toBe(reference)
  })

  it('hold each tool exactly as the compiler makes it, and what the runtime needs', () => {
    const artifact = JSON.parse(artifactOf('vite'))
    const profiles = TARGET_NAMES
    const tools = Object.values(chat).map(tool => toPrecomputed(compileTool(tool), profiles.map(profile => compileTool(tool, { profile }))))
    expect(artifact.tools).toEqual(tools.map(t => t.tool).sort((a, b) => a.name.localeCompare(b.name)))
    for (const tool of tools)
      expect(artifact.runtime[tool.tool.name].profiles).toEqual(tool.profiles)
    expect(artifact.module).toBe('src/chat.tools.ts')
    expect(artifact.options).toEqual({ profile: 'portable', profiles: [...profiles], coercion: true, extend: null })
    expect(artifact.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    // Each tool's tokens in every profile are those of its definition as listed there.
    for (const tool of tools) {
      const listed = { ...tool.tool, inputSchema: tool.tool.inputSchema }
      expect(artifact.tokens[tool.tool.name].portable).toBe(definitionTokens(listed))
      for (const profile of profiles)
        expect(artifact.tokens[tool.tool.name][profile]).toBe(definitionTokens({ ...listed, inputSchema: tool.profiles![profile]!.inputSchema }))
      expect(artifact.tokens[tool.tool.name].original).toBeGreaterThan(0)
    }
    expect(artifact.runtime.send_message).toMatchObject({ export: 'sendMessage', discriminator: 'kind' })
    expect(artifactOf('vite').endsWith('}\n')).toBe(true)
  })
})

describe('bundles', () => {
  it.each(BUNDLERS)('%s: no compiler and no zod → JSON Schema conversion inside', (bundler) => {
    const bundle = bundleOf(bundler)
    for (const marker of ['flattenSchema', 'joinSchemas', 'planCoercion', 'toOriginalSchema', 'toJSONSchema'])
      expect(bundle).not.toContain(marker)
    expect(bundle).not.toMatch(/from\s*["']@flatmcp\/core["']/)
    expect(bundle).toContain('registerPrecomputed')
  })
})

describe.each(BUNDLERS)('the %s build, run', (bundler) => {
  let session: Connected
  beforeAll(async () => {
    session = await connectStdio(process.execPath, [path.join(EXAMPLE, `dist/${bundler}/server.mjs`)], EXAMPLE)
  })
  afterAll(async () => {
    await session?.close()
  })

  it('serves the precomputed flat schemas and repairs a double-serialized call, compiling nothing', async () => {
    const { tools } = await session.client.listTools()
    const artifact = JSON.parse(artifactOf(bundler))
    expect(tools).toEqual(artifact.tools)
    const result = await session.client.callTool({ name: 'send_message', arguments: { kind: 'mediaGroup', media: JSON.stringify([{ url: 'https://x.test/1' }, { url: 'https://x.test/2' }]) } })
    expect((result.content as { text: string }[])[0]!.text).toBe('sent 2 files')
    const wrong = await session.client.callTool({ name: 'update_chat', arguments: { chatId: 'c', action: 'archive' } })
    expect(wrong.isError).toBe(true)
    expect(session.stderr()).not.toContain('compiling at start-up')
  })
})

describe.each(BUNDLERS)('the %s build of the SDK 2.x McpServer with flat(), run with a 2.x client', (bundler) => {
  it('serves the precomputed flat schema and repairs a call, compiling nothing', async () => {
    const session = await connectStdioV2(process.execPath, [path.join(EXAMPLE, `dist/${bundler}/flat-v2.mjs`)], EXAMPLE)
    try {
      const { tools } = await session.client.listTools()
      expect(tools[0]!.inputSchema).toEqual(JSON.parse(artifactOf(bundler, 'flat')).flat[0].inputSchema)
      const result = await session.client.callTool({ name: 'send', arguments: { kind: 'mediaGroup', media: JSON.stringify([{ url: 'u' }]) } })
      expect(result.content).toEqual([{ type: 'text', text: 'sent 1 files' }])
      expect(session.stderr()).not.toMatch(/compiling/)
    }
    finally {
      await session.close()
    }
  })
})

describe('the Vite build of createMcpServer on the SDK 2.x, run with a 2.x client', () => {
  it('serves the precomputed tools, compiling nothing', async () => {
    const session = await connectStdioV2(process.execPath, [path.join(EXAMPLE, 'dist/vite/server-v2.mjs')], EXAMPLE)
    try {
      const { tools } = await session.client.listTools()
      expect(tools).toEqual(JSON.parse(artifactOf('vite')).tools)
      const result = await session.client.callTool({ name: 'update_chat', arguments: JSON.stringify({ chatId: 'c2', action: 'mute' }) as never })
      expect(result.content).toEqual([{ type: 'text', text: 'mute c2' }])
      expect(session.stderr()).not.toMatch(/compiling/)
    }
    finally {
      await session.close()
    }
  })
})
