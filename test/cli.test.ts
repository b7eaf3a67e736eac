// The flatmcp command: run as a real subprocess from its built dist for what the process does (exit
// codes, pipes, builds at once, a module that never returns), and in process for what a command says.
import type { Run } from './support/cli-run'
import type { FixtureProject } from './support/fixture-project'
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { assertProbe, probe, renderReport } from 'flatmcp'
import { definitionTokens, loadTokenizer } from 'unplugin-flatmcp/internal'
import { isToolDefinition, registerArtifact } from '@flatmcp/runtime'
import { artifactText, toSnapshot } from '@flatmcp/runtime/artifact'
import { compileUpstreamList, readUpstreamList } from '@flatmcp/runtime/proxy'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { COMMANDS } from '../packages/cli/src/commands'
import { snapshotGenerator } from '../packages/cli/src/version'
import { CLI, flatmcp, flatmcpInProcess } from './support/cli-run'
import { ROOT } from './support/client'
import { fixtureProject } from './support/fixture-project'
import { atScale } from './support/full'
import { SLOW } from './support/timeouts'

/** Concurrent builds raced against each other (`npm run test:full`: 50). */
const ROUNDS = atScale(5, 50)
const EXAMPLE = path.join(ROOT, 'examples/chat-server')

/** A copy of the example's tool module in a throwaway project, with artifacts built by the CLI. */
let project: FixtureProject

beforeAll(async () => {
  await loadTokenizer()
  project = fixtureProject('cli', { 'src/chat.tools.ts': readFileSync(path.join(EXAMPLE, 'src/chat.tools.ts'), 'utf8') })
  const built = await flatmcp(['build', 'src/*.tools.ts', '--out', 'dist'], project.root)
  expect(built).toMatchObject({ code: 0, stdout: 'dist/src/chat.tools.mcp.json\n' })
})
afterAll(() => project?.remove())

describe('flatmcp build', () => {
  it('writes the artifacts the plugin writes, byte for byte', async () => {
    await promisify(execFile)('npm', ['run', '-s', 'build:esbuild'], { cwd: EXAMPLE })
    const out = fixtureProject('cli-build', {})
    try {
      const run = await flatmcp(['build', 'src/chat.tools.ts', '--out', path.join(out.root, 'artifacts'), '--profile', 'portable,openai-strict,anthropic-strict,gemini'], EXAMPLE)
      expect(run.code).toBe(0)
      expect(readFileSync(path.join(out.root, 'artifacts/src/chat.tools.mcp.json'), 'utf8')).toBe(readFileSync(path.join(EXAMPLE, 'dist/esbuild/src/chat.tools.mcp.json'), 'utf8'))
    }
    finally {
      out.remove()
    }
  })

  it(`two builds of one project at once never remove each other's evaluated modules (${ROUNDS} rounds)`, async () => {
    const failures: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const runs = await Promise.all(['a', 'b'].map(out => flatmcp(['build', 'src/*.tools.ts', '--out', `race-${out}`], project.root)))
      failures.push(...runs.filter(run => run.code !== 0).map(run => run.stderr))
    }
    expect(failures).toEqual([])
    expect(readFileSync(path.join(project.root, 'race-a/src/chat.tools.mcp.json'), 'utf8')).toBe(readFileSync(path.join(project.root, 'dist/src/chat.tools.mcp.json'), 'utf8'))
    // A hundred processes, each starting Node and esbuild: the limit is for a hang, not a speed.
  }, SLOW)

  it('shows each warning at its file and line and ends with one summary line on stderr; --fail-on warning exits 1 writing nothing, --quiet says nothing', async () => {
    const loose = fixtureProject('cli-warn', {
      'src/ok.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const ok = defineTool({ name: 'ok', input: z.object({ a: z.string() }), handler: () => 1 })\n`,
      'src/loose.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const loose = defineTool({ name: 'loose', input: z.object({ data: z.unknown() }), handler: () => 1 })\n`,
    })
    try {
      const run = await flatmcpInProcess(['build', 'src/*.tools.ts', '--profile', 'portable,openai-strict'], loose.root)
      expect(run.code).toBe(0)
      expect(run.stdout).toBe('dist/src/loose.tools.mcp.json\ndist/src/ok.tools.mcp.json\n')
      const lines = run.stderr.trimEnd().split('\n')
      expect(lines[0]).toBe('flatmcp: warning: src/loose.tools.ts:3:74: export "loose", tool "loose", input at /properties/data: untyped-leaf: no type: advertised as any JSON value (clients may send it as a JSON string)')
      expect(lines[1]).toMatch(/^flatmcp: 2 modules, 2 tools, 2 artifacts; tokens portable \d+, openai-strict \d+ \(original \d+\); 1 warning$/)
      expect(lines).toHaveLength(2)
      const failing = await flatmcpInProcess(['build', 'src/*.tools.ts', '--out', 'strict', '--fail-on', 'warning'], loose.root)
      expect(failing).toMatchObject({ code: 1, stdout: '', stderr: 'flatmcp: src/loose.tools.ts:3:74: export "loose", tool "loose", input at /properties/data: warning untyped-leaf: no type: advertised as any JSON value (clients may send it as a JSON string)\n' })
      expect(existsSync(path.join(loose.root, 'strict'))).toBe(false)
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts', '--out', 'quiet', '--quiet'], loose.root)).toMatchObject({ code: 0, stderr: '' })
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts', '--fail-on', 'warnings'], loose.root)).toMatchObject({ code: 2, stderr: expect.stringContaining('--fail-on must be error, warning or never, not "warnings"') })
    }
    finally {
      loose.remove()
    }
  })

  it('says a tool whose listing passes 5,000 tokens, at its line, with what takes the most of it', async () => {
    const heavy = fixtureProject('cli-heavy', {
      'src/codes.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const lookup = defineTool({ name: 'lookup', input: z.object({ code: z.enum(Array.from({ length: 3000 }, (_, i) => \`airport_code_\${i}\`) as [string, ...string[]]), note: z.string() }), handler: () => 1 })\n`,
    })
    try {
      const run = await flatmcpInProcess(['build', 'src/*.tools.ts'], heavy.root)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toMatch(/^flatmcp: warning: src\/codes\.tools\.ts:3:\d+: export "lookup", tool "lookup", input: heavy-tool: listed in [\d,]+ tokens \(portable, o200k_base\), over 5,000: a client sends it with every request; \d+% of its schema is "code" \(an enum of 3,000 values\)/m)
    }
    finally {
      heavy.remove()
    }
  })

  it('a bad tool exits 1 naming file, line, export and tool, and writes nothing', async () => {
    const bad = fixtureProject('cli-bad', { 'src/x.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const t = defineTool({ name: 't', params: z.object({ a: z.string() }), input: z.object({ a: z.string() }), handler: () => 1 })\n` })
    try {
      const run = await flatmcp(['build', 'src/x.tools.ts'], bad.root)
      expect(run.code).toBe(1)
      expect(run.stderr).toBe('flatmcp: src/x.tools.ts:3:100: export "t", tool "t", input at /properties/a: key "a" is declared in both params and input; rename one of them\n')
      expect(existsSync(path.join(bad.root, 'dist'))).toBe(false)
    }
    finally {
      bad.remove()
    }
  })
  it('every tool that cannot be served exits 1, whether the compiler cannot represent it or a diagnostic refuses it; a module that cannot load exits 2', async () => {
    const tool = (input: string): string => `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const t = defineTool({ name: 't', input: ${input}, handler: () => 1 })\n`
    const faults = fixtureProject('cli-faults', {
      'src/date.tools.ts': tool('z.object({ at: z.date() })'),
      'src/shape.tools.ts': tool('{ text: z.string() }'),
      'src/scalar-branch.tools.ts': tool('z.union([z.object({ a: z.string() }), z.string()])'),
      'src/no-handler.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const t = defineTool({ name: 't', input: z.object({}) } as never)\n`,
      'src/twice.tools.ts': `${tool('z.object({})')}export const u = defineTool({ name: 't', input: z.object({}), handler: () => 1 })\n`,
      'src/syntax.tools.ts': `export const t = defineTool({ name: 't',\n`,
      'src/throws.tools.ts': `throw new Error('no config')\n`,
    })
    try {
      const codes: Record<string, number> = {}
      for (const name of ['date', 'shape', 'scalar-branch', 'no-handler', 'twice', 'syntax', 'throws']) {
        const run = await flatmcpInProcess(['build', `src/${name}.tools.ts`], faults.root)
        expect(run.stderr, name).toMatch(new RegExp(`^flatmcp: src/${name}\\.tools\\.ts:\\d+:\\d+: \\S`))
        codes[name] = run.code
      }
      expect(codes).toEqual({ 'date': 1, 'shape': 1, 'scalar-branch': 1, 'no-handler': 1, 'twice': 1, 'syntax': 2, 'throws': 2 })
      expect(existsSync(path.join(faults.root, 'dist'))).toBe(false)
    }
    finally {
      faults.remove()
    }
  }, SLOW)
})

describe('flatmcp build, when a module never finishes evaluating', () => {
  const good = `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const ok = defineTool({ name: 'ok', input: z.object({ a: z.string() }), handler: () => 1 })\n`
  const tool = (name: string, line: string): string => `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\n${line}\nexport const ${name} = defineTool({ name: '${name}', input: z.object({ a: z.string() }), handler: () => 1 })\n`
  let stuck: FixtureProject
  beforeAll(() => {
    stuck = fixtureProject('cli-stuck', {
      'src/ok.tools.ts': good,
      'src/wait.tools.ts': tool('wait', 'await new Promise(() => {})'),
      'src/slow.tools.ts': tool('slow', 'await new Promise(resolve => setTimeout(resolve, 600_000))'),
      'src/loop.tools.ts': tool('loop', 'while (Date.now() > 0) {}'),
    })
  })
  afterAll(() => stuck?.remove())

  it('a top-level await nothing can settle is an error naming the module at once, and nothing is written (exit 2, not 0)', async () => {
    const run = await flatmcp(['build', 'src/ok.tools.ts', 'src/wait.tools.ts', '--out', 'dist'], stuck.root)
    expect(run).toMatchObject({ code: 2, stderr: 'flatmcp: src/wait.tools.ts: the module never finishes evaluating: its top-level await waits on something nothing will ever settle\n' })
    // At once: found when the event loop had nothing left to run, not when --module-timeout ran out
    // (that error names the time it gave, as the next test's does).
    expect(run.stderr).not.toMatch(/within \d+ ms/)
    expect(existsSync(path.join(stuck.root, 'dist'))).toBe(false)
  })

  it('one that waits past --module-timeout is an error naming the module and the time it was given', async () => {
    const run = await flatmcp(['build', 'src/ok.tools.ts', 'src/slow.tools.ts', '--out', 'dist', '--module-timeout', '1500'], stuck.root)
    expect(run).toMatchObject({ code: 2, stderr: 'flatmcp: src/slow.tools.ts: the module did not finish evaluating within 1500 ms (a top-level await that waits too long, or for ever)\n' })
    expect(existsSync(path.join(stuck.root, 'dist'))).toBe(false)
  })

  it('one that never returns (a loop at import) is ended, and is an error naming the module like the others (exit 2, not a kill), and nothing is written', async () => {
    const run = await flatmcp(['build', 'src/ok.tools.ts', 'src/loop.tools.ts', '--out', 'dist', '--module-timeout', '1500'], stuck.root)
    expect(run).toMatchObject({ code: 2, stderr: 'flatmcp: src/loop.tools.ts: the module did not return within 1500 ms of being evaluated (a loop that never ends?). Raise the plugin\'s moduleTimeout (flatmcp --module-timeout) if it only needs longer.\n' })
    expect(existsSync(path.join(stuck.root, 'dist'))).toBe(false)
  })

  it('--module-timeout takes a whole number above 0', async () => {
    expect((await flatmcpInProcess(['build', 'src/ok.tools.ts', '--module-timeout', '0'], stuck.root)).code).toBe(2)
  })
})

/** Probes a copy of the built project whose artifact `edit` changed; the copy is removed after. */
async function probeEdited(name: string, edit: (artifact: any) => void, args: string[] = []): Promise<Run> {
  const copy = fixtureProject(name, {})
  try {
    cpSync(project.root, copy.root, { recursive: true })
    const file = path.join(copy.root, 'dist/src/chat.tools.mcp.json')
    const artifact = JSON.parse(readFileSync(file, 'utf8'))
    edit(artifact)
    writeFileSync(file, `${JSON.stringify(artifact, null, 2)}\n`)
    return await flatmcpInProcess(['probe', 'dist', ...args], copy.root)
  }
  finally {
    copy.remove()
  }
}

describe('artifacts served without a bundler', () => {
  it('registerArtifact() serves what flatmcp build wrote, without compiling at start-up; a file of another shape is a TypeError', async () => {
    const artifact = JSON.parse(project.read('dist/src/chat.tools.mcp.json'))
    registerArtifact(artifact)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const tools = Object.values(await import('../examples/chat-server/src/chat.tools')).filter(isToolDefinition)
      const server = createMcpServer(tools, { name: 'no-bundler', version: '1.0.0' })
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await server.connect(serverSide)
      const client = new Client({ name: 'test', version: '1.0.0' })
      await client.connect(clientSide)
      const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name)
      expect((await client.listTools()).tools.sort(byName)).toEqual(artifact.tools)
      expect(warn).not.toHaveBeenCalled()
      await client.close()
    }
    finally {
      warn.mockRestore()
    }
    expect(() => registerArtifact({ tools: [{ name: 'x', inputSchema: { type: 'object' } }], runtime: {} })).toThrow('registerArtifact: tool "x" has no "runtime" entry with a "coercion" plan')
    expect(() => registerArtifact([])).toThrow(/not a flatmcp artifact/)
    // Every schema it would serve, in every profile, is checked at start-up: one edited into what a
    // client refuses is named, instead of every tools/list failing for every tool.
    const edited = (edit: (copy: any) => void): unknown => {
      const copy = JSON.parse(JSON.stringify(artifact))
      edit(copy)
      return copy
    }
    const first = artifact.tools[0].name as string
    for (const [edit, message] of [
      [(c: any) => { c.tools[0].inputSchema = 'object' }, `tool "${first}": its inputSchema is not an object schema`],
      [(c: any) => { delete c.tools[0].inputSchema }, `tool "${first}": its inputSchema is not an object schema`],
      [(c: any) => { c.tools[0].inputSchema.properties = 5 }, `tool "${first}": its inputSchema.properties is not an object`],
      [(c: any) => { c.tools[0].inputSchema.type = 'array' }, `tool "${first}": its inputSchema is not an object schema`],
      [(c: any) => { c.tools[0].name = 7 }, 'tools[0]: it has no name'],
    ] as [(copy: any) => void, string][])
      expect(() => registerArtifact(edited(edit)), message).toThrow(`registerArtifact: ${message}`)
    const profiled = JSON.parse(JSON.stringify(artifact))
    profiled.runtime[first].profiles = { gemini: null }
    expect(() => registerArtifact(profiled)).toThrow(`registerArtifact: tool "${first}", profile "gemini": it is not an object`)
    profiled.runtime[first].profiles = { gemini: { inputSchema: { type: 'object', required: [1] }, coercion: {} } }
    expect(() => registerArtifact(profiled)).toThrow(`registerArtifact: tool "${first}", profile "gemini": its inputSchema.required is not a list of names`)
    profiled.runtime[first].profiles = { gemini: { inputSchema: { type: 'object' }, coercion: 'x' } }
    expect(() => registerArtifact(profiled)).toThrow(`registerArtifact: tool "${first}", profile "gemini": its "coercion"`)
  })
})

describe('registerArtifact in development', () => {
  it('says once when an artifact is older than its sources, and nothing when it is current, in production, or away from its sources', async () => {
    const artifact = JSON.parse(project.read('dist/src/chat.tools.mcp.json'))
    expect(artifact.files[0]).toBe('src/chat.tools.ts')
    const lines: string[] = []
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk))
      return true
    })
    const copy = fixtureProject('cli-stale-register', {})
    try {
      registerArtifact(artifact, { root: project.root })
      registerArtifact(artifact)
      expect(lines.filter(line => line.includes('older than its sources'))).toEqual([])
      cpSync(project.root, copy.root, { recursive: true })
      copy.write('src/chat.tools.ts', `${copy.read('src/chat.tools.ts')}\n// edited\n`)
      vi.stubEnv('NODE_ENV', 'production')
      registerArtifact(artifact, { root: copy.root })
      expect(lines.filter(line => line.includes('older than its sources'))).toEqual([])
      vi.unstubAllEnvs()
      registerArtifact(artifact, { root: copy.root })
      registerArtifact(artifact, { root: copy.root })
      expect(lines.filter(line => line.includes('older than its sources'))).toEqual(['flatmcp: the artifact of src/chat.tools.ts is older than its sources (they changed since it was built): tools/list serves what was built then. Build again (your bundler, or flatmcp build), or check with flatmcp probe.\n'])
    }
    finally {
      vi.unstubAllEnvs()
      write.mockRestore()
      copy.remove()
    }
  })
})

describe('flatmcp output', () => {
  it('reaches a reader slow to read it, whole, past what a pipe holds (a probe\'s JSON report was cut at 64 KiB)', async () => {
    const many = fixtureProject('cli-many', {
      'src/many.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const tools = Array.from({ length: 300 }, (_, i) => defineTool({ name: \`tool_\${i}\`, description: 'x'.repeat(200), input: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.number() })]), handler: () => i }))\n`,
    })
    try {
      const child = spawn(process.execPath, [CLI, 'inspect', 'src/many.tools.ts'], { cwd: many.root, stdio: ['ignore', 'pipe', 'ignore'] })
      // Nothing read for a second: the command has written what the pipe holds and wants to end.
      child.stdout.pause()
      await new Promise(resolve => setTimeout(resolve, 1000))
      const chunks: Buffer[] = []
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
      child.stdout.resume()
      const [code] = await once(child, 'close') as [number]
      const text = Buffer.concat(chunks).toString()
      expect(code).toBe(0)
      expect(text.length).toBeGreaterThan(128 * 1024)
      expect(text).toContain('tool_299')
    }
    finally {
      many.remove()
    }
  })
})

describe('flatmcp probe', () => {
  it('the clean example exits 0', async () => {
    const run = await flatmcp(['probe', 'dist'], project.root)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('✓ accepts every value the original schemas accept')
    expect(run.stdout).toContain('clean: 1 artifact, seed 1, 200 samples per tool')
    // A check with nothing to check says so, and why, instead of a tick.
    expect(run.stdout).toContain('– round-trips in each target profile it ships (a model\'s answer, read back, parses to the same value): skipped, no target profile built (build with --profile openai-strict, anthropic-strict or gemini to ship one)')
    expect(run.stdout).toMatch(/^ {2}– keeps to the token budgets: skipped, no budget given \(--max-tokens, --max-module-tokens\); all tools: portable \d+ \(o200k_base\)$/m)
    expect(run.stdout).not.toMatch(/✓ (round-trips|keeps to the token budgets)/)
  })

  it('--max-tokens and --max-module-tokens fail a tool, and a module, over its budget (exit 1)', async () => {
    const listed = JSON.parse(project.read('dist/src/chat.tools.mcp.json'))
    const counts = listed.tools.map((t: { name: string }) => [t.name, listed.tokens[t.name].portable] as [string, number])
    const largest = Math.max(...counts.map(([, n]: [string, number]) => n))
    const total = counts.reduce((sum: number, [, n]: [string, number]) => sum + n, 0)
    const within = await flatmcpInProcess(['probe', 'dist', '--max-tokens', String(largest), '--max-module-tokens', String(total)], project.root)
    expect(within.code).toBe(0)
    expect(within.stdout).toContain(`✓ keeps to the token budgets (o200k_base, at most ${largest} per tool, ${total} per module; all tools: portable ${total})`)
    const over = await flatmcpInProcess(['probe', 'dist', '--max-tokens', String(largest - 1)], project.root)
    expect(over.code).toBe(1)
    const [name] = counts.find(([, n]: [string, number]) => n === largest)!
    expect(over.stdout).toContain(`✗ keeps to the token budgets`)
    expect(over.stdout).toContain(`${name}: portable: ${largest} tokens (o200k_base), over the budget of ${largest - 1} per tool (--max-tokens)`)
    const module = await flatmcpInProcess(['probe', 'dist', '--max-module-tokens', String(total - 1)], project.root)
    expect(module.code).toBe(1)
    expect(module.stdout).toContain(`portable: the module's ${counts.length} tools take ${total} tokens (o200k_base), over the budget of ${total - 1} per module (--max-module-tokens)`)
    expect((await flatmcpInProcess(['probe', 'dist', '--max-tokens', 'lots'], project.root)).code).toBe(2)
  })

  it('an artifact that differs each time its module is evaluated is "not deterministic", not stale, with what differs', async () => {
    const moving = fixtureProject('cli-moving', {
      'src/clock.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const clock = defineTool({ name: 'clock', description: \`Built \${Math.random()}\`, input: z.object({ zone: z.string() }), handler: () => 'now' })\n`,
    })
    try {
      expect((await flatmcp(['build', 'src/clock.tools.ts'], moving.root)).code).toBe(0)
      const run = await flatmcp(['probe', 'dist'], moving.root)
      expect(run.code).toBe(1)
      expect(run.stdout).toContain('not deterministic: src/clock.tools.ts compiles to a different artifact each time it is evaluated')
      expect(run.stdout).toMatch(/^ +@@ \/tools\/0\/description$/m)
      expect(run.stdout).not.toContain('refresh it')
      // Its source is as it was: the other checks run on what ships.
      expect(run.stdout).toMatch(/✓ accepts every value the original schemas accept/)
    }
    finally {
      moving.remove()
    }
  })

  it('a stale artifact is caught with a diff', async () => {
    const stale = fixtureProject('cli-stale', {})
    try {
      cpSync(project.root, stale.root, { recursive: true })
      stale.write('src/chat.tools.ts', stale.read('src/chat.tools.ts').replace(`text: z.string().min(1).describe('Message text'),`, `text: z.string().min(1).describe('Message text'),\n      silent: z.boolean().optional(),`))
      const run = await flatmcpInProcess(['probe', 'dist'], stale.root)
      expect(run.code).toBe(1)
      expect(run.stdout).toContain('✗ is current (matches its source compiled now)')
      // One finding: the checks that compare with the source wait, rather than say the staleness again as unsoundness.
      expect(run.stdout).toMatch(/– accepts every value the original schemas accept.*: skipped, waits until it is current/)
      expect(run.stdout).toMatch(/^\s+\+\s+"silent": \{$/m)
      // Each hunk is headed by its JSON path, and a line that changed reads - then +.
      expect(run.stdout).toMatch(/^ +@@ \/tools\/\d+\/inputSchema\/properties\/silent$/m)
      const marks = run.stdout.split('\n').map(line => /^ {6}([-+]) /.exec(line)?.[1]).filter(Boolean).join('')
      expect(marks).toMatch(/^(-*\+*)+$/)
      expect(marks).toContain('-+')
      expect(run.stdout).toContain('refresh it: run your build, or npx flatmcp build src/chat.tools.ts')
      expect(run.stdout.indexOf('refresh it:')).toBeGreaterThan(run.stdout.lastIndexOf('@@ '))
      // Built in three profiles, the same change is shown once, with the other places named.
      await flatmcpInProcess(['build', 'src/chat.tools.ts', '--out', 'multi', '--profile', 'portable,anthropic-strict,gemini'], project.root)
      cpSync(path.join(project.root, 'multi'), path.join(stale.root, 'multi'), { recursive: true })
      const multi = await flatmcpInProcess(['probe', 'multi'], stale.root)
      expect(multi.stdout).toContain('refresh it: run your build, or npx flatmcp build src/chat.tools.ts --out multi --profile portable,anthropic-strict,gemini')
      expect(multi.stdout).toMatch(/@@ the same change at \/runtime\/\w+\/profiles\/(anthropic-strict|gemini)\//)
      expect(multi.stdout).not.toContain('✗ round-trips')
      expect(multi.stdout).toMatch(/– round-trips in each target profile it ships .*: skipped, waits until it is current/)
    }
    finally {
      stale.remove()
    }
  })

  it('a hand-narrowed artifact is caught with a minimised counterexample', async () => {
    const run = await probeEdited('cli-narrowed', (json) => {
      const send = json.tools.find((t: { name: string }) => t.name === 'send_message')
      send.inputSchema.properties.media.type = 'object' // the first-wins mistake: arrays no longer pass
    }, ['--samples', '100'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('✗ accepts every value the original schemas accept')
    expect(run.stdout).toMatch(/send_message: the advertised schema rejects a value the original schema accepts \(\/media must be object\)/)
    const counterexample = /counterexample: (.*)$/m.exec(run.stdout)![1]!
    const value = JSON.parse(counterexample)
    expect(value.kind).toBe('mediaGroup')
    expect(Array.isArray(value.media)).toBe(true)
    expect(value.media).toHaveLength(2) // minimised: the fewest items mediaGroup accepts
  })

  it('checks flat() schemas like tools: clean, then a hand-narrowed one is caught', async () => {
    const flats = fixtureProject('cli-flat', { 'src/flat.tools.ts': readFileSync(path.join(EXAMPLE, 'src/flat.tools.ts'), 'utf8') })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], flats.root)).toMatchObject({ code: 0 })
      const clean = await flatmcpInProcess(['probe', 'dist', '--samples', '50'], flats.root)
      expect(clean.code, clean.stdout).toBe(0)
      const file = path.join(flats.root, 'dist/src/flat.tools.mcp.json')
      const artifact = JSON.parse(readFileSync(file, 'utf8'))
      expect(artifact.flat.map((f: { export: string }) => f.export)).toEqual(['sendInput'])
      artifact.flat[0].inputSchema.properties.media.type = 'object'
      writeFileSync(file, `${JSON.stringify(artifact, null, 2)}\n`)
      const narrowed = await flatmcpInProcess(['probe', 'dist', '--samples', '100'], flats.root)
      expect(narrowed.code).toBe(1)
      expect(narrowed.stdout).toMatch(/flat\(\) sendInput: the advertised schema rejects a value the original schema accepts/)
    }
    finally {
      flats.remove()
    }
  })

  it('checks outputs: every output the original accepts, as the server sends it (an array wrapped as { result }), passes the advertised output schema; a narrowed one is caught', async () => {
    const outputs = fixtureProject('cli-outputs', {
      'src/out.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const shape = defineTool({ name: 'shape', input: z.object({}), output: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]), handler: () => ({ kind: 'circle' as const, r: 1 }) })\nexport const names = defineTool({ name: 'names', input: z.object({}), output: z.array(z.string().min(1)), handler: () => ['a'] })\n`,
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], outputs.root)).toMatchObject({ code: 0 })
      const clean = await flatmcpInProcess(['probe', 'dist', '--samples', '50'], outputs.root)
      expect(clean.code, clean.stdout).toBe(0)
      expect(clean.stdout).toMatch(/2 output schemas, [1-9]\d* values each/)
      const file = path.join(outputs.root, 'dist/src/out.tools.mcp.json')
      const artifact = JSON.parse(readFileSync(file, 'utf8'))
      expect(artifact.runtime.names.outputWrap).toBe('result')
      artifact.tools.find((t: { name: string }) => t.name === 'names').outputSchema.properties.result.maxItems = 0
      writeFileSync(file, `${JSON.stringify(artifact, null, 2)}\n`)
      const narrowed = await flatmcpInProcess(['probe', 'dist', '--samples', '50'], outputs.root)
      expect(narrowed.code).toBe(1)
      expect(narrowed.stdout).toMatch(/names \(output\): the advertised output schema rejects an output the original accepts, as the server sends it/)
      expect(narrowed.stdout).toMatch(/counterexample: \{"result":\["[^"]+"\]\}/)
    }
    finally {
      outputs.remove()
    }
  })

  it('names each 2026 strict route that refuses a tool (Kimi, xAI Grok, Copilot in Visual Studio), as a warning', async () => {
    const named = fixtureProject('cli-client-rules', {
      'src/odd.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const dotted = defineTool({ name: '2.weather', input: z.object({ city: z.string() }), handler: () => 'ok' })\n`,
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], named.root)).toMatchObject({ code: 0 })
      const report = await probe({ paths: ['dist'], root: named.root, samples: 5 })
      const said = report.artifacts[0]!.findings.filter(f => f.check === 'clients').map(f => `${f.severity} ${f.tool}: ${f.message}`)
      expect(said).toEqual([
        'warning 2.weather: Kimi refuses it: the name "2.weather" starts with a digit (docs/clients.md)',
        'warning 2.weather: Copilot in Visual Studio refuses it: the name "2.weather" is not 1 to 128 letters, digits, "_" or "-" (docs/clients.md)',
      ])
    }
    finally {
      named.remove()
    }
  })

  it('says where a shipped schema holds what Mistral or DeepSeek V4 refuse: `$id`/`$schema` as a warning naming Mistral, `required: null` and draft-04 booleans as a broken profile too', async () => {
    const noisy = fixtureProject('cli-mistral-rules', {
      'src/bound.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const bound = defineTool({ name: 'bound', input: z.object({ n: z.number(), o: z.object({ s: z.string() }) }), handler: () => 'ok' })\n`,
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], noisy.root)).toMatchObject({ code: 0 })
      const file = path.join(noisy.root, 'dist/src/bound.tools.mcp.json')
      const artifact = JSON.parse(readFileSync(file, 'utf8'))
      const input = artifact.tools[0].inputSchema
      input.$id = 'urn:bound'
      input.properties.o.required = null
      Object.assign(input.properties.n, { minimum: 0, exclusiveMinimum: true })
      writeFileSync(file, `${JSON.stringify(artifact, null, 2)}\n`)
      const report = await probe({ paths: ['dist'], root: noisy.root, samples: 5 })
      const said = report.artifacts[0]!.findings.filter(f => f.check === 'clients' || f.check === 'profile').map(f => `${f.severity} ${f.check}: ${f.message}`)
      expect(said).toEqual([
        'error profile: breaks the portable profile at /properties/n: a draft-04 boolean "exclusiveMinimum", which is not 2020-12 (Mistral refuses it)',
        'error profile: breaks the portable profile at /properties/o: "required" is null, not an array, which is not 2020-12 (DeepSeek V4 refuses it)',
        'warning clients: Mistral refuses it: "$id" at / (docs/clients.md)',
        'warning clients: Mistral refuses it: a draft-04 boolean "exclusiveMinimum" at /properties/n (docs/clients.md)',
        'warning clients: DeepSeek V4 refuses it: "required" is null, not an array at /properties/o (docs/clients.md)',
      ])
    }
    finally {
      noisy.remove()
    }
  })

  it('samples strings that match a pattern, reports values per tool, and fails a tool it could not check', async () => {
    const odd = fixtureProject('cli-sampling', {
      'src/odd.tools.ts': [
        `import { defineTool } from '@flatmcp/runtime'`,
        `import { z } from 'zod'`,
        `export const multiline = defineTool({ name: 'multiline', input: z.object({ code: z.string().regex(/^ok$/m) }), handler: () => 'ok' })`,
        `export const twice = defineTool({ name: 'twice', input: z.object({ code: z.string().regex(/^(ab)\\1$/) }), handler: () => 'ok' })`,
        `export const counts = defineTool({ name: 'counts', input: z.object({ by: z.record(z.string(), z.number()) }), handler: () => 'ok' })`,
        // Every match is 2 MB: not aimed for, said, and no time spent writing such strings.
        `export const huge = defineTool({ name: 'huge', input: z.object({ code: z.string().regex(/^(?:(?:ab){1000}){1000}$/) }), handler: () => 'ok' })`,
        '',
      ].join('\n'),
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], odd.root)).toMatchObject({ code: 0 })
      const run = await flatmcpInProcess(['probe', 'dist', '--samples', '30'], odd.root)
      expect(run.code, run.stdout).toBe(1)
      expect(run.stdout).toContain('twice: none of 30 generated values passed the original schema (the sampler could not aim for pattern "^(ab)\\\\1$" (not a pattern fast-check can generate (a lookaround, a backreference)))')
      expect(run.stdout).toContain('huge: none of 30 generated values passed the original schema (the sampler could not aim for pattern "^(?:(?:ab){1000}){1000}$" (its matches run past 10000 characters))')
      const report = await probe({ paths: ['dist'], root: odd.root, samples: 30 })
      const sampled = Object.fromEntries(report.artifacts[0]!.sampled.map(t => [t.tool, t.checked]))
      // No time spent writing 2 MB strings: the one sample that measured their length, then none drawn.
      expect(sampled).toEqual({ multiline: 30, twice: 0, counts: 30, huge: 0 })
      // A record's `propertyNames: { type: "string" }` holds for every key: nothing the sampler missed.
      expect(report.artifacts[0]!.sampled.find(t => t.tool === 'counts')!.unmet).toEqual([])
    }
    finally {
      odd.remove()
    }
  })

  it('a schema whose own check throws on a value is a finding naming the tool, its file and line, and the value, and the other tools are still checked', async () => {
    const throwing = fixtureProject('cli-throwing', {
      'src/odd.tools.ts': [
        `import { defineTool } from '@flatmcp/runtime'`,
        `import { z } from 'zod'`,
        `export const fine = defineTool({ name: 'fine', input: z.object({ n: z.number() }), handler: () => 'ok' })`,
        `export const boom = defineTool({ name: 'boom', input: z.object({ n: z.number() }).refine((v) => { if (v.n > 0) throw new Error('refine exploded'); return true }), handler: () => 'ok' })`,
        '',
      ].join('\n'),
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], throwing.root)).toMatchObject({ code: 0 })
      const run = await flatmcpInProcess(['probe', 'dist', '--samples', '30'], throwing.root)
      expect(run.code, run.stdout + run.stderr).toBe(1)
      expect(run.stderr).not.toContain('    at ')
      expect(run.stdout).toMatch(/boom: the original schema threw while it parsed a generated value: refine exploded \(src\/odd\.tools\.ts:4:\d+, export "boom"\); the server answers such a call with an error/)
      expect(run.stdout).toMatch(/the value: \{"n":[\d.e+-]*[1-9]/)
      // Each tool's sampling is told as it begins (on a terminal, the command's progress line).
      const begun: string[] = []
      const report = await probe({ paths: ['dist'], root: throwing.root, samples: 30, onTool: tool => begun.push(tool) })
      expect(report.artifacts[0]!.sampled.find(t => t.tool === 'fine')!.checked).toBe(30)
      expect(begun.sort()).toEqual(['boom', 'fine'])
    }
    finally {
      throwing.remove()
    }
  })

  it('checks every profile an artifact holds: clean, then a hand-edited profile schema is caught', async () => {
    const profiled = fixtureProject('cli-profiles', { 'src/chat.tools.ts': readFileSync(path.join(EXAMPLE, 'src/chat.tools.ts'), 'utf8') })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts', '--profile', 'portable,openai-strict', '--profile', 'gemini'], profiled.root)).toMatchObject({ code: 0 })
      const artifact = JSON.parse(profiled.read('dist/src/chat.tools.mcp.json'))
      expect(artifact.options.profiles).toEqual(['openai-strict', 'gemini'])
      expect(artifact.runtime.send_message.profiles.gemini.decode).toEqual({ properties: { media: { parse: 'json' } } })
      const clean = await flatmcpInProcess(['probe', 'dist', '--samples', '20'], profiled.root)
      expect(clean.code, clean.stdout).toBe(0)
      expect(clean.stdout).toMatch(/✓ round-trips in each target profile it ships .*\(openai-strict, gemini: 8 tool forms, 20 values each\)/)
      // An inverse map that no longer drops a strict model's nulls for the keys it leaves out.
      const withoutNullDrops = structuredClone(artifact)
      const strict = withoutNullDrops.runtime.send_message.profiles['openai-strict']
      strict.coercion = JSON.parse(JSON.stringify(strict.coercion, (key, value) => key === 'keepNull' ? undefined : value))
      profiled.write('dist/src/chat.tools.mcp.json', `${JSON.stringify(withoutNullDrops, null, 2)}\n`)
      const broken = await flatmcpInProcess(['probe', 'dist', '--samples', '20'], profiled.root)
      expect(broken.code).toBe(1)
      expect(broken.stdout).toContain('✗ round-trips in each target profile it ships')
      expect(broken.stdout).toMatch(/send_message \(openai-strict\): the original rejects what the inverse map gives back\n\s+value: .*\n\s+the model writes: .*null/)
      delete artifact.runtime.send_message.profiles['openai-strict'].inputSchema.additionalProperties
      profiled.write('dist/src/chat.tools.mcp.json', `${JSON.stringify(artifact, null, 2)}\n`)
      const edited = await flatmcpInProcess(['probe', 'dist', '--samples', '20'], profiled.root)
      expect(edited.code).toBe(1)
      expect(edited.stdout).toContain('send_message (openai-strict): breaks the openai-strict profile at /additionalProperties: not in openai-strict form')
      expect(edited.stdout).toContain('✗ is current')
    }
    finally {
      profiled.remove()
    }
  })

  it('a schema that does not compile is a finding (exit 1), not a crash', async () => {
    const run = await probeEdited('cli-uncompiled', json => json.tools[0].inputSchema.properties.broken = { type: 'string', pattern: '(' }, ['--samples', '20'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/does not compile as JSON Schema/)
    expect(run.stderr).not.toMatch(/at .*\.mjs:\d+/)
  })

  it('an artifact with an unknown profile, no extend field, or a source outside the root exits 2 naming the field', async () => {
    const cases: [(json: any) => void, RegExp][] = [
      [json => json.options.profile = 'gemini-ultra', /"options\.profile" is "gemini-ultra", not one of/],
      [json => delete json.options.extend, /"options\.extend" is missing/],
      [json => json.module = '../../outside.tools.ts', /is outside .*; the probe evaluates sources under its root only/],
      [(json) => {
        const entry = Object.values(json.runtime)[0] as Record<string, unknown>
        entry.profiles = { constructor: { inputSchema: json.tools[0].inputSchema, coercion: {} } }
      }, /runtime\[".*"\]\.profiles has "constructor", which is not a built-in profile/],
    ]
    for (const [edit, message] of cases) {
      const run = await probeEdited('cli-odd', edit)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(message)
      expect(run.stderr).not.toMatch(/\n\s+at /)
    }
  })

  it('a corrupt file exits 2 with a clear message', async () => {
    const corrupt = fixtureProject('cli-corrupt', { 'dist/x.mcp.json': '{"tools": [' })
    try {
      const run = await flatmcpInProcess(['probe', 'dist'], corrupt.root)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/^flatmcp: .*dist\/x\.mcp\.json: not valid JSON \(/)
      corrupt.write('dist/x.mcp.json', '{"tools": []}')
      const shape = await flatmcpInProcess(['probe', 'dist'], corrupt.root)
      expect(shape.code).toBe(2)
      expect(shape.stderr).toMatch(/dist\/x\.mcp\.json: not a flatmcp artifact: "generator" is missing/)
    }
    finally {
      corrupt.remove()
    }
  })

  it('usage errors exit 2, said in two lines: what is wrong (the option meant, where one is mistyped) and where the usage is', async () => {
    const samples = await flatmcpInProcess(['probe', '--samples', 'many'], project.root)
    expect([samples.code, samples.stderr.trim().split('\n')]).toEqual([2, [expect.stringMatching(/^flatmcp: --samples /), '(flatmcp probe --help shows the usage)']])
    const mistyped = await flatmcpInProcess(['build', 'src/a.tools.ts', '--outdir', 'dist'], project.root)
    expect([mistyped.code, mistyped.stderr.trim()]).toEqual([2, 'flatmcp: unknown option --outdir (did you mean --out?)\n(flatmcp build --help shows the usage)'])
    expect((await flatmcpInProcess(['proxy', '--surfaces', 'search', '--', 'node', 'server.js'], project.root)).stderr).toContain('unknown option --surfaces (did you mean --surface?)')
    expect((await flatmcpInProcess(['frobnicate'], project.root)).stderr).toContain('unknown command "frobnicate"')
    const surface = await flatmcpInProcess(['proxy', '--surface', 'lean', '--', 'node', 'server.js'], project.root)
    expect([surface.code, surface.stderr]).toEqual([2, expect.stringContaining('--surface must be full, search or auto, not "lean"')])
    const loaded = await flatmcpInProcess(['proxy', '--always-load', 'send', '--', 'node', 'server.js'], project.root)
    expect([loaded.code, loaded.stderr]).toEqual([2, expect.stringContaining('--always-load names tools listed beside the search surface: give --surface search (or auto, the default with --config) too')])
  })

  it('--json reports for machines, and the same seed gives the same report', async () => {
    const first = await flatmcpInProcess(['probe', 'dist', '--json', '--seed', '7', '--samples', '50'], project.root)
    const second = await flatmcpInProcess(['probe', 'dist', '--json', '--seed', '7', '--samples', '50'], project.root)
    const report = JSON.parse(first.stdout)
    expect(report).toMatchObject({ ok: true, seed: 7, samples: 50 })
    expect(report.artifacts[0].tools).toEqual(['get_chat', 'send_batch', 'send_message', 'update_chat'])
    expect(second.stdout).toBe(first.stdout)
  })

  it('--source lists tool modules that must have an artifact', async () => {
    const missing = fixtureProject('cli-source', {})
    try {
      cpSync(project.root, missing.root, { recursive: true })
      missing.write('src/more.tools.ts', 'export {}\n')
      const run = await flatmcpInProcess(['probe', 'dist', '--source', 'src/chat.tools.ts', '--source', 'src/more.tools.ts'], missing.root)
      expect(run.code).toBe(1)
      expect(run.stdout).toContain('no artifact for src/more.tools.ts')
    }
    finally {
      missing.remove()
    }
  })
})

describe('probe() and assertProbe() in a test suite', () => {
  it('names what the artifacts hold together apart from a missing artifact, and marks a warning "!"', () => {
    const together = { file: '', tools: ['a'], samplesChecked: 0, sampled: [], roundTrips: [], findings: [{ check: 'profile' as const, severity: 'warning' as const, message: 'anthropic-strict: over its budget' }] }
    const missing = { file: '', module: 'src/x.tools.ts', tools: [], samplesChecked: 0, sampled: [], roundTrips: [], findings: [{ check: 'current' as const, severity: 'error' as const, message: 'no artifact for src/x.tools.ts' }] }
    const text = renderReport({ ok: false, seed: 1, samples: 1, budgets: {}, artifacts: [together, missing] }, project.root, { isTTY: false })
    expect(text).toContain('(all artifacts together)\n  ! keeps its profile\'s shape')
    expect(text).toContain('(missing artifact)  from src/x.tools.ts, 0 tools\n  ✗ is current')
  })

  it('on a terminal, wraps to its width and keeps details whole; piped, a finding is one line; counts said once for the tools that share them', () => {
    const message = `anthropic-strict: ${'twenty words of advice '.repeat(8).trim()}`
    const detail = `counterexample: {"path":"${'x'.repeat(120)}"}`
    const sampled = [...['a', 'b', 'c'].map(tool => ({ tool, checked: 200, unmet: [] })), { tool: 'd', checked: 40, unmet: ['pattern ^x+$'] }, { tool: 'a (output)', checked: 200, unmet: [], output: true as const }]
    const artifact = { file: path.join(project.root, 'x.mcp.json'), tools: ['a', 'b', 'c', 'd'], samplesChecked: 0, sampled, roundTrips: [], findings: [{ check: 'profile' as const, severity: 'error' as const, tool: 'a', message, detail }] }
    const report = { ok: false, seed: 1, samples: 200, budgets: {}, artifacts: [artifact] }
    const wide = renderReport(report, project.root, { isTTY: false })
    expect(wide).toContain(`    a: ${message}\n`)
    expect(wide).toContain('(3 tools, 200 values each; d: 40 values, not aimed for: pattern ^x+$; 1 output schema, 200 values)')
    const narrow = renderReport(report, project.root, { isTTY: true, columns: 60 })
    // eslint-disable-next-line no-control-regex
    const lines = narrow.replace(/\x1B\[[0-9;]*m/g, '').split('\n')
    expect(lines.filter(line => !line.includes('counterexample')).every(line => line.length <= 60)).toBe(true)
    expect(lines).toContain(`      ${detail}`)
    expect(lines.find(line => line.includes('words of advice') && !line.includes('anthropic'))).toMatch(/^ {6}\S/)
  })

  it('report findings programmatically', async () => {
    const report = await probe({ paths: ['dist'], root: project.root, samples: 20 })
    expect(report.ok).toBe(true)
    await expect(assertProbe({ paths: ['dist'], root: project.root, samples: 20 })).resolves.toMatchObject({ ok: true })
    const narrowed = fixtureProject('cli-assert', {})
    try {
      cpSync(project.root, narrowed.root, { recursive: true })
      const file = path.join(narrowed.root, 'dist/src/chat.tools.mcp.json')
      writeFileSync(file, readFileSync(file, 'utf8').replace('"get_chat"', '"get_chat_renamed"').replace('"get_chat":', '"get_chat_renamed":'))
      await expect(assertProbe({ paths: ['dist'], root: narrowed.root, samples: 20 })).rejects.toThrow(/flatmcp probe found problems:[\s\S]*is current/)
    }
    finally {
      narrowed.remove()
    }
  })
})

/** Seven plain tools and one an enum and a format make worth strictness (anthropic-sdk-typescript #885's refused count). */
const PLAIN = ['a', 'b', 'c', 'd', 'e', 'f'].map(name => ({ name, inputSchema: { type: 'object', properties: { id: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, verbose: { type: 'boolean' } }, required: ['id'] } }))
const STATE = { name: 'set_state', inputSchema: { type: 'object', properties: { state: { enum: ['open', 'closed'] }, at: { type: 'string', format: 'date-time' } }, required: ['state', 'at'] } }

describe('the probe and the anthropic-strict budget', () => {
  /** A snapshot of the seven tools made within `budget`, recorded in it or not. */
  async function snapshotText(budget: number, record: boolean): Promise<string> {
    const list = await compileUpstreamList(await readUpstreamList([...PLAIN, STATE], () => {}), { profiles: ['anthropic-strict'], strictBudget: budget })
    return artifactText(toSnapshot(list.tools, { generator: snapshotGenerator(), upstream: { name: 'kb', version: '1' }, preset: list.preset, profiles: ['anthropic-strict'], ...(record ? { strictBudget: budget } : {}) }))
  }

  it('prints each strict tool\'s points and share, the total against the budget, and a finding past it', async () => {
    const made = fixtureProject('cli-grammar', { 'kb.mcp.json': await snapshotText(500, true) })
    try {
      const report = await probe({ paths: ['kb.mcp.json'], root: made.root, samples: 5 })
      expect(report.ok).toBe(true)
      const grammar = report.strictGrammar!
      // All seven keep strict within 500; each tool's points are what grammarCost says of its strict form.
      expect(grammar).toMatchObject({ profile: 'anthropic-strict', budget: 500, notStrict: [] })
      expect(grammar.tools).toHaveLength(7)
      expect(grammar.spent).toBe(grammar.tools.reduce((sum, tool) => sum + tool.points, 0))
      expect(grammar.tools[0]).toEqual({ name: expect.any(String), points: grammar.tools[0]!.points, share: Math.round(grammar.tools[0]!.points / 500 * 1000) / 1000, kept: true })
      const text = renderReport(report, made.root, { isTTY: false })
      expect(text).toContain(`anthropic-strict grammar: the 7 strict tools spend ${grammar.spent} of a budget of 500 points`)
      expect(text).toMatch(/\n {2}set_state: \d+ points, \d+%\n/)
      // Held to a budget the list is over: a finding for the list, its tools named.
      const tight = await probe({ paths: ['kb.mcp.json'], root: made.root, samples: 5, strictBudget: 48 })
      const together = tight.artifacts.find(artifact => artifact.file === '')!
      expect(together.findings).toEqual([expect.objectContaining({ check: 'profile', severity: 'warning', message: expect.stringContaining(`anthropic-strict: the 7 strict tools these artifacts hold spend ${grammar.spent} points of Anthropic's combined strict grammar, over the budget of 48`) })])
      const tightText = renderReport(tight, made.root, { isTTY: false })
      expect(tightText).toContain(`spend ${grammar.spent} of a budget of 48 points (${Math.round(grammar.spent / 48 * 100)}%), over it`)
      // Which of them a flatmcp server would serve in their base form: the chooser's, the enum and format kept.
      expect(tight.strictGrammar!.tools.find(tool => tool.name === 'set_state')!.kept).toBe(true)
      expect(tight.strictGrammar!.tools.filter(tool => tool.kept).reduce((sum, tool) => sum + tool.points, 0)).toBeLessThanOrEqual(48)
      expect(tightText).toMatch(/\n {2}[a-f]: \d+ points, \d+%, served in its base form to keep within the budget\n/)
    }
    finally {
      made.remove()
    }
  })

  it('re-derives a snapshot made within a budget of its own alike, by the budget it records', async () => {
    const made = fixtureProject('cli-grammar-own', { 'kb.mcp.json': await snapshotText(30, true), 'unrecorded.mcp.json': await snapshotText(30, false) })
    try {
      expect(JSON.parse(made.read('kb.mcp.json')).options.strictBudget).toBe(30)
      const report = await probe({ paths: ['kb.mcp.json'], root: made.root, samples: 5 })
      expect(report.artifacts.flatMap(artifact => artifact.findings).filter(finding => finding.severity === 'error')).toEqual([])
      expect(report.strictGrammar!.budget).toBe(30)
      expect(report.strictGrammar!.spent).toBeLessThanOrEqual(30)
      expect(report.strictGrammar!.notStrict.length).toBeGreaterThan(0)
      // Unrecorded, the probe compiles it within the default budget: another list.
      const unrecorded = await probe({ paths: ['unrecorded.mcp.json'], root: made.root, samples: 5 })
      expect(unrecorded.artifacts[0]!.findings).toContainEqual(expect.objectContaining({ check: 'current', severity: 'error' }))
    }
    finally {
      made.remove()
    }
  })

  it('gives each server of a gateway\'s snapshot its share of the budget, as the proxy does', async () => {
    // A server whose one tool of 22 enums costs the whole budget, and two of plain tools, by their recorded origins.
    const grab = { name: 'grabby__grab', inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`k${i}`, { enum: ['a', 'b', 'c', 'd'] }])), required: Array.from({ length: 22 }, (_, i) => `k${i}`) } }
    const plain = ['one', 'two'].flatMap(server => PLAIN.slice(0, 3).map(tool => ({ ...tool, name: `${server}__${tool.name}` })))
    const origins = new Map([grab, ...plain].map(tool => [tool.name, { server: tool.name.split('__')[0]!, name: tool.name.split('__')[1]! }]))
    const list = await compileUpstreamList(await readUpstreamList([grab, ...plain], () => {}), { profiles: ['anthropic-strict'], strictBudget: 500, originOf: name => origins.get(name) })
    const made = fixtureProject('cli-grammar-shares', { 'servers.mcp.json': artifactText(toSnapshot(list.tools, { generator: snapshotGenerator(), upstream: { name: 'gateway', version: '1' }, preset: list.preset, profiles: ['anthropic-strict'], strictBudget: 500, origins })) })
    try {
      // All seven strict within the 500 it was made in; held to 48, which a proxy would keep strict.
      const report = await probe({ paths: ['servers.mcp.json'], root: made.root, samples: 5, strictBudget: 48 })
      expect(report.strictGrammar!.tools).toHaveLength(7)
      // Compiled again with the origins it records: the same choice, so no finding that it differs.
      expect(report.artifacts.flatMap(artifact => artifact.findings).filter(finding => finding.severity === 'error')).toEqual([])
      const kept = report.strictGrammar!.tools.filter(tool => tool.kept).map(tool => tool.name)
      expect(kept).not.toContain('grabby__grab')
      expect(kept.some(name => name.startsWith('one__'))).toBe(true)
      expect(kept.some(name => name.startsWith('two__'))).toBe(true)
    }
    finally {
      made.remove()
    }
  })
})

describe('the probe\'s time per tool', () => {
  it('draws samples for at most timeBudgetMs per tool, and says how many it drew', async () => {
    const slow = fixtureProject('cli-slow-probe', {
      'src/slow.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const slow = defineTool({ name: 'slow', input: z.object({ a: z.string() }).superRefine(() => { const until = Date.now() + 40; while (Date.now() < until) continue }), handler: () => 1 })\n`,
    })
    try {
      expect(await flatmcpInProcess(['build', 'src/*.tools.ts'], slow.root)).toMatchObject({ code: 0 })
      const report = await probe({ paths: ['dist'], root: slow.root, samples: 200, timeBudgetMs: 400 })
      const sampled = report.artifacts[0]!.sampled[0]!
      expect(sampled.checked).toBeGreaterThan(0)
      expect(sampled.checked).toBeLessThan(200)
      expect(sampled.unmet).toEqual([expect.stringMatching(/^time: \d+ of 200 samples drawn in the 0\.4 s a tool is given$/)])
      // Stopped by its budget, on any machine: each sample holds the clock 40 ms, so 0.4 s ends it
      // after at most 11, however slowly they run.
      const drawn = Number(/^time: (\d+) of/.exec(sampled.unmet[0]!)![1])
      expect(drawn).toBeGreaterThanOrEqual(sampled.checked)
      expect(drawn).toBeLessThanOrEqual(11)
    }
    finally {
      slow.remove()
    }
  })
})

describe('flatmcp inspect', () => {
  it('shows original and advertised schema, diagnostics and plan; plain when piped', async () => {
    const run = await flatmcp(['inspect', 'src/chat.tools.ts', '--tool', 'send_message'], project.root)
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('\x1B[')
    expect(run.stdout).toContain('── send_message  (export sendMessage, portable profile)')
    expect(run.stdout).toContain('"oneOf": [')
    expect(run.stdout).toContain('"type": [')
    expect(run.stdout).toContain('coercion plan: {"discriminator":{"key":"kind","cases":{"message":{"properties":{"media":{"parse":"object"}}},"mediaGroup":{"properties":{"media":{"parse":"array","items":{"parse":"object"},"maxItems":10}}}}}}')
    // Tokens of the definition in every profile, beside the original's; the artifact's listing counts the same.
    // Wrapped at 80 columns between figures, never inside one.
    const tokensLine = /^tokens \(o200k_base.*(?:\n {2}\S.*)*/m.exec(run.stdout)![0]
    expect(tokensLine.split('\n').every(line => line.length <= 80)).toBe(true)
    expect(run.stdout).toMatch(/^changed: 1 union joined, 0 widened, 2 keywords moved, tokens \d+ → \d+ \(\d\.\d\d×\)$/m)
    const tokens = /tokens \(o200k_base, name \+ description \+ schema\): original (\d+) → portable (\d+) \((\d\.\d\d)×\), openai-strict \d+ \(\d\.\d\d×\), anthropic-strict \d+ \(\d\.\d\d×\), gemini (\d+)/.exec(tokensLine.replace(/\n {2}/g, ' '))
    expect(tokens, run.stdout).not.toBeNull()
    const listed = JSON.parse(project.read('dist/src/chat.tools.mcp.json'))
    const send = listed.tools.find((t: { name: string }) => t.name === 'send_message')
    expect(Number(tokens![2])).toBe(definitionTokens(send))
    expect(listed.tokens.send_message).toEqual({ original: Number(tokens![1]), portable: Number(tokens![2]) })
    expect(Number(tokens![3])).toBeCloseTo(Number(tokens![2]) / Number(tokens![1]), 2)
    expect(Number(tokens![4])).toBeLessThan(Number(tokens![2]))
    // Through the built command: its one usage or load error (exit 2) run as a process.
    const missing = await flatmcp(['inspect', 'src/nope.tools.ts'], project.root)
    expect([missing.code, missing.stderr]).toEqual([2, 'flatmcp: src/nope.tools.ts: no such file\n'])
    // A module not named like a tool module is not evaluated: it may be a server entry.
    project.write('src/server.ts', `import { writeFileSync } from 'node:fs'\nwriteFileSync('ran.txt', 'ran')\nexport {}\n`)
    const server = await flatmcpInProcess(['inspect', 'src/server.ts'], project.root)
    expect(server.code).toBe(2)
    expect(server.stderr).toContain('src/server.ts is not named like a tool module (*.tools.ts): inspect evaluates the module it is given')
    expect(existsSync(path.join(project.root, 'ran.txt'))).toBe(false)
    const forced = await flatmcpInProcess(['inspect', 'src/server.ts', '--run'], project.root)
    expect([forced.code, forced.stderr]).toEqual([2, 'flatmcp: src/server.ts: exports no tools\n'])
    expect(existsSync(path.join(project.root, 'ran.txt'))).toBe(true)
    const unknown = await flatmcpInProcess(['inspect', 'src/chat.tools.ts', '--tool', 'nope'], project.root)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('no tool named "nope" (tools: get_chat, send_batch, send_message, update_chat)')
  })
})

describe('a tool whose input is JSON Schema another language\'s generator wrote', () => {
  // What the official Python SDK lists for draw(shape: Circle | Rect, label: str | None = None).
  const pydantic = {
    $defs: {
      Circle: { properties: { kind: { const: 'circle', default: 'circle', title: 'Kind', type: 'string' }, radius: { title: 'Radius', type: 'number' } }, required: ['radius'], title: 'Circle', type: 'object' },
      Rect: { properties: { kind: { const: 'rect', default: 'rect', title: 'Kind', type: 'string' }, w: { title: 'W', type: 'number' } }, required: ['w'], title: 'Rect', type: 'object' },
    },
    properties: {
      shape: { discriminator: { mapping: { circle: '#/$defs/Circle', rect: '#/$defs/Rect' }, propertyName: 'kind' }, oneOf: [{ $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Rect' }], title: 'Shape' },
      label: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Label' },
    },
    required: ['shape'],
    title: 'drawArguments',
    type: 'object',
  }
  const module = `import { defineTool } from '@flatmcp/runtime'\nexport const draw = defineTool({ name: 'draw', input: ${JSON.stringify(pydantic)}, handler: () => 'ok' })\n`

  it('builds with the preset its fingerprints name (or --preset), inspect shows what was cut, the probe passes', async () => {
    const py = fixtureProject('cli-json', { 'src/draw.tools.ts': module })
    try {
      expect(await flatmcpInProcess(['build', 'src/draw.tools.ts', '--out', 'dist', '--profile', 'portable,openai-strict,gemini'], py.root)).toMatchObject({ code: 0 })
      const artifact = JSON.parse(py.read('dist/src/draw.tools.mcp.json'))
      const [tool] = artifact.tools
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"title"|"discriminator"|"\$ref"/)
      expect(tool.inputSchema.properties.shape.required).toEqual(['kind'])
      expect(artifact.runtime.draw.profiles['openai-strict'].inputSchema.properties.label).toEqual({ type: ['string', 'null'] })
      expect(artifact.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'generator-preset', message: expect.stringContaining('read with the "pydantic" preset') })]))
      expect(artifact.options.preset).toBeUndefined()
      const inspected = await flatmcpInProcess(['inspect', 'src/draw.tools.ts'], py.root)
      expect(inspected.code).toBe(0)
      expect(inspected.stdout).toContain('original (JSON Schema as given, read for pydantic)')
      expect(inspected.stdout.replace(/\n {2}/g, ' ')).toContain('cut: 9 titles that restate a key, name a type or title the arguments dropped')
      expect(await flatmcpInProcess(['probe', 'dist'], py.root)).toMatchObject({ code: 0 })

      expect(await flatmcpInProcess(['build', 'src/draw.tools.ts', '--out', 'plain', '--preset', 'json-schema', '--profile', 'portable,gemini'], py.root)).toMatchObject({ code: 0 })
      const plain = JSON.parse(py.read('plain/src/draw.tools.mcp.json'))
      expect(plain.options.preset).toBe('json-schema')
      expect(plain.tools[0].inputSchema.properties.shape.required).toBeUndefined()
      // A validator reads null and a left-out label apart: gemini keeps OpenAPI's nullable, and the probe says who cannot take it.
      const probed = await flatmcpInProcess(['probe', 'plain'], py.root)
      expect(probed.code).toBe(0)
      expect(probed.stdout).toContain('gemini: null is OpenAPI\'s "nullable" at /properties/label, which @cfworker/json-schema (LangChain\'s MCP adapters) does not read')
      // A warning is listed, not failed: its check is marked "!", not "✗".
      expect(probed.stdout).toContain('  ! keeps its profile\'s shape')
      expect(probed.stdout).not.toContain('✗')
      expect((await flatmcpInProcess(['probe', 'dist'], py.root)).stdout).not.toContain('nullable')
      expect(await flatmcpInProcess(['build', 'src/draw.tools.ts', '--preset', 'java'], py.root)).toMatchObject({ code: 2, stderr: expect.stringContaining('--preset must be auto or one of json-schema, pydantic, go, serde, dotnet, not "java"') })
    }
    finally {
      py.remove()
    }
  })
})

describe('flatmcp usage', () => {
  it.each(Object.keys(COMMANDS))('%s --help prints its usage and exits 0; --version the version', async (command) => {
    const help = await flatmcp([command, '--help'], project.root)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`flatmcp ${command} `)
    // The version through the process once, in process for the others.
    const version = await (command === 'build' ? flatmcp : flatmcpInProcess)([command, '--version'], project.root)
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')).version}\n` })
  })

  it('the summary line counts each kind of change: a union joined, a place widened, a keyword moved, the tokens', async () => {
    const mixed = fixtureProject('cli-inspect-kinds', {
      'src/mixed.tools.ts': `import { defineTool } from '@flatmcp/runtime'\nimport { z } from 'zod'\nexport const pick = defineTool({ name: 'pick', input: z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), data: z.unknown() }), z.object({ kind: z.literal('b'), at: z.iso.datetime() })]) }), handler: () => 1 })\n`,
    })
    try {
      const run = await flatmcpInProcess(['inspect', 'src/mixed.tools.ts'], mixed.root)
      expect(run.code).toBe(0)
      expect(run.stdout.split('\n')[1]).toMatch(/^changed: 1 union joined, [1-9]\d* widened, [1-9]\d* keywords? moved, tokens \d+ → \d+ \(\d\.\d\d×\)$/)
    }
    finally {
      mixed.remove()
    }
  })

  it('--summary says each tool in a line (what changed, tokens before and after) and the list\'s total, in the profile asked for', async () => {
    const run = await flatmcpInProcess(['inspect', 'src/chat.tools.ts', '--summary', '--profile', 'gemini'], project.root)
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines).toHaveLength(5)
    expect(lines.slice(0, 4).map(line => line.split(' ')[0]).sort()).toEqual(['get_chat', 'send_batch', 'send_message', 'update_chat'])
    for (const line of lines.slice(0, 4))
      expect(line).toMatch(/^\S+ +\d+ unions? joined, \d+ widened, \d+ keywords? moved, tokens \d+ → \d+ \(\d\.\d\d×\)$/)
    const sum = (at: 1 | 2): number => lines.slice(0, 4).reduce((n, line) => n + Number(/tokens (\d+) → (\d+)/.exec(line)![at]), 0)
    expect(lines[4]).toBe(`4 tools in gemini: tokens ${sum(1)} → ${sum(2)} (${(sum(2) / sum(1)).toFixed(2)}×)`)
    expect(run.stdout).not.toContain('"properties"')
  })

  it('--profile shows a tool in that profile, with the JSON text it parses back; an unknown one is a usage error', async () => {
    const run = await flatmcpInProcess(['inspect', 'src/chat.tools.ts', '--tool', 'send_message', '--profile', 'gemini'], project.root)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('(export sendMessage, gemini profile)')
    expect(run.stdout).toContain('JSON text parsed back: {"properties":{"media":{"parse":"json"}}}')
    expect(await flatmcpInProcess(['inspect', 'src/chat.tools.ts', '--profile', 'openai'], project.root)).toMatchObject({ code: 2, stderr: expect.stringContaining('--profile must be one of portable, minimal, openai-strict, anthropic-strict, gemini, not "openai"') })
  })

  it('an unknown option is said with where the usage is, and exits 2', async () => {
    const run = await flatmcp(['probe', '--bogus'], project.root)
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toBe('flatmcp: unknown option --bogus\n(flatmcp probe --help shows the usage)')
  })
})
