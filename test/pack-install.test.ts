// The packages as a user gets them: packed the way publishing packs them, installed with plain npm into
// a fresh project outside the workspace, type-checked under each module resolution with strict flags,
// built with the README's Vite and esbuild snippets, and served to a real SDK client.
import type * as Esbuild from 'esbuild'
import type { Connected } from './support/client'
import { execFile, execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectStdio, ROOT } from './support/client'
import { atScale, FULL } from './support/full'
import { quickStartFiles, quickStartInstallLines, readmeSnippet } from './support/readme'
import { SLOW } from './support/timeouts'

const run = promisify(execFile)
/** The version of a package the workspace itself installs. */
const devVersion = (name: string): string => (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[name]!
/** The packages' one version. */
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }).version
const { packageManager } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
/**
 * How every install here runs: quietly, and from npm's cache where it holds a registry package (the
 * installs of a run take the same versions), asking the registry only for what it does not hold.
 */
const INSTALL = ['--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline']

/** Runs a command; on failure, its output is the error. */
async function sh(command: string, args: string[], cwd: string): Promise<{ code: number, output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, output: stdout + stderr }
  }
  catch (error) {
    const e = error as { code?: number, stdout?: string, stderr?: string, message: string }
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}` }
  }
}

const STRICT_FLAGS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
  target: 'ES2022',
  lib: ['ES2023'],
}
/** tsc runs of a consumer's code (about 40 s each); arethetypeswrong checks every resolution mode in each run. */
const RESOLUTIONS = atScale({ nodenext: 'nodenext' }, { bundler: 'preserve', node16: 'node16', nodenext: 'nodenext' } as Record<string, string>)

/** A consumer's own code: the handler's union narrowing, the context type, every entry it imports. */
const TYPED = `import type { CoercionPlan } from '@flatmcp/runtime/coerce'
import { defineTool, flat } from '@flatmcp/runtime'
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/sdk'
import { coerceArgs } from '@flatmcp/runtime/coerce'
import { readArtifact } from '@flatmcp/runtime/artifact'
import { assertProbe } from 'flatmcp'
import flatmcpEsbuild from 'unplugin-flatmcp/esbuild'
import flatmcpVite from 'unplugin-flatmcp/vite'
import { z } from 'zod'

declare module '@flatmcp/runtime' {
  interface Register { context: { user: string } }
}

export const send = defineTool({
  name: 'send',
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('media'), urls: z.array(z.string()) }),
  ]),
  handler: (input, { context }) => input.kind === 'text' ? \`\${context.user}: \${input.text}\` : String(input.urls.length),
})

const plan: CoercionPlan = { properties: { urls: { parse: 'array' } } }
export const fixed: unknown = coerceArgs({ urls: '["a"]' }, plan)
export const listed: number = readArtifact('{"tools":[],"runtime":{}}').tools.length
export const server = createMcpServer([send], { name: 'consumer', version: '1.0.0' })
export const transport = new StdioTransport(process.stdin, process.stdout, { maxMessageBytes: 1024 })
export const plugins = [flatmcpVite({ profile: 'portable' }), flatmcpEsbuild()]
export const check = (): Promise<unknown> => assertProbe({ paths: ['dist'] })
export const sendInput = flat(send.input, { name: 'send' })
export const accepted: 'text' | 'media' | undefined = (sendInput['~standard'].types?.output)?.kind
`

/** The same tool, misused: `text` exists on one variant only. */
const MISUSED = `import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'

export const send = defineTool({
  name: 'send',
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string() }),
    z.object({ kind: z.literal('media'), urls: z.array(z.string()) }),
  ]),
  handler: input => input.text,
})
`

let consumer: string
/** What `npm run pack` printed. */
let packOutput = ''

beforeAll(async () => {
  consumer = mkdtempSync(path.join(os.tmpdir(), 'flatmcp-consumer-'))
  const tarballs = path.join(consumer, 'tarballs')
  mkdirSync(tarballs)
  // What `npm run pack` does once the packages are built.
  const packed = await sh(process.execPath, [path.join(ROOT, 'scripts/pack.mjs'), tarballs], ROOT)
  expect(packed.code, packed.output).toBe(0)
  packOutput = packed.output
  expect(readdirSync(tarballs).filter(file => file.endsWith('.tgz')).sort()).toEqual(['flatmcp', 'flatmcp-core', 'flatmcp-runtime', 'unplugin-flatmcp'].map(name => `${name}-${VERSION}.tgz`))
  expect(readdirSync(path.join(tarballs, 'standalone'))).toEqual([`flatmcp-${VERSION}.tgz`])
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({
    name: 'consumer',
    private: true,
    type: 'module',
    dependencies: { '@flatmcp/runtime': tarball('flatmcp-runtime-'), '@modelcontextprotocol/sdk': '^1.24.0', '@modelcontextprotocol/server': '^2.4.0', 'zod': '^4.2.0' },
    devDependencies: {
      '@flatmcp/core': tarball('flatmcp-core-'),
      'unplugin-flatmcp': tarball('unplugin-flatmcp-'),
      'flatmcp': tarball('flatmcp-'),
      'vite': devVersion('vite'),
      'esbuild': devVersion('esbuild'),
      'typescript': devVersion('typescript'),
      '@types/node': devVersion('@types/node'),
    },
  }, null, 2))
  const installed = await sh(npm, ['install', ...INSTALL], consumer)
  expect(installed.code, installed.output).toBe(0)
  cpSync(path.join(ROOT, 'examples/chat-server/src'), path.join(consumer, 'src'), { recursive: true, filter: source => !source.endsWith('http.ts') })
  mkdirSync(path.join(consumer, 'typed'))
  writeFileSync(path.join(consumer, 'typed/consumer.ts'), TYPED)
  mkdirSync(path.join(consumer, 'misused'))
  writeFileSync(path.join(consumer, 'misused/consumer.ts'), MISUSED)
}, SLOW)

afterAll(() => {
  if (consumer)
    rmSync(consumer, { recursive: true, force: true })
})

/** The `file:` dependency on the packed tarball whose name starts with `prefix`. */
function tarball(prefix: string): string {
  const tarballs = path.join(consumer, 'tarballs')
  return `file:${path.join(tarballs, readdirSync(tarballs).find(f => f.startsWith(prefix) && f.endsWith('.tgz'))!)}`
}

/**
 * Runs `body` in a fresh project outside the workspace with `dependencies` installed by npm
 * (`flags` added to its install), removed afterwards whatever happens.
 */
async function inThrowawayProject(name: string, dependencies: Record<string, string>, flags: string[], body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `flatmcp-${name}-`))
  try {
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies }))
    const installed = await sh(npm, ['install', ...INSTALL, ...flags], dir)
    expect(installed.code, installed.output).toBe(0)
    await body(dir)
  }
  finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('packed and installed with npm', () => {
  it('installs without workspace links, with declarations and no sources in the packages', () => {
    for (const name of ['@flatmcp/core', '@flatmcp/runtime', 'unplugin-flatmcp', 'flatmcp']) {
      const dir = path.join(consumer, 'node_modules', name)
      const manifest = readFileSync(path.join(dir, 'package.json'), 'utf8')
      expect(manifest).not.toContain('workspace:')
      expect(manifest).not.toContain('flatmcp-source')
      expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'dist', 'package.json']))
      expect(readdirSync(dir)).not.toContain('src')
      expect(readdirSync(path.join(dir, 'dist')).some(f => f.endsWith('.d.mts'))).toBe(true)
    }
    // The compiler is an optional peer of the runtime: its declarations carry the types they name.
    const runtimeDist = path.join(consumer, 'node_modules/@flatmcp/runtime/dist')
    const declarations = readdirSync(runtimeDist).filter(f => f.endsWith('.d.mts')).map(f => readFileSync(path.join(runtimeDist, f), 'utf8'))
    expect(declarations.filter(text => /from ["']@flatmcp\/core["']/.test(text))).toEqual([])
  })

  it.each(['flatmcp-core-', 'flatmcp-runtime-', 'unplugin-flatmcp-', 'flatmcp-0'])('%s: arethetypeswrong (ESM only) and publint find nothing', async (prefix) => {
    const tarballs = path.join(consumer, 'tarballs')
    const tarball = path.join(tarballs, readdirSync(tarballs).find(f => f.startsWith(prefix))!)
    const attw = await sh(process.execPath, [path.join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only', '--format', 'ascii'], ROOT)
    expect(attw.code, attw.output).toBe(0)
    const publint = await sh(process.execPath, [path.join(ROOT, 'node_modules/publint/src/cli.js'), tarball, '--strict'], ROOT)
    expect(publint.code, publint.output).toBe(0)
    expect(publint.output).toContain('All good!')
  }, SLOW)

  it.each(Object.entries(RESOLUTIONS))('type-checks under moduleResolution %s with strict flags; a misused union fails', async (resolution, module) => {
    const tsc = path.join(consumer, 'node_modules/typescript/bin/tsc')
    const config = (dir: string): string => {
      const file = path.join(consumer, `tsconfig.${dir}.${resolution}.json`)
      writeFileSync(file, JSON.stringify({ compilerOptions: { ...STRICT_FLAGS, module, moduleResolution: resolution }, include: [`${dir}/*.ts`] }))
      return file
    }
    // Declarations are checked (skipLibCheck off): no error may come from flatmcp's packages or the
    // consumer's code. Other packages' own declarations (the SDK wants DOM types, unplugin names bundlers
    // not installed) are theirs to answer for.
    const typed = await sh(process.execPath, [tsc, '-p', config('typed')], consumer)
    const ours = typed.output.split('\n').filter(line => /^(typed\/|node_modules\/(@flatmcp\/|unplugin-flatmcp\/|flatmcp\/))/.test(line))
    expect(ours).toEqual([])
    expect(typed.output).not.toMatch(/^typed\//m)
    const misused = await sh(process.execPath, [tsc, '-p', config('misused')], consumer)
    expect(misused.code).not.toBe(0)
    expect(misused.output).toMatch(/misused\/consumer\.ts\(10,\d+\): error TS2339: Property 'text' does not exist/)
  }, SLOW)

  it('the standalone coercer bundles from the package with nothing else in it', async () => {
    writeFileSync(path.join(consumer, 'coerce-only.mjs'), `import { coerceArgs } from '@flatmcp/runtime/coerce'\nexport default coerceArgs\n`)
    const { build } = await import(pathToFileURL(path.join(consumer, 'node_modules/esbuild/lib/main.js')).href) as typeof Esbuild
    const result = await build({ absWorkingDir: consumer, entryPoints: ['coerce-only.mjs'], bundle: true, minify: true, platform: 'neutral', format: 'esm', write: false, metafile: true })
    const inputs = Object.keys(result.metafile.inputs).filter(input => input !== 'coerce-only.mjs')
    expect(inputs.length).toBeGreaterThan(0)
    expect(inputs.filter(input => !input.startsWith('node_modules/@flatmcp/runtime/dist/'))).toEqual([])
    expect(result.outputFiles[0]!.text).toContain('JSON.parse')
    // Its size is what the README promises (a byte count, not a time: the same on every machine);
    // the compiled pass sharing its chunk once left its own copies of the bounds in this bundle.
    expect(gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length).toBeLessThanOrEqual(1024)
  })

  it('npm run pack prints the Quick start\'s install lines, the flatmcp packages\' names replaced by their tarballs', () => {
    const names: Record<string, string> = { 'flatmcp-runtime': '@flatmcp/runtime', 'flatmcp-core': '@flatmcp/core', 'unplugin-flatmcp': 'unplugin-flatmcp', 'flatmcp': 'flatmcp' }
    const named = (word: string): string => {
      const packed = new RegExp(`^(.+)-${VERSION.replace(/\./g, '\\.')}\\.tgz$`).exec(path.basename(word))
      return packed ? names[packed[1]!] ?? word : word
    }
    const words = (line: string): string => line.trim().split(/\s+/).map(named).sort().join(' ')
    const quickStart = quickStartInstallLines()
    expect(quickStart).toHaveLength(2)
    const printed = packOutput.split('\n').filter(line => /^\s+npm i (?!-g)/.test(line))
    expect(printed.map(words)).toEqual(quickStart.map(words))
  })

  it('the Quick start, followed in a fresh project from the packed tarballs: vite build says what it built, a client lists the flat tool and a call is served', async () => {
    const files = quickStartFiles()
    expect(Object.keys(files).sort()).toEqual(['src/send.tools.ts', 'src/server.ts', 'tsconfig.json', 'vite.config.ts'])
    const dependencies = { '@flatmcp/runtime': tarball('flatmcp-runtime-'), '@modelcontextprotocol/server': '^2.4.0', 'zod': '^4.2.0', '@flatmcp/core': tarball('flatmcp-core-'), 'unplugin-flatmcp': tarball('unplugin-flatmcp-'), 'flatmcp': tarball('flatmcp-'), 'vite': devVersion('vite'), 'typescript': devVersion('typescript') }
    await inThrowawayProject('quick-start', dependencies, [], async (dir) => {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
        writeFileSync(path.join(dir, file), text)
      }
      // `npx tsc` with the Quick start's tsconfig.json: its imports resolve as Vite's do.
      const typed = await sh(path.join(dir, 'node_modules/.bin/tsc'), [], dir)
      expect(typed.code, typed.output).toBe(0)
      const built = await sh(path.join(dir, 'node_modules/.bin/vite'), ['build'], dir)
      expect(built.code, built.output).toBe(0)
      // The summary line the README shows, as the build prints it.
      const shown = /a line such as `(flatmcp: [^`]+)`/.exec(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))![1]!.replace(/\s+/g, ' ')
      expect(built.output.split('\n')).toContain(shown)
      const session = await connectStdio(process.execPath, ['dist/server.js'], dir)
      try {
        const { tools } = await session.client.listTools()
        expect(tools.map(tool => tool.name)).toEqual(['send'])
        expect(JSON.stringify(tools)).not.toMatch(/"(oneOf|anyOf)"/)
        expect((await session.client.callTool({ name: 'send', arguments: { kind: 'album', urls: '["a","b"]' } })).content).toEqual([{ type: 'text', text: 'sent 2 files' }])
        expect(session.stderr()).not.toContain('compiling at start-up')
      }
      finally {
        await session.close()
      }
    })
  }, SLOW)

  it.each(['vite.config.ts', 'esbuild.config.mjs'])('builds with the README\'s %s and serves a real SDK client', async (configFile) => {
    writeFileSync(path.join(consumer, configFile), readmeSnippet(configFile))
    const bundler = configFile.startsWith('vite') ? 'vite' : 'esbuild'
    const built = bundler === 'vite'
      ? await sh(process.execPath, [path.join(consumer, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], consumer)
      : await sh(process.execPath, [configFile], consumer)
    expect(built.code, built.output).toBe(0)
    const artifact = JSON.parse(readFileSync(path.join(consumer, `dist/${bundler}/src/chat.tools.mcp.json`), 'utf8')) as { tools: { name: string }[] }
    expect(artifact.tools.map(t => t.name)).toContain('send_message')

    let session: Connected | undefined
    try {
      session = await connectStdio(process.execPath, [`dist/${bundler}/server.mjs`], consumer)
      const { tools } = await session.client.listTools()
      expect(JSON.stringify(tools)).not.toMatch(/"(oneOf|anyOf)"/)
      const media = JSON.stringify([{ url: 'https://x.test/a.png' }, JSON.stringify({ url: 'https://x.test/b.png' })])
      const result = await session.client.callTool({ name: 'send_message', arguments: { kind: 'mediaGroup', media } })
      expect(result.content).toEqual([{ type: 'text', text: 'sent 2 files' }])
      expect(session.stderr()).not.toContain('compiling at start-up')
    }
    finally {
      await session?.close()
    }
  }, SLOW)

  it(`build errors name file, line and column with TypeScript 5.9, with none installed${FULL ? ', and with TypeScript 7 (no JavaScript API)' : ''}`, async () => {
    const bad = `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\n\nexport const schedule = defineTool({\n  name: 'schedule',\n  input: z.object({ at: z.date() }),\n  handler: () => 'ok',\n})\n`
    const expected = /^flatmcp: bad\/date\.tools\.ts:6:25: export "schedule", tool "schedule", input at \/properties\/at: /m
    const buildIn = async (dir: string): Promise<string> => {
      mkdirSync(path.join(dir, 'bad'), { recursive: true })
      writeFileSync(path.join(dir, 'bad/date.tools.ts'), bad)
      const built = await sh(path.join(dir, 'node_modules/.bin/flatmcp'), ['build', 'bad/date.tools.ts'], dir)
      expect(built.code, built.output).toBe(1)
      return built.output
    }
    expect(await buildIn(consumer)).toMatch(expected)
    const all = { '@flatmcp/runtime': tarball('flatmcp-runtime-'), '@flatmcp/core': tarball('flatmcp-core-'), 'unplugin-flatmcp': tarball('unplugin-flatmcp-'), 'flatmcp': tarball('flatmcp-'), 'zod': '^4.2.0' }
    await inThrowawayProject('no-ts', all, [], async (dir) => {
      expect(existsSync(path.join(dir, 'node_modules/typescript'))).toBe(false)
      expect(await buildIn(dir)).toMatch(expected)
      // TypeScript 7 has no JavaScript API either, as with none installed: one more install, in the full run.
      if (!FULL)
        return
      const ts7 = await sh(npm, ['install', ...INSTALL, '-D', 'typescript@7.0.2'], dir)
      expect(ts7.code, ts7.output).toBe(0)
      expect(await buildIn(dir)).toMatch(expected)
    })
  }, SLOW)

  it('without @flatmcp/core, an unbuilt schema fails with the package to install, and no file paths (the message can reach a client)', async () => {
    await inThrowawayProject('no-core', { '@flatmcp/runtime': tarball('flatmcp-runtime-'), 'zod': '^4.2.0' }, ['--omit=peer'], async (dir) => {
      expect(existsSync(path.join(dir, 'node_modules/@flatmcp/core'))).toBe(false)
      const script = `import { flat } from '@flatmcp/runtime'
import { z } from 'zod'
try { flat(z.object({ q: z.string() }), { name: 'search' })['~standard'].jsonSchema.input({ target: 'draft-07' }) }
catch (error) { console.log(error.message) }
`
      // Without the NODE_PATH the test runner's bin shim sets, which resolves the workspace's packages.
      const { stdout: printed } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '', NODE_PATH: '' } })
      expect(printed).toMatch(/needs @flatmcp\/core \(in Node 20\.19\+\): Cannot find module '@flatmcp\/core'\. Build with unplugin-flatmcp, or install @flatmcp\/core\./)
      expect(printed).not.toMatch(/Require stack|\/tmp\//)
    })
  }, SLOW)

  it('the standalone flatmcp tarball installs alone (npm i -g, the other packages inside it) and its proxy serves a server flat', async () => {
    const prefix = mkdtempSync(path.join(os.tmpdir(), 'flatmcp-global-'))
    try {
      const installed = await sh(npm, ['install', '--global', '--prefix', prefix, ...INSTALL, path.join(consumer, 'tarballs', 'standalone', `flatmcp-${VERSION}.tgz`)], prefix)
      expect(installed.code, installed.output).toBe(0)
      const bin = path.join(prefix, 'bin', 'flatmcp')
      expect((await sh(bin, ['--version'], prefix)).output.trim()).toBe(VERSION)
      // A server on the SDK 2.x whose one tool takes a union, as its own raw JSON Schema.
      const upstream = path.join(consumer, 'upstream.mjs')
      writeFileSync(upstream, `import { Server } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
const server = new Server({ name: 'union', version: '1.0.0' }, { capabilities: { tools: {} } })
const inputSchema = { type: 'object', properties: { shape: { oneOf: [{ type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] }, { type: 'object', properties: { kind: { const: 'b' }, n: { type: 'number' } }, required: ['kind'] }] } }, required: ['shape'] }
server.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'draw', inputSchema }] }))
server.setRequestHandler('tools/call', async request => ({ content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] }))
await server.connect(new StdioServerTransport())
`)
      const proxied = await connectStdio(bin, ['proxy', '--', process.execPath, upstream], consumer)
      try {
        const [tool] = (await proxied.client.listTools()).tools
        expect(JSON.stringify(tool!.inputSchema)).not.toContain('oneOf')
        const result = await proxied.client.callTool({ name: 'draw', arguments: { shape: '{"kind":"b","n":1}' } }) as { content: { text: string }[] }
        expect(result.content[0]!.text).toBe('{"shape":{"kind":"b","n":1}}')
      }
      finally {
        await proxied.close()
      }
    }
    finally {
      rmSync(prefix, { recursive: true, force: true })
    }
  }, SLOW)

  it('the root entry and flat() work in Node with no MCP SDK installed', async () => {
    await inThrowawayProject('no-sdk', { '@flatmcp/runtime': tarball('flatmcp-runtime-'), '@flatmcp/core': tarball('flatmcp-core-'), 'zod': '^4.2.0' }, [], async (dir) => {
      expect(readdirSync(path.join(dir, 'node_modules'))).not.toContain('@modelcontextprotocol')
      const script = `import { flat } from '@flatmcp/runtime'
import { z } from 'zod'
const input = flat(z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), list: z.array(z.string()) }), z.object({ kind: z.literal('b') })]))
const schema = input['~standard'].jsonSchema.input({ target: 'draft-07' })
const result = input['~standard'].validate({ kind: 'a', list: '["x"]' })
console.log(JSON.stringify({ flat: !JSON.stringify(schema).includes('oneOf'), value: result.value }))
`
      const ran = await sh(process.execPath, ['--input-type=module', '-e', script], dir)
      expect(ran.code, ran.output).toBe(0)
      expect(ran.output).toContain('{"flat":true,"value":{"kind":"a","list":["x"]}}')
    })
  }, SLOW)

  // An install per package manager: in the full run.
  it.runIf(FULL).each([
    ['pnpm', [npx, '--yes', packageManager, 'install', '--no-frozen-lockfile', '--reporter=silent']],
    ['yarn', [npx, '--yes', 'yarn@1.22.22', 'install', '--silent', '--no-lockfile', '--cache-folder', '.yarn-cache']],
  ] as const)('installs with %s too: every entry imports and the command runs', async (manager, [command, ...args]) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `flatmcp-${manager}-`))
    try {
      const tarballs = path.join(consumer, 'tarballs')
      // Local tarballs stand in for the registry: each package's own dependencies on the others too.
      const local = Object.fromEntries(readdirSync(tarballs).filter(file => file.endsWith('.tgz')).map(file => [JSON.parse(execFileSync('tar', ['-xzOf', path.join(tarballs, file), 'package/package.json'], { encoding: 'utf8' })).name as string, `file:${path.join(tarballs, file)}`]))
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
        name: `${manager}-consumer`,
        private: true,
        type: 'module',
        dependencies: { ...local, 'zod': '^4.2.0', '@modelcontextprotocol/sdk': '^1.24.0' },
        resolutions: local,
        pnpm: { overrides: local },
      }))
      const installed = await sh(command, [...args], dir)
      expect(installed.code, installed.output).toBe(0)
      const entries = ['@flatmcp/core', '@flatmcp/runtime', '@flatmcp/runtime/coerce', '@flatmcp/runtime/artifact', '@flatmcp/runtime/sdk', '@flatmcp/runtime/proxy/fetch', 'unplugin-flatmcp', 'unplugin-flatmcp/vite', 'unplugin-flatmcp/esbuild', 'flatmcp']
      const imported = await sh(process.execPath, ['--input-type=module', '-e', `for (const entry of ${JSON.stringify(entries)}) { const m = await import(entry); if (Object.keys(m).length === 0) throw new Error(entry) }`], dir)
      expect(imported.code, imported.output).toBe(0)
      const version = await sh(path.join(dir, 'node_modules/.bin/flatmcp'), ['--version'], dir)
      expect(version.output.trim()).toBe(VERSION)
    }
    finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, SLOW)
})
