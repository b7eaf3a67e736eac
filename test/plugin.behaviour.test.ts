// The plugin on throwaway projects: the cache, esbuild's output modes, rebuilds and watchers, the
// Vite dev server, shared extend fields, and build errors that name file, line, export, tool and path.
import type { RollupWatcher } from 'rollup'
import type { TargetProfile } from '@flatmcp/core'
import type { FixtureProject } from './support/fixture-project'
import { targetRules } from '@flatmcp/core'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { inspect, promisify } from 'node:util'
import { build, context } from 'esbuild'
import { rollup, watch } from 'rollup'
import flatmcpDefault from 'unplugin-flatmcp'
import flatmcpEsbuild from 'unplugin-flatmcp/esbuild'
import flatmcpRollup from 'unplugin-flatmcp/rollup'
import flatmcpVite from 'unplugin-flatmcp/vite'
import { createServer } from 'vite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtureProject } from './support/fixture-project'

/** A tool module that counts its evaluations in a file, and imports a schema from another file. */
function toolsProject(name: string): FixtureProject {
  return fixtureProject(name, {
    'src/shared.ts': `import { z } from 'zod'\nexport const Item = z.object({ id: z.string() })\n`,
    'src/a.tools.ts': `import { appendFileSync } from 'node:fs'
import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'
import { Item } from './shared'

appendFileSync(new URL('../evaluations.log', import.meta.url.replace(/node_modules\\/.*$/, 'x/')), 'x')

export const pick = defineTool({
  name: 'pick',
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('one'), item: Item }),
    z.object({ kind: z.literal('many'), item: z.array(Item) }),
  ]),
  handler: input => input.kind,
})
`,
    'src/main.ts': `import { pick } from './a.tools'\nconsole.log(pick.name)\n`,
  })
}

const projects: FixtureProject[] = []
function project(name: string, files?: Record<string, string>): FixtureProject {
  const created = files ? fixtureProject(name, files) : toolsProject(name)
  projects.push(created)
  return created
}
afterEach(() => {
  for (const p of projects.splice(0))
    p.remove()
})

const evaluations = (p: FixtureProject): number => existsSync(path.join(p.root, 'evaluations.log')) ? p.read('evaluations.log').length : 0

async function esbuildProject(p: FixtureProject, extra: Parameters<typeof build>[0] = {}): Promise<Awaited<ReturnType<typeof build>>> {
  return build({
    absWorkingDir: p.root,
    entryPoints: ['src/main.ts'],
    outdir: 'dist',
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [flatmcpEsbuild({ root: p.root })],
    ...extra,
  })
}

describe('cache', () => {
  it('a warm build skips evaluation; editing an imported file evaluates again', async () => {
    const p = project('cache')
    await esbuildProject(p)
    expect(evaluations(p)).toBe(1)
    const first = p.read('dist/src/a.tools.mcp.json')
    await esbuildProject(p)
    expect(evaluations(p)).toBe(1)
    expect(p.read('dist/src/a.tools.mcp.json')).toBe(first)
    p.write('src/shared.ts', `import { z } from 'zod'\nexport const Item = z.object({ id: z.string(), size: z.number() })\n`)
    await esbuildProject(p)
    expect(evaluations(p)).toBe(2)
    const second = JSON.parse(p.read('dist/src/a.tools.mcp.json'))
    expect(second.tools[0].inputSchema.properties.item.properties.size).toEqual({ type: 'number' })
    expect(second.hash).not.toBe(JSON.parse(first).hash)
  })
})

describe('cache keys of profiles of one\'s own', () => {
  it('a rule made with other options is a miss: splitKinds() then splitKinds(true)', async () => {
    const p = project('cache-rules', {
      'src/main.ts': `import './a.tools'\n`,
      'src/a.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const t = defineTool({ name: 't', input: z.object({ v: z.union([z.string(), z.number()]) }), handler: () => 'ok' })\n`,
    })
    const mine = async (always: boolean): Promise<unknown> => {
      const profile: TargetProfile = { name: 'mine', rules: [targetRules.splitKinds(always)] }
      await esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, profiles: ['portable', profile] })] })
      return JSON.parse(p.read('dist/src/a.tools.mcp.json')).runtime.t.profiles.mine.inputSchema.properties.v
    }
    expect(await mine(false)).toEqual({ type: ['string', 'number'] })
    // Split into one branch per kind only when told so.
    expect(await mine(true)).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'number' }] })
  })
})

describe('tool discovery', () => {
  const tool = (name: string): string => `defineTool({ name: '${name}', input: z.object({ q: z.string() }), handler: () => '${name}' })`
  const header = `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\n`

  it('finds tools in arrays, plain objects and the default export, each once', async () => {
    const p = project('discovery', {
      'src/a.tools.ts': `${header}export const single = ${tool('single')}\nexport const tools = [single, ${tool('listed')}]\nexport const byName = { named: ${tool('named')}, note: 'not a tool' }\nexport default [${tool('defaulted')}]\n`,
      'src/main.ts': `import * as a from './a.tools'\nconsole.log(Object.keys(a))\n`,
    })
    const result = await esbuildProject(p)
    expect(result.warnings).toEqual([])
    const artifact = JSON.parse(p.read('dist/src/a.tools.mcp.json'))
    expect(Object.fromEntries(Object.entries(artifact.runtime).map(([name, data]) => [name, (data as { export: string }).export])))
      .toEqual({ single: 'single', defaulted: 'default[0]', named: 'byName.named', listed: 'tools[1]' })
    expect(p.read('dist/main.js')).toContain('"defaulted"')
  })

  it('a module that yields no tool is a warning naming it, and an error with failOn: warning', async () => {
    const p = project('no-tools', {
      'src/empty.tools.ts': `export const helper = 1\n`,
      'src/main.ts': `import { helper } from './empty.tools'\nconsole.log(helper)\n`,
    })
    const result = await esbuildProject(p)
    expect(result.warnings.map(w => w.text).join('\n')).toMatch(/src\/empty\.tools\.ts exports no tool made with defineTool/)
    await expect(esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, failOn: 'warning' })] })).rejects.toThrow(/src\/empty\.tools\.ts exports no tool/)
  })

  it('an include that matches no module is a warning at the end of the build (rollup and esbuild), and an error with failOn: warning', async () => {
    const p = project('nothing-matched', {
      'src/chat.ts': `${header}export const pick = ${tool('pick')}\n`,
      'src/main.ts': `import { pick } from './chat'\nconsole.log(pick.name)\n`,
    })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      await esbuildProject(p)
      const bundle = await rollup({ input: path.join(p.root, 'src/main.ts'), external: id => !id.startsWith('.') && !path.isAbsolute(id), plugins: [flatmcpRollup({ root: p.root }), (await import('rollup-plugin-esbuild')).default()], logLevel: 'silent' })
      await bundle.close()
      const said = warn.mock.calls.map(call => String(call[0]))
      expect(said).toHaveLength(2)
      for (const line of said)
        expect(line).toMatch(/^\[unplugin-flatmcp\] no module matched the plugin's `include` \(\/\\\.tools\\\.\(\?:ts\|mts\|js\|mjs\)\$\/\): no tool was precomputed/)
      await expect(esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, failOn: 'warning' })] })).rejects.toThrow(/no module matched the plugin's `include`/)
    }
    finally {
      warn.mockRestore()
    }
  })
})

describe('what a build says', () => {
  const widening = `import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'
export const loose = defineTool({
  name: 'loose',
  input: z.object({ data: z.unknown(), 'bad key': z.string() }),
  handler: () => 'ok',
})
`
  const files = { 'src/a.tools.ts': widening, 'src/main.ts': `import { loose } from './a.tools'\nconsole.log(loose.name)\n` }
  const DATA = 'src/a.tools.ts:5:27: export "loose", tool "loose", input at /properties/data: untyped-leaf: no type: advertised as any JSON value (clients may send it as a JSON string)'
  const KEY = 'src/a.tools.ts:5:51: export "loose", tool "loose", input at /properties/bad key: target-limit (gemini): Gemini takes parameter names of letters, digits and "_" (64 at most, not starting with a digit); "bad key" may be rejected'

  it('shows each warning at its file, line and column (one said in some profiles names them), then one summary line; quiet shows neither', async () => {
    const p = project('says', files)
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const result = await esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, profiles: ['portable', 'openai-strict', 'gemini'] })] })
      expect(result.warnings.map(w => w.text)).toEqual([DATA, KEY])
      const summary = log.mock.calls.map(call => String(call[0])).filter(line => line.startsWith('flatmcp:'))
      expect(summary).toHaveLength(1)
      expect(summary[0]).toMatch(/^flatmcp: 1 module, 1 tool, 1 artifact; tokens portable \d+, openai-strict \d+, gemini \d+ \(original \d+\); 2 warnings$/)
      log.mockClear()
      const quiet = await esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, profiles: ['portable', 'gemini'], quiet: true })] })
      expect(quiet.warnings).toEqual([])
      expect(log).not.toHaveBeenCalled()
      await expect(esbuildProject(p, { plugins: [flatmcpEsbuild({ root: p.root, quiet: true, failOn: 'warning' })] })).rejects.toThrow(/untyped-leaf/)
    }
    finally {
      log.mockRestore()
    }
  })

  it('vite build shows them through its own logger, warm builds too', async () => {
    const p = project('says-vite', files)
    const { build: viteBuild, createLogger } = await import('vite')
    const warned: string[] = []
    const logger = { ...createLogger('silent'), warn: (line: string) => void warned.push(line), warnOnce: (line: string) => void warned.push(line) }
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      for (let round = 0; round < 2; round++) {
        warned.length = 0
        await viteBuild({ root: p.root, configFile: false, customLogger: logger, logLevel: 'warn', plugins: [flatmcpVite({ profiles: ['portable', 'gemini'] })], build: { ssr: 'src/main.ts', outDir: 'dist', write: true } })
        expect(warned.join('\n')).toContain(DATA)
        expect(warned.join('\n')).toContain(KEY)
      }
      expect(log.mock.calls.map(call => String(call[0])).filter(line => line.startsWith('flatmcp:'))).toHaveLength(2)
    }
    finally {
      log.mockRestore()
    }
  })
})

describe('elicitForm() exports', () => {
  it('are compiled at build time, attached to the exported value and listed in the artifact; what no form can hold is a build error at its place', async () => {
    const p = project('form-exports', {
      'src/ask.tools.ts': `import { elicitForm } from '@flatmcp/runtime'
import { z } from 'zod'
export const payment = elicitForm(z.discriminatedUnion('method', [z.object({ method: z.literal('card'), number: z.string() }), z.object({ method: z.literal('invoice'), city: z.string() })]), { name: 'payment' })
`,
      'src/main.ts': `import { payment } from './ask.tools'
console.log(JSON.stringify(payment[Symbol.for('flatmcp.form.compiled')]))
`,
    })
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const result = await esbuildProject(p)
      expect(result.warnings).toEqual([])
      expect(log.mock.calls.map(call => String(call[0])).find(line => line.startsWith('flatmcp:'))).toMatch(/^flatmcp: 1 module, 0 tools, 1 form, 1 artifact/)
    }
    finally {
      log.mockRestore()
    }
    const artifact = JSON.parse(p.read('dist/src/ask.tools.mcp.json'))
    expect(artifact.forms.map((f: { export: string, name: string }) => [f.export, f.name])).toEqual([['payment', 'payment']])
    expect(Object.keys(artifact.forms[0].form.union.rounds)).toEqual(['card', 'invoice'])
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/main.js'], { cwd: p.root })
    expect(JSON.parse(stdout)).toEqual(artifact.forms[0].form)
    p.write('src/ask.tools.ts', `import { elicitForm } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const order = elicitForm(z.object({ items: z.array(z.object({ sku: z.string() })) }))\n`)
    const failed = await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist2', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root })] }).then(() => '', (error: { errors: { text: string }[] }) => error.errors.map(e => e.text).join('\n'))
    expect(failed).toMatch(/^src\/ask\.tools\.ts:3:\d+: export "order", input at \/properties\/items: no elicitation form can ask this: a list of anything but a choice of strings/)
  })
})

describe('flat() exports', () => {
  it('are precomputed and listed in the artifact; one the build cannot reach warns and compiles when first used', async () => {
    const p = project('flat-exports', {
      'src/a.tools.ts': `import { flat } from '@flatmcp/runtime'
import { z } from 'zod'
const Send = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), list: z.array(z.string()) }), z.object({ kind: z.literal('b') })])
export const sendInput = flat(Send, { name: 'send' })
export const inputs = { poll: flat(z.object({ q: z.string() })) }
export default flat(z.object({ d: z.number() }))
`,
      'src/main.ts': `import fallback, { inputs, sendInput } from './a.tools'
for (const schema of [sendInput, inputs.poll, fallback])
  console.log(JSON.stringify(schema['~standard'].jsonSchema.input({ target: 'draft-07' })))
console.log(JSON.stringify(sendInput['~standard'].validate({ kind: 'a', list: '["x"]' })))
`,
    })
    const result = await esbuildProject(p)
    expect(result.warnings.map(w => w.text)).toEqual([expect.stringContaining('the schema exported as "default" is compiled when first used')])
    const artifact = JSON.parse(p.read('dist/src/a.tools.mcp.json'))
    expect(artifact.tools).toEqual([])
    expect(artifact.flat.map((f: { export: string, name: string }) => [f.export, f.name])).toEqual([['default', 'default'], ['sendInput', 'send'], ['inputs.poll', 'inputs.poll']])
    expect(JSON.stringify(artifact.flat[1].inputSchema)).not.toMatch(/oneOf|anyOf/)
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['dist/main.js'], { cwd: p.root })
    const [send, poll, , validated] = stdout.trim().split('\n').map(line => JSON.parse(line))
    expect(send).toEqual(artifact.flat[1].inputSchema)
    expect(poll).toEqual(artifact.flat[2].inputSchema)
    expect(validated).toEqual({ value: { kind: 'a', list: ['x'] } })
    // Only the default export was compiled at run time.
    expect(stderr.match(/compiling it now/g)).toHaveLength(1)
    expect(stderr).toContain('flat() schema "input"')
  })
})

describe('evaluation', () => {
  it('a helper imported by two tool modules runs once per tool module in a cold build, never in a warm one', async () => {
    const p = project('shared-helper')
    p.write('src/helper.ts', `import { appendFileSync } from 'node:fs'\nappendFileSync(new URL('../helper.log', import.meta.url.replace(/node_modules\\/.*$/, 'x/')), 'h')\nexport const note = 'n'\n`)
    p.write('src/b.tools.ts', `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nimport { note } from './helper'\nexport const other = defineTool({ name: 'other', description: note, input: z.object({ a: z.string() }), handler: () => 'ok' })\n`)
    p.write('src/a.tools.ts', `import './helper'\n${p.read('src/a.tools.ts')}`)
    p.write('src/main.ts', `import { pick } from './a.tools'\nimport { other } from './b.tools'\nconsole.log(pick.name, other.name)\n`)
    const runs = (): number => p.read('helper.log').length
    await esbuildProject(p)
    expect(runs()).toBe(2)
    await esbuildProject(p)
    expect(runs()).toBe(2)
    p.write('src/b.tools.ts', p.read('src/b.tools.ts').replace(`'ok'`, `'okay'`))
    await esbuildProject(p)
    expect(runs()).toBe(3)
  })
})

describe('a cache record of the wrong shape is a miss, rewritten by the next build', () => {
  const corruptions: [string, (record: any) => unknown][] = [
    ['not JSON', () => '{"key": '],
    ['no result', record => ({ key: record.key })],
    ['dependencies missing', record => ({ ...record, result: { ...record.result, dependencies: undefined } })],
    ['dependencies not a list', record => ({ ...record, result: { ...record.result, dependencies: 7 } })],
    ['tools not a list', record => ({ ...record, result: { ...record.result, tools: 'pick' } })],
    ['artifact not a string', record => ({ ...record, result: { ...record.result, artifact: { tools: [] } } })],
    ['injected code broken', record => ({ ...record, result: { ...record.result, injected: '}' } })],
    ['artifact edited, shape intact', record => ({ ...record, result: { ...record.result, artifact: record.result.artifact.replace('"pick"', '"tampered"') } })],
    ['null', () => null],
  ]

  it.each(corruptions)('%s', async (_, corrupt) => {
    const p = project(`corrupt-${_.replace(/\W+/g, '-')}`)
    await esbuildProject(p)
    const good = p.read('dist/src/a.tools.mcp.json')
    const dir = path.join(p.root, 'node_modules/.cache/flatmcp/results')
    const record = path.join(dir, readdirSync(dir)[0]!)
    const goodRecord = readFileSync(record, 'utf8')
    const corrupted = corrupt(JSON.parse(goodRecord))
    writeFileSync(record, typeof corrupted === 'string' ? corrupted : JSON.stringify(corrupted))
    await esbuildProject(p)
    expect(p.read('dist/src/a.tools.mcp.json')).toBe(good)
    expect(p.read('dist/main.js')).toContain('"pick"')
    // The module was compiled again and its record rewritten as it was before the damage.
    expect(readFileSync(record, 'utf8')).toBe(goodRecord)
  })
})

describe('esbuild output modes', () => {
  it('with only outfile, the artifact goes beside it', async () => {
    const p = project('outfile')
    await esbuildProject(p, { outdir: undefined, outfile: 'out/server.mjs' })
    expect(JSON.parse(p.read('out/src/a.tools.mcp.json')).tools[0].name).toBe('pick')
  })

  it('with write: false, the artifact is among the output files and nothing is written', async () => {
    const p = project('nowrite')
    const result = await esbuildProject(p, { write: false })
    const artifact = result.outputFiles!.find(f => f.path.endsWith('a.tools.mcp.json'))
    expect(artifact?.path).toBe(path.join(p.root, 'dist/src/a.tools.mcp.json'))
    expect(JSON.parse(artifact!.text).tools[0].name).toBe('pick')
    expect(existsSync(path.join(p.root, 'dist'))).toBe(false)
  })

  it('a rebuild after an edit re-evaluates and refreshes the artifact', async () => {
    const p = project('rebuild')
    const ctx = await context({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root })] })
    try {
      await ctx.rebuild()
      p.write('src/shared.ts', `import { z } from 'zod'\nexport const Item = z.object({ id: z.string(), note: z.string() })\n`)
      await ctx.rebuild()
      expect(JSON.parse(p.read('dist/src/a.tools.mcp.json')).tools[0].inputSchema.properties.item.properties.note).toEqual({ type: 'string' })
    }
    finally {
      await ctx.dispose()
    }
  })
})

/** Polls until `check` passes (file watchers report changes asynchronously). */
async function eventually(check: () => Promise<void> | void, timeout = 20_000): Promise<void> {
  const start = Date.now()
  for (;;) {
    try {
      await check()
      return
    }
    catch (error) {
      if (Date.now() - start > timeout)
        throw error
      await new Promise(resolve => setTimeout(resolve, 100))
    }
  }
}

/** rollup in watch mode on a project's `src/main.ts`, with the plugin; event codes go to `events`. */
async function rollupWatch(p: FixtureProject, events: string[] = []): Promise<RollupWatcher> {
  const watcher = watch({
    input: path.join(p.root, 'src/main.ts'),
    external: id => !id.startsWith('.') && !path.isAbsolute(id),
    plugins: [flatmcpRollup({ root: p.root }), (await import('rollup-plugin-esbuild')).default()],
    output: { dir: path.join(p.root, 'dist'), format: 'es' },
    watch: { buildDelay: 50 },
  })
  watcher.on('event', (event) => {
    events.push(event.code)
    if (event.code === 'BUNDLE_END')
      void event.result.close()
  })
  return watcher
}

describe('watch mode', () => {
  it('rollup\'s watcher re-evaluates when an imported file changes', async () => {
    const p = project('rollup-watch')
    const builds: string[] = []
    const watcher = await rollupWatch(p, builds)
    try {
      await eventually(() => expect(builds.filter(c => c === 'END').length).toBe(1))
      expect(p.read('dist/src/a.tools.mcp.json')).toContain('"pick"')
      p.write('src/shared.ts', `import { z } from 'zod'\nexport const Item = z.object({ id: z.string(), watched: z.boolean() })\n`)
      await eventually(() => expect(JSON.parse(p.read('dist/src/a.tools.mcp.json')).tools[0].inputSchema.properties.item.properties.watched).toEqual({ type: 'boolean' }))
    }
    finally {
      await watcher.close()
    }
  })

  it('the Vite dev server serves and writes artifacts, and refreshes them when an imported file changes', async () => {
    const p = project('vite-dev')
    const server = await createServer({ root: p.root, configFile: false, logLevel: 'silent', plugins: [flatmcpVite()], server: { port: 0, host: '127.0.0.1' } })
    await server.listen()
    try {
      const url = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}/@flatmcp/src/a.tools.mcp.json`
      await server.ssrLoadModule('/src/a.tools.ts')
      const served = await (await fetch(url)).json() as { tools: { name: string }[] }
      expect(served.tools[0]!.name).toBe('pick')
      expect(readFileSync(path.join(p.root, 'node_modules/.cache/flatmcp/artifacts/src/a.tools.mcp.json'), 'utf8')).toContain('"pick"')
      p.write('src/shared.ts', `import { z } from 'zod'\nexport const Item = z.object({ id: z.string(), live: z.number() })\n`)
      await eventually(async () => {
        await server.ssrLoadModule('/src/a.tools.ts')
        const refreshed = await (await fetch(url)).json() as any
        expect(refreshed.tools[0].inputSchema.properties.item.properties.live).toEqual({ type: 'number' })
      })
    }
    finally {
      await server.close()
    }
  })
  it('the Vite dev server serves an artifact before anything asked for its module; a name of no tool module, or outside the project, is not found', async () => {
    const p = project('vite-dev-first')
    p.write('src/server.ts', 'export const started = true\n')
    const server = await createServer({ root: p.root, configFile: false, logLevel: 'silent', plugins: [flatmcpVite()], server: { port: 0, host: '127.0.0.1' } })
    await server.listen()
    try {
      const base = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}/@flatmcp/`
      const served = await fetch(`${base}src/a.tools.mcp.json`)
      expect(served.status).toBe(200)
      expect((await served.json() as { tools: { name: string }[] }).tools[0]!.name).toBe('pick')
      for (const name of ['src/server.mcp.json', 'src/none.tools.mcp.json', encodeURIComponent('../vite-dev/src/a.tools.mcp.json')])
        expect((await fetch(`${base}${name}`)).status, name).toBe(404)
    }
    finally {
      await server.close()
    }
  })
})

describe('packages a tool module imports', () => {
  /**
   * A project whose tool module takes its enum from a linked package (outside the project, reached by
   * a symlink in node_modules, as a workspace or `npm link` makes it) and its description from an
   * installed one (a real folder in node_modules).
   */
  function linkedProject(name: string): { app: FixtureProject, linked: FixtureProject, writeInstalled: (version: string, text: string) => void } {
    const linked = project(`${name}-linked`, {
      'package.json': JSON.stringify({ name: '@fixture/levels', type: 'module', exports: './src/index.ts' }),
      'src/index.ts': `export { Level } from './level'\n`,
      'src/level.ts': `import { z } from 'zod'\nexport const Level = z.enum(['low', 'high'])\n`,
    })
    const app = project(name, {
      'src/a.tools.ts': `import { appendFileSync } from 'node:fs'
import { defineTool } from '@flatmcp/runtime'
import { Level } from '@fixture/levels'
import { about } from 'fixture-installed'
import { z } from 'zod'

appendFileSync(new URL('../evaluations.log', import.meta.url.replace(/node_modules\\/.*$/, 'x/')), 'x')

export const alert = defineTool({ name: 'alert', description: about, input: z.object({ level: Level }), handler: input => input.level })
`,
      'src/main.ts': `import { alert } from './a.tools'\nconsole.log(alert.name)\n`,
    })
    mkdirSync(path.join(app.root, 'node_modules/@fixture'), { recursive: true })
    symlinkSync(linked.root, path.join(app.root, 'node_modules/@fixture/levels'), 'dir')
    const writeInstalled = (version: string, text: string): void => {
      app.write('node_modules/fixture-installed/package.json', JSON.stringify({ name: 'fixture-installed', version, type: 'module', exports: './index.js' }))
      app.write('node_modules/fixture-installed/index.js', `export const about = ${JSON.stringify(text)}\n`)
    }
    writeInstalled('1.0.0', 'Raise an alert.')
    return { app, linked, writeInstalled }
  }
  const levels = (p: FixtureProject): string[] => JSON.parse(p.read('dist/src/a.tools.mcp.json')).tools[0].inputSchema.properties.level.enum

  it('an edit to a linked package between warm builds changes the artifact and the bundle', async () => {
    const { app, linked } = linkedProject('linked')
    await esbuildProject(app)
    expect(levels(app)).toEqual(['low', 'high'])
    await esbuildProject(app)
    expect(evaluations(app)).toBe(1)
    linked.write('src/level.ts', `import { z } from 'zod'\nexport const Level = z.enum(['low', 'high', 'critical'])\n`)
    await esbuildProject(app)
    expect(evaluations(app)).toBe(2)
    expect(levels(app)).toEqual(['low', 'high', 'critical'])
    expect(app.read('dist/main.js')).toContain('critical')
    const record = JSON.parse(readFileSync(path.join(app.root, 'node_modules/.cache/flatmcp/results', readdirSync(path.join(app.root, 'node_modules/.cache/flatmcp/results'))[0]!), 'utf8'))
    expect(record.result.dependencies).toContain(path.relative(app.root, path.join(linked.root, 'src/level.ts')).split(path.sep).join('/'))
    expect(record.result.packages).toContain('node_modules/fixture-installed/package.json')
    expect(record.result.packages.some((file: string) => /node_modules\/zod\/package\.json$/.test(file))).toBe(true)
  })

  it('an update of an installed package is a cache miss for the next build', async () => {
    const { app, writeInstalled } = linkedProject('installed')
    // Each build in its own process, as after `npm update` (a running process keeps the packages it loaded).
    app.write('build.mjs', `import { build } from 'esbuild'\nimport flatmcp from 'unplugin-flatmcp/esbuild'\nawait build({ entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcp()] })\n`)
    const buildInProcess = (): Promise<unknown> => promisify(execFile)(process.execPath, ['build.mjs'], { cwd: app.root })
    await buildInProcess()
    await buildInProcess()
    expect(evaluations(app)).toBe(1)
    writeInstalled('1.1.0', 'Raise an alert, loudly.')
    await buildInProcess()
    expect(evaluations(app)).toBe(2)
    expect(JSON.parse(app.read('dist/src/a.tools.mcp.json')).tools[0].description).toBe('Raise an alert, loudly.')
  })

  it('rollup\'s watcher rebuilds when a linked package changes', async () => {
    const { app, linked } = linkedProject('linked-watch')
    const watcher = await rollupWatch(app)
    try {
      await eventually(() => expect(levels(app)).toEqual(['low', 'high']))
      linked.write('src/level.ts', `import { z } from 'zod'\nexport const Level = z.enum(['low', 'watched'])\n`)
      await eventually(() => expect(levels(app)).toEqual(['low', 'watched']))
    }
    finally {
      await watcher.close()
    }
  })
})

describe('shared extend fields', () => {
  it('come from a module export, land in every tool and are recorded in the artifact', async () => {
    const p = project('extend')
    p.write('src/extend.ts', `import { z } from 'zod'\nexport const shared = z.object({ tenant: z.string() })\n`)
    await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root, extend: { module: 'src/extend.ts', export: 'shared' } })] })
    const artifact = JSON.parse(p.read('dist/src/a.tools.mcp.json'))
    expect(artifact.options.extend).toMatchObject({ module: 'src/extend.ts', export: 'shared', schema: { type: 'object', properties: { tenant: { type: 'string' } } } })
    expect(artifact.tools[0].inputSchema.properties.tenant).toEqual({ type: 'string' })
    expect(artifact.runtime.pick.slices).toEqual({ extend: ['tenant'] })
  })
})

describe('build errors', () => {
  const failing = async (p: FixtureProject, options: Parameters<typeof flatmcpEsbuild>[0] = {}): Promise<string> => {
    try {
      await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root, ...options })] })
    }
    catch (error) {
      expect(existsSync(path.join(p.root, 'dist'))).toBe(false)
      return (error as { errors: { text: string }[] }).errors.map(e => e.text).join('\n')
    }
    throw new Error('the build succeeded')
  }
  const tools = (body: string): Record<string, string> => ({
    'src/main.ts': `import * as t from './bad.tools'\nconsole.log(Object.keys(t))\n`,
    'src/bad.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\n${body}`,
  })

  it('a module that throws when evaluated', async () => {
    const p = project('throws', tools(`throw new Error('no config')\nexport const x = 1\n`))
    expect(await failing(p)).toBe('src/bad.tools.ts:3:7: the module threw while it was evaluated: no config')
  })

  it('a module still evaluating past moduleTimeout (a top-level await that waits too long) names itself and the time', async () => {
    const p = project('waits', tools(`await new Promise(resolve => setTimeout(resolve, 600_000))\nexport const x = 1\n`))
    expect(await failing(p, { moduleTimeout: 1000 })).toBe('src/bad.tools.ts: the module did not finish evaluating within 1000 ms (a top-level await that waits too long, or for ever)')
  })

  it('a module whose import throws names the imported file and its line', async () => {
    const p = project('throws-deep', tools(`import { settings } from './settings'\nexport const x = settings\n`))
    p.write('src/settings.ts', `export const settings = {}\nif (!process.env.NEVER_SET_ANYWHERE)\n  throw new TypeError('SETTINGS missing')\n`)
    expect(await failing(p)).toBe('src/settings.ts:3:9: the module threw while it was evaluated: SETTINGS missing')
  })

  it('a package that is not installed names the importing line', async () => {
    const p = project('missing-package', tools(`import { nothing } from 'no-such-package-here'\nexport const x = nothing\n`))
    expect(await failing(p)).toMatch(/^src\/bad\.tools\.ts:3:25: cannot compile the module: cannot find package "no-such-package-here"/)
  })

  it('a module that does not compile names its line and column', async () => {
    const p = project('syntax', tools(`export const x = (\n`))
    expect(await failing(p)).toMatch(/^src\/bad\.tools\.ts:4:\d+: cannot compile the module: /)
  })

  it('a key in both params and input names file, line, column, export, tool and path', async () => {
    const p = project('clash', tools(`
export const rename = defineTool({
  name: 'rename_chat',
  params: z.object({ title: z.string() }),
  input: z.object({ title: z.string() }),
  handler: () => 'ok',
})
`))
    // Line 7, column 28: the z.string() of input's title.
    expect(await failing(p)).toBe('src/bad.tools.ts:7:28: export "rename", tool "rename_chat", input at /properties/title: key "title" is declared in both params and input; rename one of them')
  })

  it.each([
    ['z.date()', 'for a date, use z.iso.datetime()'],
    ['z.bigint()', 'for a large integer'],
    ['z.map(z.string(), z.number())', 'use z.record()'],
    ['z.set(z.string())', 'use z.array()'],
    ['z.symbol()', 'use a string or an enum'],
  ])('%s deep in a union in an array: the line and column of that expression, its path, advice for its kind', async (kind, advice) => {
    const p = project('unrepresentable', tools(`
const Variant = z.object({ k: z.literal('b'), at: ${kind}.optional() })
export const tools = [defineTool({
  name: 'when',
  input: z.object({
    items: z.array(z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), Variant])).min(1),
  }),
  handler: () => 'ok',
})]
`))
    const message = await failing(p)
    // Line 4, column 51: `at`'s schema in Variant, reached from the tool through items, the union's second variant and its identifier.
    expect(message).toMatch(/^src\/bad\.tools\.ts:4:51: export "tools\[0\]", tool "when", input at \/properties\/items\/items\/(oneOf|anyOf)\/1\/properties\/at: /)
    expect(message).toContain(advice)
    expect(message.match(/\/properties\/at/g)).toHaveLength(1)
  })

  // A Standard Schema whose JSON says lowercase while its own check ignores case: only the library knows.
  const caseBlind = `
const caseBlind = {
  '~standard': {
    version: 1,
    vendor: 'handmade',
    validate: (value: any) => typeof value?.code === 'string' && /^[a-z]+$/i.test(value.code) ? { value } : { issues: [{ message: 'code' }] },
    jsonSchema: { input: () => ({ type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]+$' } }, required: ['code'] }), output: () => ({}) },
  },
}
`

  it('the cross-check fails a library schema whose JSON rejects what its own validate accepts, with the counterexample', async () => {
    const p = project('cross-check', tools(`${caseBlind}\nexport const code = defineTool({ name: 'code', input: caseBlind as any, handler: () => 'ok' })\n`))
    const message = await failing(p)
    expect(message).toMatch(/export "code", tool "code", input at \/properties\/code: the flat schema rejects \{"code":"[A-Za-z]+"\}, which the schema library's own validate accepts \(under ajv 2020/)
  })

  it('the cross-check passes arktype, whose pattern flags the front end reads, and a library schema that is honest', async () => {
    const p = project('cross-check-ok', tools(`import { type } from 'arktype'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
export const ark = defineTool({ name: 'ark', input: type({ code: /^[a-z]+$/i, name: 'string >= 3' }), handler: () => 'ok' })
export const vb = defineTool({ name: 'vb', input: toStandardJsonSchema(v.object({ tag: v.pipe(v.string(), v.maxLength(4)) })), handler: () => 'ok' })
`))
    await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root })] })
    const artifact = JSON.parse(readFileSync(path.join(p.root, 'dist/src/bad.tools.mcp.json'), 'utf8'))
    expect(artifact.tools.map((t: { name: string }) => t.name)).toEqual(['ark', 'vb'])
    expect(artifact.tools[0].inputSchema.properties.code.pattern).toBe('^[A-Za-z]+$')
  })

  it('a zod/mini tool module builds: zod\'s own converter is loaded from the project', async () => {
    const p = project('zod-mini', tools(`import * as zm from 'zod/mini'
export const mini = defineTool({ name: 'mini', input: zm.object({ code: zm.string().check(zm.regex(/^[a-z]+$/i)) }), handler: () => 'ok' })
`))
    await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root })] })
    const artifact = JSON.parse(readFileSync(path.join(p.root, 'dist/src/bad.tools.mcp.json'), 'utf8'))
    expect(artifact.tools[0].inputSchema.properties.code).toEqual({ type: 'string', pattern: '^[A-Za-z]+$' })
  })

  it('a plain valibot tool module builds: @valibot/to-json-schema is loaded from the project, with libraryOptions.valibot', async () => {
    const p = project('valibot-plain', tools(`import * as v from 'valibot'
export const vb = defineTool({ name: 'vb', input: v.object({ code: v.pipe(v.string(), v.regex(/^[a-z]+$/i)), limit: v.fallback(v.number(), 20), id: v.custom((x) => typeof x === 'string') }), handler: () => 'ok' })
`))
    const libraryOptions = { valibot: { overrideSchema: ({ valibotSchema }: { valibotSchema: { type: string } }) => valibotSchema.type === 'custom' ? { type: 'string' } : undefined } }
    await build({ absWorkingDir: p.root, entryPoints: ['src/main.ts'], outdir: 'dist', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: [flatmcpEsbuild({ root: p.root, libraryOptions })] })
    const artifact = JSON.parse(readFileSync(path.join(p.root, 'dist/src/bad.tools.mcp.json'), 'utf8'))
    expect(artifact.tools[0].inputSchema.properties).toMatchObject({ code: { type: 'string', pattern: '^[A-Za-z]+$' }, id: { type: 'string' } })
    expect(artifact.tools[0].inputSchema.required).toEqual(['code', 'id'])
  })

  it('libraryOptions must map a library to its options', () => {
    expect(() => flatmcpEsbuild({ libraryOptions: { valibot: 'ignore' } as never })).toThrow(/libraryOptions must map a library's name to its options/)
  })

  it('a diagnostic at the failing severity', async () => {
    const p = project('severity', tools(`export const loose = defineTool({ name: 'loose', input: z.object({ data: z.unknown() }), handler: () => 'ok' })\n`))
    expect(await failing(p, { failOn: 'warning' })).toBe('src/bad.tools.ts:3:74: export "loose", tool "loose", input at /properties/data: warning untyped-leaf: no type: advertised as any JSON value (clients may send it as a JSON string)')
  })

  it('two modules defining one tool name', async () => {
    const p = project('duplicate', {
      'src/main.ts': `import './one.tools'\nimport './two.tools'\n`,
      'src/one.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const a = defineTool({ name: 'same', input: z.object({}), handler: () => 'a' })\n`,
      'src/two.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const b = defineTool({ name: 'same', input: z.object({}), handler: () => 'b' })\n`,
    })
    const message = await failing(p)
    const [here, other] = message.startsWith('src/one') ? [['one', 'a'], ['two', 'b']] : [['two', 'b'], ['one', 'a']]
    expect(message).toBe(`src/${here[0]}.tools.ts:3:18: export "${here[1]}", tool "same": tool names must be unique, since the runtime and MCP clients find tools by name; also used by export "${other[1]}" (src/${other[0]}.tools.ts:3:18)`)
  })

  it('the package\'s own default import, called, says which import was meant; a bad option is one line, without a stack', () => {
    expect(() => (flatmcpDefault as unknown as () => unknown)()).toThrow('unplugin-flatmcp: import the plugin for your bundler, import flatmcp from \'unplugin-flatmcp/vite\'')
    expect(typeof flatmcpDefault.vite).toBe('function')
    let thrown: Error | undefined
    try {
      flatmcpEsbuild({ profile: 'openai-strict' as never })
    }
    catch (error) {
      thrown = error as Error
    }
    expect(thrown).toBeInstanceOf(TypeError)
    expect(thrown!.stack).toBe('OptionsError: unplugin-flatmcp: the base profile must be "portable" or "minimal", not "openai-strict"; list target profiles in `profiles`')
    // A misspelled target profile, as Vite prints a config's error (util.inspect): one line, no stack of a cause.
    let misspelled: unknown
    try {
      flatmcpEsbuild({ profiles: ['portable', 'openai-strct' as never] })
    }
    catch (error) {
      misspelled = error
    }
    expect(inspect(misspelled)).toBe('[OptionsError: unplugin-flatmcp: unknown flatmcp profile "openai-strct"; expected one of "portable", "minimal", "openai-strict", "anthropic-strict", "gemini", or a profile object]')
    // A misspelled option's key, which a bundler would pass on and nothing would read.
    expect(() => flatmcpEsbuild({ profils: ['gemini'], inlcude: /x/ } as never)).toThrow('unplugin-flatmcp: unknown option "profils" (did you mean "profiles"?), "inlcude" (did you mean "include"?); the options are include, exclude, profile, profiles,')
    expect(() => flatmcpEsbuild({ artifacts: { folder: 'mcp' } } as never)).toThrow('unplugin-flatmcp: unknown artifacts option "folder"; the artifacts options are dir, fileName')
  })

  it('a misspelled key of a tool fails the build at the line that declares it, naming the key meant', async () => {
    const p = project('misspelled-key', tools(`export const greet = defineTool({ name: 'greet', descripton: 'Greets.', input: z.object({ who: z.string() }), handler: () => 'hi' } as never)\n`))
    expect(await failing(p)).toMatch(/^src\/bad\.tools\.ts:3:\d+: the module threw while it was evaluated: defineTool: tool "greet" has a key no tool has: "descripton" \(did you mean "description"\?\)/)
  })

  it('a tool without a handler, which no server could serve', async () => {
    const p = project('no-handler', tools(`export const send = defineTool({ name: 'send', input: z.object({ to: z.string() }) } as never)\n`))
    expect(await failing(p)).toBe('src/bad.tools.ts:3:21: export "send", tool "send": has no handler: give defineTool a handler(input, context) that returns the tool\'s result')
  })

  it('one module defining one tool name twice names both exports', async () => {
    const p = project('duplicate-within', tools(`export const first = defineTool({ name: 'same', input: z.object({}), handler: () => 'a' })\nexport const tools = [defineTool({ name: 'same', input: z.object({}), handler: () => 'b' })]\n`))
    expect(await failing(p)).toBe('src/bad.tools.ts:4:23: export "tools[0]", tool "same": tool name "same" is also used by export "first" of this module; tool names must be unique')
  })
})
