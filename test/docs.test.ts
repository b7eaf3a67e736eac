// Every code block of the README, docs/*.md and each package's README is checked by what it is: a
// configuration or serving snippet is an example's file, whole (the examples are built and run by
// the other tests); the Quick start's files are followed in a fresh project (pack-install); other
// TypeScript is type-checked, and run where it runs offline; a schema shown as compiled is compiled
// and compared; a command line is read by the real command (FLATMCP_PARSE_ONLY), a client config's
// and an overrides file's too; a call's message is the server's answer. A block no check covers
// fails the first test, so a new one cannot slip by.
import type { DocBlock } from './support/readme'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { compileTool, toOriginalSchema } from '@flatmcp/core'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLine } from '../packages/cli/src/proxy/audit-log'
import { connectStdio, ROOT, TS_NODE } from './support/client'
import { layoutPaths } from './support/layout-map'
import { docBlocks, docPages, headingAnchor, quickStartFiles, readmeSnippet, readmeSnippets, shellCommands } from './support/readme'
import { SLOW } from './support/timeouts'

/** Each snippet the pages show, by the name on its first line, and the example it comes from. */
const EXAMPLE_FILES: Record<string, string> = {
  ...Object.fromEntries(['vite.config.ts', 'rollup.config.mjs', 'rolldown.config.mjs', 'esbuild.config.mjs', 'webpack.config.mjs', 'rspack.config.mjs', 'src/tools.ts', 'src/stdio.ts', 'src/stdio-v2.ts', 'src/flat.tools.ts', 'src/flat-server.ts', 'src/flat-v2.ts', 'src/flat-tmcp.ts', 'src/flat-fastmcp.ts', 'src/flat-mcp-handler.ts'].map(file => [file, 'examples/chat-server'])),
  'src/worker.ts': 'examples/proxy-worker',
}

/**
 * Output shown as it was printed, which the suite does not stage again: a benchmark's tables, a
 * probe report, stderr lines. Listed by page and first line, so a new one is a choice.
 */
const TRANSCRIPTS = [
  ['README.md', 'dist/src/chat.tools.mcp.json  from src/chat.tools.ts'],
  ['docs/development.md', 'flatmcp benchmarks'],
  ['docs/development.md', '8. target profiles'],
  ['docs/development.md', 'profile                                   arguments'],
  ['docs/development.md', 'set      tool'],
  ['docs/development.md', 'set             tool'],
  ['docs/development.md', 'transport     request'],
  ['docs/flattening.md', 'src/tools.ts:13:55: export "code"'],
  ['docs/proxy.md', 'flatmcp proxy: tool "firecrawl_search"'],
  ['docs/proxy.md', 'flatmcp proxy: --surface auto (portable)'],
  ['docs/proxy.md', 'flatmcp proxy: tool "who.am.i" is served as'],
  ['docs/proxy.md', 'flatmcp: ov.json: overrides.tools["page"]'],
  // packages/cli/test/install.list.e2e.test.ts renders it.
  ['docs/proxy.md', 'claude-code     project  installed'],
]

/** The calls whose answers the README shows as a failed validation's text. */
const CALLS: [string, Record<string, unknown>][] = [
  ['send_message', { kind: 'mediaGroup', text: 'hello' }],
  ['update_chat', { chatId: 'c1', action: 'archive' }],
]

const SNIPPETS = path.join(ROOT, 'test/.tmp/snippets')
const blocks = docBlocks()
const where = (block: DocBlock): string => `${block.page}:${block.line}`
const firstLine = (block: DocBlock): string => block.text.split('\n')[0]!
const quickStart = new Set(Object.values(quickStartFiles()))
const exampleNamed = (block: DocBlock): string | undefined => {
  const named = /^\/\/ ([\w./-]+):/.exec(block.text)?.[1]
  return named !== undefined && named in EXAMPLE_FILES ? named : undefined
}
const parsedJson = (block: DocBlock): unknown => JSON.parse(block.text.trimStart().startsWith('"') ? `{${block.text}}` : block.text)

/** The balancer and Kubernetes configurations test/proxy.replicas.test.ts runs (each file of examples/replicas), as the docs print them. */
const REPLICA_FILES = readdirSync(path.join(ROOT, 'examples/replicas'))
const replicaConfigs = new Map(REPLICA_FILES.map(file => [readFileSync(path.join(ROOT, 'examples/replicas', file), 'utf8').trimEnd(), file]))

/** How a block is checked; undefined where nothing checks it. */
function kindOf(block: DocBlock): string | undefined {
  if (block.lang === 'mermaid')
    return 'diagram'
  if (replicaConfigs.has(block.text.trimEnd()))
    return 'replica config'
  if (block.lang === '') {
    if (block.page === 'docs/development.md' && block.text.startsWith('packages/\n'))
      return 'layout'
    if (block.text.startsWith('Invalid arguments for tool'))
      return 'call result'
    if (block.text.startsWith('{"time":'))
      return 'audit line'
    return TRANSCRIPTS.some(([page, start]) => block.page === page && block.text.startsWith(start!)) ? 'transcript' : undefined
  }
  if (['ts', 'js', 'jsonc'].includes(block.lang)) {
    if (exampleNamed(block) !== undefined)
      return 'example file'
    if (block.page === 'README.md' && quickStart.has(block.text))
      return 'quick start'
    return block.lang === 'jsonc' ? undefined : 'typescript'
  }
  if (block.lang === 'sh')
    return 'commands'
  // Its port is the exporter's default, which test/proxy.telemetry-conventions.test.ts reads back.
  if (block.lang === 'yaml' && block.text.startsWith('scrape_configs:'))
    return 'scrape config'
  if (block.lang === 'toml')
    return 'client config'
  if (block.lang === 'json') {
    const value = parsedJson(block) as Record<string, unknown>
    // VS Code's "servers" holds servers; an overrides file's names their prefixes and replicas.
    const overridesServers = Object.values((value.servers ?? {}) as Record<string, object>).every(server => 'prefix' in server || 'replicas' in server)
    if ('mcpServers' in value || ('servers' in value && !overridesServers))
      return 'client config'
    // A callers file may name tools too (their limits).
    if ('callers' in value)
      return 'callers'
    if ('tools' in value || 'servers' in value || 'separator' in value)
      return 'overrides'
    return compiledChecks.has(block) ? 'compiled' : undefined
  }
  return undefined
}

/** Imports a snippet as written to the snippets folder (it must have been written). */
const importSnippet = async (file: string): Promise<Record<string, unknown>> => import(pathToFileURL(path.join(SNIPPETS, file)).href) as Promise<Record<string, unknown>>

/** The Quick start's send tool, as the reader writes it. */
const quickStartSend = async (): Promise<Parameters<typeof compileTool>[0] & { input: unknown }> =>
  (await importSnippet('quick-start/src/send.tools.ts')).send as never

/** Each block shown as compiler output, and what the compiler gives for it now. */
const compiledChecks = new Map<DocBlock, () => Promise<unknown>>()
{
  const firstScreen = blocks.filter(block => block.page === 'README.md' && block.lang === 'json').slice(0, 2)
  compiledChecks.set(firstScreen[0]!, async () => {
    const { $schema: _, ...schema } = toOriginalSchema((await quickStartSend()).input).schema as Record<string, unknown>
    return schema
  })
  compiledChecks.set(firstScreen[1]!, async () => compileTool(await quickStartSend()).inputSchema)
  for (const [i, block] of blocks.entries()) {
    const next = blocks[i + 1]
    if (block.lang === 'ts' && block.text.includes('const { inputSchema') && next?.page === block.page && next.lang === 'json') {
      compiledChecks.set(next, async () => {
        const file = [...typescript].find(([, b]) => b === block)![0]
        return (await importSnippet(file)).inputSchema
      })
    }
  }
  for (const block of blocks.filter(b => b.page === 'docs/flattening.md' && b.lang === 'json' && b.text.startsWith('"examples"')))
    compiledChecks.set(block, async () => ({ examples: (compileTool(await quickStartSend()).inputSchema as { examples: unknown }).examples }))
}

/** The TypeScript blocks that are not examples' or Quick start files, by the file each is written to. */
const typescript = new Map(blocks.filter(block => kindOf(block) === 'typescript').map(block => [`${block.page.replace(/\W+/g, '-')}-${block.line}.ts`, block]))

/** Runs the built command with FLATMCP_PARSE_ONLY: it reads and checks the line, and stops. */
function parseOnly(args: string[], env: Record<string, string> = {}): { code: number | null, output: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'packages/cli/dist/cli.mjs'), ...args], { cwd: SNIPPETS, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', FLATMCP_PARSE_ONLY: '1', ...env } })
  return { code: run.status, output: `${run.stdout}${run.stderr}` }
}

beforeAll(() => {
  rmSync(SNIPPETS, { recursive: true, force: true })
  mkdirSync(path.join(SNIPPETS, 'dist/src'), { recursive: true })
  for (const [file, block] of typescript) {
    // A snippet that names what it computes is imported for it.
    const exported = /^const \{ inputSchema[^}]*\}/m.test(block.text) ? '\nexport { inputSchema }\n' : ''
    writeFileSync(path.join(SNIPPETS, file), `${block.text}${exported}`)
  }
  for (const [file, text] of Object.entries(quickStartFiles())) {
    mkdirSync(path.dirname(path.join(SNIPPETS, 'quick-start', file)), { recursive: true })
    writeFileSync(path.join(SNIPPETS, 'quick-start', file), text)
  }
  // What the snippets take from around them: the example's tools, an artifact flatmcp build wrote.
  writeFileSync(path.join(SNIPPETS, 'tools.ts'), `export { tools } from '../../../examples/chat-server/src/tools'\n`)
  cpSync(path.join(ROOT, 'test/golden/expected/src/send.tools.mcp.json'), path.join(SNIPPETS, 'dist/src/send.tools.mcp.json'))
  writeFileSync(path.join(SNIPPETS, 'tsconfig.json'), JSON.stringify({ extends: '../../../tsconfig.base.json', include: ['**/*.ts'] }))
})
afterAll(() => rmSync(SNIPPETS, { recursive: true, force: true }))

describe('every code block of the README, docs/ and the packages\' READMEs', () => {
  it('finds the blocks of every page, and each is checked by one of the checks below', () => {
    expect(new Set(blocks.map(block => block.page))).toEqual(new Set([...docPages()].filter(([, text]) => text.includes('```')).map(([page]) => page)))
    expect(blocks.length).toBeGreaterThan(60)
    expect(blocks.filter(block => kindOf(block) === undefined).map(block => `${where(block)} ${block.lang || '(no language)'}: ${firstLine(block)}`)).toEqual([])
  })

  it.each(Object.entries(EXAMPLE_FILES))('%s is shown as %s has it', (file, example) => {
    expect(readmeSnippet(file)).toBe(readFileSync(path.join(ROOT, example, file), 'utf8'))
  })

  it('names no file the examples do not have', () => {
    expect([...readmeSnippets().keys()].filter(file => !(file in EXAMPLE_FILES))).toEqual([])
  })

  it('every other TypeScript block, and the Quick start\'s files, type-check as written (strict)', () => {
    expect(typescript.size).toBeGreaterThan(8)
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', SNIPPETS], { cwd: ROOT, encoding: 'utf8' })
    const errors = tsc.stdout.split('\n').filter(line => line.includes('error TS')).map((line) => {
      const file = /^(?:test\/\.tmp\/snippets\/)?([^(]+)\(/.exec(line)?.[1]
      const block = file === undefined ? undefined : typescript.get(file)
      return block ? `${where(block)} (${file}): ${line}` : line
    })
    expect(errors).toEqual([])
    expect(tsc.status).toBe(0)
  }, SLOW)

  it('a block shown as compiler output is what the compiler gives now', async () => {
    expect(compiledChecks.size).toBe(4)
    for (const [block, compiled] of compiledChecks)
      expect(await compiled(), where(block)).toEqual(parsedJson(block))
  })

  it('the TypeScript blocks that run offline run: the compiler\'s diagnostics are empty; an artifact registers', async () => {
    const runs = [...typescript].filter(([, block]) => /compileTool\(|registerArtifact\(/.test(block.text))
    expect(runs.length).toBe(3)
    for (const [file, block] of runs) {
      const module = await importSnippet(file)
      if ('inputSchema' in module)
        expect(module.inputSchema, where(block)).toMatchObject({ type: 'object' })
    }
  })

  it('the plugin\'s README config builds the example\'s tools, and the runtime README\'s server serves a real client', async () => {
    const [config] = blocks.filter(block => block.page === 'packages/unplugin/README.md' && kindOf(block) === 'typescript')
    const project = path.join(SNIPPETS, 'plugin-readme')
    cpSync(path.join(ROOT, 'examples/chat-server/src'), path.join(project, 'src'), { recursive: true })
    writeFileSync(path.join(project, 'vite.config.ts'), config!.text)
    const { build } = await import('vite')
    await build({ root: project, configFile: path.join(project, 'vite.config.ts'), logLevel: 'silent' })
    const [server] = [...typescript].find(([, block]) => block.page === 'packages/runtime/README.md')!
    for (const [command, args, cwd, tool] of [[process.execPath, ['dist/server.mjs'], project, 'send_message'], [TS_NODE[0], [...TS_NODE.slice(1), server], SNIPPETS, 'send']] as const) {
      const session = await connectStdio(command, [...args], cwd)
      try {
        const { tools } = await session.client.listTools()
        const listed = tools.find(t => t.name === tool)
        expect(listed, `${args.at(-1)} lists ${tool}`).toBeDefined()
        expect(JSON.stringify(listed)).not.toMatch(/"(oneOf|anyOf)"/)
      }
      finally {
        await session.close()
      }
    }
  }, SLOW)

  it('every command line is one the command takes, an npm script the workspace has, or a package it names', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>, devDependencies: Record<string, string> }
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }).version
    const ours = ['@flatmcp/runtime', '@flatmcp/core', 'unplugin-flatmcp', 'flatmcp']
    const known = new Set([...ours, ...Object.keys(pkg.devDependencies), '@modelcontextprotocol/server', '@modelcontextprotocol/sdk'])
    /** Why a command is not one the docs may show; undefined where it is. */
    const refusal = ([head, ...args]: string[], env: Record<string, string>): string | undefined => {
      if (head === 'flatmcp' || (head === 'npx' && args[0] === 'flatmcp')) {
        const run = parseOnly(head === 'npx' ? args.slice(1) : args, env)
        return run.code === 0 ? undefined : run.output.trim()
      }
      if (head === 'npm' && (args[0] === 'test' || args[0] === 'run')) {
        const script = args[0] === 'test' ? 'test' : args[1]!
        return pkg.scripts[script] === undefined ? `no npm script "${script}"` : undefined
      }
      if (head === 'npm' && (args[0] === 'i' || args[0] === 'install')) {
        const unknown = args.slice(1).filter(arg => !arg.startsWith('-')).find(name => name.endsWith('.tgz') ? path.basename(name) !== `flatmcp-${version}.tgz` : !known.has(name))
        return unknown === undefined ? undefined : `installs ${unknown}, which the workspace does not name`
      }
      if (head === 'npm' && (args[0] === 'init' || args[0] === 'pkg'))
        return undefined
      // The MCP Inspector (the real-client suite runs it): the flatmcp command it starts, up to its own --, is one flatmcp takes.
      if (head === 'npx' && args[0] === '@modelcontextprotocol/inspector') {
        const at = args.indexOf('flatmcp')
        return at < 0 ? undefined : refusal(['flatmcp', ...args.slice(at + 1, args.lastIndexOf('--') > at ? args.lastIndexOf('--') : undefined)], env)
      }
      if (head === 'npx' && args[0] === 'vitest') {
        const missing = args.slice(2).filter(arg => !arg.startsWith('-')).find(file => !existsSync(path.join(ROOT, file)))
        return missing === undefined ? undefined : `no test file ${missing}`
      }
      return 'a command no check reads'
    }
    const commands = blocks.filter(b => b.lang === 'sh').flatMap(block => shellCommands(block.text, { TOKEN: 'token' }).map(command => ({ block, ...command })))
    const refused = commands.flatMap(({ block, line, words, env }) => {
      const why = refusal(words, env)
      return why === undefined ? [] : [`${where(block)}: ${line}: ${why}`]
    })
    expect(refused).toEqual([])
    expect(commands.filter(({ words }) => words[0] === 'flatmcp' || (words[0] === 'npx' && words[1] === 'flatmcp')).length).toBeGreaterThan(15)
  }, SLOW)

  it('the balancer and Kubernetes configurations shown are the files the replicas test runs, each once', () => {
    const shown = blocks.filter(block => kindOf(block) === 'replica config').map(block => replicaConfigs.get(block.text.trimEnd()))
    expect(shown.sort()).toEqual([...REPLICA_FILES].sort())
  })

  it('a client config starts the command with arguments it takes', () => {
    const configs = blocks.filter(block => kindOf(block) === 'client config')
    expect(configs.length).toBe(8)
    for (const block of configs) {
      const servers = block.lang === 'toml'
        ? [{ command: JSON.parse(/^command = (.+)$/m.exec(block.text)![1]!) as string, args: JSON.parse(/^args = (.+)$/m.exec(block.text)![1]!) as string[] }]
        : Object.values((parsedJson(block) as { mcpServers?: object, servers?: object }).mcpServers ?? (parsedJson(block) as { servers: object }).servers) as { command: string, args: string[] }[]
      for (const server of servers) {
        // npx's -y and a pinned version (what flatmcp install writes) name the same command.
        const args = server.args[0] === '-y' ? server.args.slice(1) : server.args
        expect([server.command, args[0]?.replace(/@[\d.]+$/, '')], where(block)).toEqual(['npx', 'flatmcp'])
        expect(parseOnly(args.slice(1)), where(block)).toEqual({ code: 0, output: '' })
      }
    }
  })

  it('an overrides file is one the proxy reads', () => {
    const files = blocks.filter(block => kindOf(block) === 'overrides')
    expect(files.length).toBe(3)
    for (const [i, block] of files.entries()) {
      writeFileSync(path.join(SNIPPETS, `overrides-${i}.json`), block.text)
      expect(parseOnly(['proxy', '--overrides', `overrides-${i}.json`, '--', 'node', 'server.js']), where(block)).toEqual({ code: 0, output: '' })
    }
    // The check reads the file: a stray key is refused.
    writeFileSync(path.join(SNIPPETS, 'overrides-bad.json'), JSON.stringify({ tools: { x: { hidden: true } } }))
    expect(parseOnly(['proxy', '--overrides', 'overrides-bad.json', '--', 'node', 'server.js']).code).toBe(2)
  })

  it('a callers file is one the proxy reads, and an audit line has the fields the audit log writes, in order', () => {
    const [callers, ...more] = blocks.filter(block => kindOf(block) === 'callers')
    writeFileSync(path.join(SNIPPETS, 'callers.json'), callers!.text)
    const serve = ['proxy', '--http', '0', '--callers', 'callers.json', '--', 'node', 'server.js']
    expect(parseOnly(serve, { CI_TOKEN: 'c', ALICE_TOKEN: 'a' }), where(callers!)).toEqual({ code: 0, output: '' })
    for (const [i, block] of more.entries()) {
      writeFileSync(path.join(SNIPPETS, `callers-${i}.json`), block.text)
      expect(parseOnly(['proxy', '--http', '0', '--callers', `callers-${i}.json`, '--', 'node', 'server.js'], { CI_TOKEN: 'c', ALICE_TOKEN: 'a', BOT_TOKEN: 'b' }), where(block)).toEqual({ code: 0, output: '' })
    }
    // The check reads the file: a variable not set is refused.
    expect(parseOnly(serve, { CI_TOKEN: 'c' }).code).toBe(2)
    // Each line of the example as the audit log writes one of its method and outcome.
    const [block] = blocks.filter(block => kindOf(block) === 'audit line')
    for (const line of block!.text.trim().split('\n').map(text => JSON.parse(text) as { method: string, outcome: string })) {
      const written = line.outcome === 'refused'
        ? auditLine({ time: '', id: 1, method: line.method, tool: 't', outcome: 'refused', why: '' })
        : auditLine({ time: '', id: 1, tool: 't', upstream: 'u', outcome: 'ok', durationMs: 0, repaired: [], ...(line.method === 'tools/call' ? {} : { method: line.method }) })
      expect(Object.keys(line), where(block!)).toEqual(Object.keys(JSON.parse(written) as object))
    }
  })

  it('a failed validation\'s text is what the example server answers', async () => {
    const { tools } = await import('../examples/chat-server/src/tools')
    const server = createMcpServer(tools, { name: 'docs', version: '0.0.0' })
    const client = new Client({ name: 'docs', version: '0.0.0' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await Promise.all([server.connect(serverSide), client.connect(clientSide)])
    try {
      const answers: string[] = []
      for (const [name, args] of CALLS)
        answers.push(((await client.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text)
      const shown = blocks.filter(block => kindOf(block) === 'call result')
      expect(shown.length).toBe(CALLS.length)
      for (const block of shown)
        expect(answers, where(block)).toContain(block.text.trimEnd())
    }
    finally {
      await client.close()
    }
  })

  it('the layout drawn in docs/development.md names folders and files the workspace has', () => {
    const named = layoutPaths()
    const missing = named.filter(word => word.includes('*') ? !existsSync(path.join(ROOT, word.replace('*', 'core'))) : !existsSync(path.join(ROOT, word)))
    expect(named.length).toBeGreaterThan(40)
    expect(missing).toEqual([])
  })
})

describe('README and docs links', () => {
  const pages = docPages()
  const anchors = new Map([...pages].map(([page, text]) => [page, new Set([...text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#+ (.+)$/gm)].map(m => headingAnchor(m[1]!)))]))
  const links = [...pages].flatMap(([page, text]) => [...text.matchAll(/\]\((?!https?:)([^)\s]*)\)/g)].map(m => ({ page, link: m[1]! })))

  it('finds the links it checks', () => {
    expect(links.filter(l => l.link.startsWith('docs/')).length).toBeGreaterThan(2)
  })

  it.each(links.map(l => [l.page, l.link] as const))('%s: %s leads to a page and a heading it has', (page, link) => {
    const [file, anchor] = link.split('#') as [string, string | undefined]
    const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
    expect(existsSync(path.join(ROOT, target)), `${target} exists`).toBe(true)
    if (anchor !== undefined)
      expect([...(anchors.get(target) ?? [])], `${target} has a heading for #${anchor}`).toContain(anchor)
  })
})
