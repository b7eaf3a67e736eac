// Many servers behind one `flatmcp proxy --config`, from a client's own config: every server's tools
// listed by `NAME__tool`, each call reaching its own server with the direct result, each server with
// its own environment, one that cannot start left out and said while the others serve, and two
// servers whose names would serve the same tool name refused at start.
import type { Connected } from './support/client'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createGateway, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { afterAll, describe, expect, it } from 'vitest'
import { connectStdioV2, ROOT } from './support/client'
import { CLI, httpClient, INITIALIZE, runCli, startListening, UPSTREAM_OUTPUTS, UPSTREAM_V2 } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-gateway-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const MISBEHAVING = join(ROOT, 'test/support/misbehaving-upstream.mjs')
const commandEntry = (command: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ command: command[0], args: command.slice(1), ...extra })

function configFile(name: string, servers: Record<string, unknown>): string {
  const file = join(scratch, name)
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2))
  return file
}

// Each upstream behind a proxy of its own, for what the gateway is compared with: started at its first
// use and shared, for the tests only list and make calls that change nothing.
const proxiesAlone = new Map<string, Promise<Connected>>()
afterAll(async () => {
  await Promise.all([...proxiesAlone.values()].map(async opened => (await opened).close()))
})
function proxyAlone(command: readonly string[]): Promise<Connected> {
  const key = command.join(' ')
  if (!proxiesAlone.has(key))
    proxiesAlone.set(key, connectStdioV2(process.execPath, [CLI, 'proxy', '--', ...command]))
  return proxiesAlone.get(key)!
}

const names = async (connected: Connected): Promise<string[]> => (await connected.client.listTools()).tools.map(tool => tool.name).sort()
const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text

describe('flatmcp proxy --config: many servers, one endpoint', () => {
  it('lists every server\'s tools by NAME__tool (as many as their own lists), each call reaching its own server with the direct result and its own environment', async () => {
    const file = configFile('claude_desktop_config.json', {
      chat: commandEntry(UPSTREAM_V2),
      weather: commandEntry(UPSTREAM_OUTPUTS, { env: { REGION: 'eu-west' } }),
      retired: commandEntry(['node', 'nowhere.js'], { disabled: true }),
    })
    const [gateway, chat, weather] = await Promise.all([
      connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full']),
      proxyAlone(UPSTREAM_V2),
      proxyAlone(UPSTREAM_OUTPUTS),
    ])
    try {
      const own = [...(await names(chat)).map(name => `chat__${name}`), ...(await names(weather)).map(name => `weather__${name}`)].sort()
      expect(await names(gateway)).toEqual(own)
      // The same schemas as each server's own proxy lists, under the served name.
      const listed = (await gateway.client.listTools()).tools
      const page = (await chat.client.listTools()).tools.find(tool => tool.name === 'page')!
      expect(listed.find(tool => tool.name === 'chat__page')!.inputSchema).toEqual(page.inputSchema)
      const call = async (connected: Connected, name: string, args: Record<string, unknown>): Promise<string> => textOf(await connected.client.callTool({ name, arguments: args }))
      expect(await call(gateway, 'chat__page', { query: 'q', limit: '3' })).toBe(await call(chat, 'page', { query: 'q', limit: '3' }))
      expect(await call(gateway, 'chat__send', { kind: 'message', text: 'hi' })).toBe(await call(chat, 'send', { kind: 'message', text: 'hi' }))
      expect(await call(gateway, 'weather__env', { name: 'REGION' })).toBe('eu-west')
      expect(await call(chat, 'page', { query: 'q' })).toBe('{"query":"q"}')
      await expect(gateway.client.callTool({ name: 'page', arguments: { query: 'q' } })).rejects.toThrow(/Unknown tool "page"/)
      expect(gateway.stderr()).toContain('flatmcp proxy: server "retired" is switched off in the config ("disabled": true); not served')
      expect(gateway.stderr()).toMatch(/flatmcp proxy: serving \d+ tools of 2 servers \(chat, weather\)/)
    }
    finally {
      await gateway.close()
    }
  })

  it('snapshot --config writes the whole set\'s snapshot, proxy --config --artifact serves it without compiling, and the probe finds it current and sound', async () => {
    const file = configFile('.mcp.json', { chat: commandEntry(UPSTREAM_V2), weather: commandEntry(UPSTREAM_OUTPUTS) })
    const out = join(scratch, 'many.mcp.json')
    const made = await runCli(['snapshot', '--config', file, '--out', out])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stderr).toMatch(/flatmcp snapshot: \d+ tools of 2 servers \(chat, weather\)/)
    const snapshot = JSON.parse(readFileSync(out, 'utf8')) as { tools: { name: string }[], runtime: Record<string, { origin?: unknown }> }
    expect(snapshot.tools.map(tool => tool.name)).toContain('chat__page')
    // Where each tool comes from, for the fetch handler in front of the set.
    expect(snapshot.runtime.chat__page!.origin).toEqual({ server: 'chat', name: 'page' })
    expect(snapshot.tools.map(tool => tool.name)).toContain('weather__forecast')
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full', '--artifact', out])
    try {
      expect((await served.client.listTools()).tools).toEqual(snapshot.tools)
      await expect.poll(served.stderr, { timeout: 30_000 }).toMatch(/serving \d+ tools of 2 servers \(chat, weather\), all from the snapshot/)
      expect(textOf(await served.client.callTool({ name: 'chat__page', arguments: { query: 'q', limit: '2' } }))).toBe('{"query":"q","limit":2}')
    }
    finally {
      await served.close()
    }
    const probed = await runCli(['probe', out, '--samples', '5'])
    expect(probed.code, probed.stdout).toBe(0)
  })

  it('with --config, --surface auto is the default: whichever of the full list and the search surface costs a session fewer tokens (o200k_base), said with the figures', async () => {
    const file = configFile('auto.json', { chat: commandEntry(UPSTREAM_V2), weather: commandEntry(UPSTREAM_OUTPUTS) })
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file])
    try {
      const listed = (await served.client.listTools()).tools.map(tool => tool.name)
      await expect.poll(served.stderr, { timeout: 30_000 }).toMatch(/flatmcp proxy: --surface auto \(portable\): the full list of \d+ tools is \d+ tokens/)
      const [, tools, full, list, described, lean, chosen] = /--surface auto \(portable\): the full list of (\d+) tools is (\d+) tokens, the search surface (\d+) and one tool described (\d+) \((\d+)\): (serving the full list|serving find_tools, describe_tools and call_tool)/.exec(served.stderr())!.map(String)
      expect(Number(list) + Number(described)).toBe(Number(lean))
      expect(chosen === 'serving the full list').toBe(Number(full) <= Number(lean))
      expect(listed).toEqual(chosen === 'serving the full list' ? expect.arrayContaining(['chat__page']) : Object.values(SURFACE_TOOLS))
      expect(Number(tools)).toBeGreaterThan(3)
      // Either way, a tool is called by its own name.
      expect(textOf(await served.client.callTool({ name: 'chat__page', arguments: { query: 'q', limit: '2' } }))).toBe('{"query":"q","limit":2}')
    }
    finally {
      await served.close()
    }
  })

  it('--http serves the overrides\' views to callers that name one (?view=, X-MCP-View), and the tools a caller names (?tools=, X-MCP-Tools): those only, behind the view\'s surface; everyone else every tool', async () => {
    const file = configFile('views.json', { chat: commandEntry(UPSTREAM_V2), weather: commandEntry(UPSTREAM_OUTPUTS) })
    const overrides = join(scratch, 'views-overrides.json')
    writeFileSync(overrides, JSON.stringify({ tools: {}, views: { pager: { tools: ['chat__page'] }, lean: { surface: 'search' } } }))
    const proxy = await startListening(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full', '--overrides', overrides, '--http', '0'])
    const clients: Client[] = []
    const connect = async (url: string): Promise<Client> => {
      const client = await httpClient(url)
      clients.push(client)
      return client
    }
    try {
      const pager = await connect(`${proxy.url}?view=pager`)
      expect((await pager.listTools()).tools.map(tool => tool.name)).toEqual(['chat__page'])
      expect(textOf(await pager.callTool({ name: 'chat__page', arguments: { query: 'q', limit: '2' } }))).toBe('{"query":"q","limit":2}')
      await expect(pager.callTool({ name: 'weather__forecast', arguments: {} })).rejects.toThrow(/Unknown tool/)
      expect((await (await connect(`${proxy.url}?view=lean`)).listTools()).tools.map(tool => tool.name)).toEqual(Object.values(SURFACE_TOOLS))
      const all = (await (await connect(proxy.url)).listTools()).tools.map(tool => tool.name)
      expect(all).toContain('weather__forecast')
      expect(all.length).toBeGreaterThan(3)
      // The header names a view as the query does.
      const listed = async (headers: Record<string, string>, url = proxy.url): Promise<string[]> => {
        const raw = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
        const text = await raw.text()
        const body = JSON.parse(text.trimStart().startsWith('{') ? text : text.split('\n').find(line => line.startsWith('data:'))!.slice(5)) as { result: { tools: { name: string }[] } }
        return body.result.tools.map(tool => tool.name)
      }
      expect(await listed({ 'x-mcp-view': 'pager' })).toEqual(['chat__page'])
      // A subset the caller names itself, as github-mcp-server takes one, in the route's profile.
      expect(await listed({ 'x-mcp-tools': 'weather__forecast, chat__page,nope' })).toEqual(['chat__page', 'weather__forecast'])
      expect(await listed({}, `${proxy.url}/openai-strict?tools=chat__page`)).toEqual(['chat__page'])
      const subset = await connect(`${proxy.url}?tools=chat__page`)
      await expect(subset.callTool({ name: 'weather__forecast', arguments: {} })).rejects.toThrow(/Unknown tool/)
    }
    finally {
      await Promise.all(clients.map(client => client.close().catch(() => {})))
      await proxy.close()
    }
  })

  it('names as the overrides say (a server without prefix, another separator), overrides keyed by the served name, and one search surface across every server', async () => {
    const file = configFile('named.json', { chat: commandEntry(UPSTREAM_V2), weather: commandEntry(UPSTREAM_OUTPUTS) })
    const overrides = join(scratch, 'overrides.json')
    writeFileSync(overrides, JSON.stringify({ servers: { chat: { prefix: '' } }, separator: '-', tools: { 'weather-forecast': { hide: true }, 'page': { description: 'Pages through the chat.' } } }))
    const [full, lean] = await Promise.all([
      connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full', '--overrides', overrides]),
      connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--overrides', overrides, '--surface', 'search']),
    ])
    try {
      const listed = (await full.client.listTools()).tools
      expect(listed.map(tool => tool.name)).toContain('page')
      expect(listed.map(tool => tool.name)).toContain('weather-env')
      expect(listed.map(tool => tool.name)).not.toContain('weather-forecast')
      expect(listed.find(tool => tool.name === 'page')!.description).toBe('Pages through the chat.')
      expect((await lean.client.listTools()).tools.map(tool => tool.name)).toEqual(Object.values(SURFACE_TOOLS))
      const found = textOf(await lean.client.callTool({ name: 'find_tools', arguments: { query: 'environment variable' } }))
      expect(found).toMatch(/^\[fit \d\.\d\d\] weather-env: /)
      // Each tool's server is read from the origin map, not from a prefix: chat's tools have none, and "chat" finds them.
      const chat = textOf(await lean.client.callTool({ name: 'find_tools', arguments: { query: 'chat' } })).split('\n\n')[0]!.split('\n').map(line => /^\[fit \d\.\d\d\] ([^:]+):/.exec(line)![1]!)
      expect(chat.length).toBeGreaterThan(3)
      expect(chat.filter(name => name.startsWith('weather-'))).toEqual([])
      expect(textOf(await lean.client.callTool({ name: 'call_tool', arguments: { name: 'page', arguments: { query: 'q' } } }))).toBe('{"query":"q"}')
    }
    finally {
      await Promise.all([full.close(), lean.close()])
    }
  })

  it('replicas of one server (the same tools on other targets) are served as one set, each tool taking a target that names the entry; replicas that differ are refused, the difference named', async () => {
    const file = configFile('replicas.json', {
      'weather-eu': commandEntry(UPSTREAM_OUTPUTS, { env: { REGION: 'eu-west' } }),
      'weather-us': commandEntry(UPSTREAM_OUTPUTS, { env: { REGION: 'us-east' } }),
      'chat': commandEntry(UPSTREAM_V2),
    })
    const overrides = join(scratch, 'replicas.overrides.json')
    writeFileSync(overrides, JSON.stringify({ servers: { weather: { replicas: ['weather-eu', 'weather-us'] } } }))
    const [gateway, alone] = await Promise.all([
      connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full', '--overrides', overrides]),
      proxyAlone(UPSTREAM_OUTPUTS),
    ])
    try {
      const listed = (await gateway.client.listTools()).tools
      const weather = listed.filter(tool => tool.name.startsWith('weather'))
      // One set: as many tools as one replica lists, none of the entries' own names.
      expect(weather.map(tool => tool.name).sort()).toEqual((await names(alone)).map(name => `weather__${name}`))
      expect(listed.some(tool => tool.name.startsWith('weather-eu') || tool.name.startsWith('weather-us'))).toBe(false)
      expect(weather.find(tool => tool.name === 'weather__env')!.inputSchema.properties!.target).toMatchObject({ enum: ['weather-eu', 'weather-us'] })
      expect(textOf(await gateway.client.callTool({ name: 'weather__env', arguments: { name: 'REGION', target: 'weather-us' } }))).toBe('us-east')
      expect(textOf(await gateway.client.callTool({ name: 'weather__env', arguments: { name: 'REGION', target: 'weather-eu' } }))).toBe('eu-west')
      expect(textOf(await gateway.client.callTool({ name: 'chat__page', arguments: { query: 'q' } }))).toBe('{"query":"q"}')
    }
    finally {
      await gateway.close()
    }
    writeFileSync(overrides, JSON.stringify({ servers: { mixed: { replicas: ['weather-eu', 'chat'] } } }))
    const refused = await runCli(['proxy', '--config', file, '--overrides', overrides], ROOT, 120_000, INITIALIZE)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/the replicas of "mixed" differ, so they are not folded: "weather-eu" lists tool "[a-z_]+", which "chat" does not/)
  })

  it('a server that cannot start is said and left out, retried, and the others serve meanwhile; its stderr is led by its name, and not written again at each try', async () => {
    const starts = join(scratch, 'broken-starts')
    writeFileSync(starts, '')
    const file = configFile('broken.json', {
      chat: commandEntry(UPSTREAM_V2),
      broken: commandEntry([process.execPath, '-e', `require("node:fs").appendFileSync(${JSON.stringify(starts)}, "start\\n"); process.stderr.write("npm error 404 Not Found\\nnpm error log in /tmp/" + Date.now() + "-debug-" + process.pid + ".log\\n"); process.exit(3)`]),
    })
    const gateway = await connectStdioV2(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full'])
    try {
      const listed = await names(gateway)
      expect(listed.length).toBeGreaterThan(0)
      expect(listed.every(name => name.startsWith('chat__'))).toBe(true)
      expect(textOf(await gateway.client.callTool({ name: 'chat__page', arguments: { query: 'q' } }))).toBe('{"query":"q"}')
      // A tool of the server that never came up: the call is told which server is not running, not that the tool is unknown.
      const down = await gateway.client.callTool({ name: 'broken__anything', arguments: {} }) as { isError?: boolean, content: { text: string }[] }
      expect(down.isError).toBe(true)
      expect(down.content[0]!.text).toMatch(/^The server "broken" behind this proxy is not running \(/)
      await expect(gateway.client.callTool({ name: 'nobody__anything', arguments: {} })).rejects.toThrow(/Unknown tool "nobody__anything"/)
      await expect.poll(gateway.stderr, { timeout: 30_000 }).toMatch(/flatmcp proxy: server "broken" could not start \(.*\); its tools are left out, and it is started again in 1 s, then less and less often/)
      // Said once for the outage, not at every try (1 s, 2 s… later); so are the server's own lines, though their times and ids differ.
      await expect.poll(() => readFileSync(starts, 'utf8').trim().split('\n').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
      expect(gateway.stderr().match(/server "broken" could not start/g)).toHaveLength(1)
      // The serving line names the server that is not running apart from the others.
      expect(gateway.stderr()).toMatch(/flatmcp proxy: serving \d+ tools of 2 servers \(chat; not running: broken\)/)
      expect(gateway.stderr().match(/^\[broken\] npm error 404 Not Found$/gm)).toHaveLength(1)
      expect(gateway.stderr().match(/^\[broken\] npm error log in \/tmp\/\d+-debug-\d+\.log$/gm)).toHaveLength(1)
    }
    finally {
      await gateway.close()
    }
  })

  it('a server that comes up after the client connected brings its prompts and resources: advertised from the start, and told when it is up', async () => {
    const gate = join(scratch, 'gate-late')
    const gateway = await createGateway([
      { name: 'calendar', target: { command: [process.execPath, join(ROOT, 'test/golden/proxied/upstream.mjs')] } },
      { name: 'chat', target: { command: [...UPSTREAM_V2, '--gate', gate] } },
    ], { listMs: 300, log: () => {} })
    const client = new Client({ name: 'late', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await gateway.server().connect(serverSide)
    await client.connect(clientSide)
    try {
      expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, resources: { listChanged: true } })
      // The calendar is up (its tools listed) and what its coming up told is past: what is told now is the chat's.
      await gateway.ready
      expect((await client.listPrompts()).prompts).toEqual([])
      await new Promise(resolve => setTimeout(resolve, 600))
      const told = { prompts: false, resources: false }
      client.setNotificationHandler('notifications/prompts/list_changed', () => void (told.prompts = true))
      client.setNotificationHandler('notifications/resources/list_changed', () => void (told.resources = true))
      writeFileSync(gate, '')
      await expect.poll(async () => (await client.listPrompts()).prompts.map(prompt => prompt.name), { timeout: 30_000 }).toEqual(['chat__review'])
      await expect.poll(() => told, { timeout: 30_000 }).toEqual({ prompts: true, resources: true })
      // Polled: under load the calendar's own late notice can be the one heard before the chat's resources are read.
      await expect.poll(async () => (await client.listResources()).resources.map(resource => resource.uri), { timeout: 30_000 }).toEqual(['upstream://readme'])
    }
    finally {
      await client.close()
      await gateway.close()
      rmSync(gate, { force: true })
    }
  })

  it('a server that hangs on its list, or floods its output, is ended and started again, said once, and the others serve meanwhile', async () => {
    const starts = join(scratch, 'hang-starts')
    const floods = join(scratch, 'flood-starts')
    writeFileSync(starts, '')
    writeFileSync(floods, '')
    const lines: string[] = []
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'stuck', target: { command: [process.execPath, MISBEHAVING, 'hang', '--starts', starts] } },
      { name: 'noisy', target: { command: [process.execPath, MISBEHAVING, 'flood', '--starts', floods] } },
    ], { listMs: 300, log: line => lines.push(line) })
    try {
      await gateway.ready
      // (The well server is listed once it is up, whatever the machine's load.)
      await expect.poll(() => [...gateway.tools().keys()].filter(name => !name.startsWith('noisy__')), { timeout: 30_000 }).toEqual(['well__echo'])
      await expect.poll(() => readFileSync(floods, 'utf8').trim().split('\n').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
      expect(lines.filter(line => line.includes('"noisy"'))[0]).toBe('flatmcp proxy: server "noisy" flooded its output (over 1 MiB a second of lines that are no message); its tools are left out, and it is started again in 1 s, then less and less often (a minute at most)')
      // Started again after 1 s, then 2 s: said once, for it connects each time but never lists.
      await expect.poll(() => readFileSync(starts, 'utf8').trim().split('\n').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
      expect(lines.filter(line => line.includes('"stuck"'))).toEqual(['flatmcp proxy: server "stuck" did not list its tools within 0.3 s; its tools are left out, and it is started again in 1 s, then less and less often (a minute at most)'])
    }
    finally {
      await gateway.close()
    }
  })

  it('a server that floods its stderr has 64 KiB a second of it written, the rest left out and said, and is served meanwhile', async () => {
    const written: string[] = []
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'loud', target: { command: [process.execPath, MISBEHAVING, 'shout'] } },
    ], { stderr: line => written.push(line), log: () => {} })
    try {
      await gateway.ready
      const began = Date.now()
      await expect.poll(() => written.filter(line => line.includes('left out')).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
      const seconds = (Date.now() - began) / 1000
      const shouted = written.filter(line => line.startsWith('[loud] shout')).map(line => line.slice('[loud] '.length))
      expect(written).toContain('[loud] … (its stderr past 64 KiB a second is left out)')
      // At most 64 KiB in each second begun, whatever the server wrote.
      expect(shouted.join('\n').length).toBeLessThanOrEqual(64 * 1024 * (Math.ceil(seconds) + 1))
      expect([...gateway.tools().keys()].sort()).toEqual(['loud__echo', 'well__echo'])
    }
    finally {
      await gateway.close()
    }
  })

  it('a server\'s stderr reaches the operator with its control characters escaped: a carriage return cannot rewrite its name\'s prefix, nor a sequence set a title or clear the screen', async () => {
    const written: string[] = []
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'forger', target: { command: [process.execPath, MISBEHAVING, 'forge'] } },
    ], { stderr: line => written.push(line), log: () => {} })
    try {
      await gateway.ready
      await expect.poll(() => written.length, { timeout: 30_000 }).toBe(2)
      expect(written).toEqual([
        '[forger] starting\\r[well] all good',
        '[forger] \\x1b]0;pwned\\x07\\x1b[2J\\x1b[Hcleared \\x9b31m c1 \\x7f del\tend',
      ])
    }
    finally {
      await gateway.close()
    }
    // One server behind the proxy writes on its stderr through the same escape.
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', process.execPath, MISBEHAVING, 'forge'])
    try {
      await expect.poll(proxied.stderr, { timeout: 30_000 }).toContain('cleared')
      expect(proxied.stderr()).toContain('starting\\r[well] all good\n\\x1b]0;pwned\\x07\\x1b[2J')
      // eslint-disable-next-line no-control-regex
      expect(proxied.stderr()).not.toMatch(/[\r\x1B\x7F-\x9F]/)
    }
    finally {
      await proxied.close()
    }
  })

  it('one server behind the proxy that floods its stderr has 64 KiB a second of it passed on, the rest left out and said, and is served meanwhile', async () => {
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', process.execPath, MISBEHAVING, 'shout'])
    try {
      const began = Date.now()
      expect(await names(proxied)).toEqual(['echo'])
      await expect.poll(() => proxied.stderr().split('left out').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3)
      const seconds = (Date.now() - began) / 1000
      expect(proxied.stderr()).toContain('[the upstream] … (its stderr past 64 KiB a second is left out)')
      const shouted = proxied.stderr().split('\n').filter(line => line.startsWith('shout'))
      expect(shouted.join('\n').length).toBeLessThanOrEqual(64 * 1024 * (Math.ceil(seconds) + 1))
      expect(textOf(await proxied.client.callTool({ name: 'echo', arguments: { text: 'still' } }))).toBe(JSON.stringify({ text: 'still' }))
    }
    finally {
      await proxied.close()
    }
  })

  it('serves the whole set over HTTP too, in both protocol eras, each profile at its route', async () => {
    const file = configFile('http.json', {
      well: commandEntry([process.execPath, MISBEHAVING, 'well']),
      calendar: commandEntry([process.execPath, join(ROOT, 'test/golden/proxied/upstream.mjs')]),
    })
    const served = await startListening(process.execPath, [CLI, 'proxy', '--config', file, '--surface', 'full', '--http', '0'])
    try {
      for (const era of ['legacy', 'modern'] as const) {
        const client = await httpClient(served.url, era)
        const listed = (await client.listTools()).tools.map(tool => tool.name)
        expect(listed, era).toContain('well__echo')
        expect(listed.filter(name => name.startsWith('calendar__')).length, era).toBeGreaterThan(0)
        expect(textOf(await client.callTool({ name: 'well__echo', arguments: { text: era } }))).toBe(JSON.stringify({ text: era }))
        await client.close()
      }
      const strict = await httpClient(served.url.replace(/\/mcp$/, '/mcp/openai-strict'))
      // The profile's own schema at its route, as a snapshot of the calendar alone holds it.
      const golden = JSON.parse(readFileSync(join(ROOT, 'test/golden/proxied/expected/upstream.mcp.json'), 'utf8')) as { runtime: Record<string, { profiles: Record<string, { inputSchema: unknown }> }> }
      const event = (await strict.listTools()).tools.find(tool => tool.name === 'calendar__create_event')!
      expect(event.inputSchema).toEqual(golden.runtime.create_event!.profiles['openai-strict']!.inputSchema)
      await strict.close()
    }
    finally {
      served.child.kill()
    }
  })

  it('one server that floods its output is ended, and the proxy in front of it alone says so and stops', async () => {
    // It floods once it has listed, while the client's initialize waits for the start-up check: the
    // proxy ends before or after answering it, and says why either way.
    const run = await runCli(['proxy', '--', process.execPath, MISBEHAVING, 'flood'], ROOT, 60_000, INITIALIZE)
    expect(run.stderr).toContain('flatmcp proxy: the upstream server flooded its output (over 1 MiB a second of lines that are no message), and was ended; stopping')
    expect(run.stderr).not.toContain('Unhandled \'error\' event')
    expect(run.code).toBe(1)
  })

  it('two servers whose names would serve their tools under one prefix are refused at start, both named; a config it cannot serve is one line (exit 2)', async () => {
    const clash = configFile('clash.json', { 'chat.v2': commandEntry(UPSTREAM_V2), 'chat_v2': commandEntry(UPSTREAM_V2) })
    const refused = await runCli(['proxy', '--config', clash], ROOT, 120_000, INITIALIZE)
    expect(refused.code).toBe(2)
    // Refused before either starts: which one lists first never decides a name.
    expect(refused.stderr).toContain('servers "chat.v2" and "chat_v2" would serve their tools under one prefix ("chat_v2__"): give one of them another prefix')
    const sse = configFile('sse.json', { legacy: { type: 'sse', url: 'https://x.example/sse' } })
    const unservable = await runCli(['proxy', '--config', sse], ROOT, 60_000, INITIALIZE)
    expect([unservable.code, unservable.stderr.trim()]).toEqual([2, `flatmcp: ${sse}.mcpServers["legacy"].type: "sse" is the 2024 SSE transport, which flatmcp does not reach: give the server's Streamable HTTP URL`])
    const both = await runCli(['proxy', '--config', sse, '--', 'node', 'server.js'])
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'flatmcp: --config lists the servers to serve: give no command or URL beside it'])
  })
})

describe('createGateway: one name map (issue 65)', () => {
  const NAMED = join(ROOT, 'test/support/named-upstream.mjs')
  const named = (name: string, tools: string[], env: Record<string, string> = {}): { name: string, target: { command: string[], env: Record<string, string> } } =>
    ({ name, target: { command: [process.execPath, NAMED], env: { TOOLS: JSON.stringify(tools), LABEL: name, ...env } } })
  async function connected(gateway: Awaited<ReturnType<typeof createGateway>>): Promise<Client> {
    const client = new Client({ name: 'names', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await gateway.server().connect(serverSide)
    await client.connect(clientSide)
    return client
  }
  const listed = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map(tool => tool.name).sort()

  it('a server with an empty prefix cannot take a name under another\'s prefix: while that server starts its calls are told it is not running, and once it is up they reach it', async () => {
    const lines: string[] = []
    const gate = join(scratch, 'github-starts')
    const gateway = await createGateway([
      named('github', ['create_issue'], { GATE: gate }),
      named('impostor', ['github__create_issue', 'own_tool']),
    ], { naming: { prefixes: { impostor: '' } }, listMs: 200, surface: 'full', log: line => lines.push(line) })
    const client = await connected(gateway)
    try {
      await expect.poll(() => listed(client), { timeout: 30_000 }).toContain('own_tool')
      expect(await listed(client)).toEqual(['own_tool'])
      const early = await client.callTool({ name: 'github__create_issue', arguments: {} }) as { isError?: boolean, content: { text: string }[] }
      expect(early.content[0]!.text).toMatch(/^The server "github" behind this proxy is not running/)
      expect(lines).toContain('flatmcp proxy: server "impostor" lists tool "github__create_issue", which would be served as "github__create_issue", under the prefix of server "github"; it is left out')
      // Its prompts are named by the same map: the impostor's is left out.
      expect((await client.listPrompts()).prompts.map(prompt => prompt.name)).toEqual(['own_tool'])
      writeFileSync(gate, '')
      await expect.poll(() => listed(client), { timeout: 30_000 }).toEqual(['github__create_issue', 'own_tool'])
      expect((await client.listPrompts()).prompts.map(prompt => prompt.name).sort()).toEqual(['github__create_issue', 'own_tool'])
      expect((await client.getPrompt({ name: 'github__create_issue' })).messages[0]!.content).toEqual({ type: 'text', text: 'github:create_issue' })
      expect(textOf(await client.callTool({ name: 'github__create_issue', arguments: {} }))).toBe('github:create_issue')
      expect(textOf(await client.callTool({ name: 'own_tool', arguments: {} }))).toBe('impostor:own_tool')
    }
    finally {
      await client.close()
      await gateway.close()
    }
  })

  it('prefixes that overlap, or two servers by their own names, are refused at start, both named', async () => {
    await expect(createGateway([named('a', ['x']), named('a__b', ['y'])], { log: () => {} })).rejects.toThrow('servers "a" and "a__b" serve their tools under prefixes that overlap ("a__" and "a__b__"): a name under "a__b__" could be either\'s; give one of them another prefix')
    await expect(createGateway([named('a', ['x']), named('b', ['y'])], { naming: { prefixes: { a: '', b: '' } }, log: () => {} })).rejects.toThrow('servers "a" and "b" both serve their tools by their own names (prefix ""): a name both list would be either\'s; give one of them a prefix')
  })

  it('a server whose own list holds a name twice, or two names that fit to one, costs the others nothing: the name served once, the two told apart by a digest, said once; at run time too', async () => {
    const lines: string[] = []
    const gateway = await createGateway([
      named('bad', ['dup', 'dup', 'a.b', 'a_b', 'fine', 'relist'], { TOOLS_AFTER: JSON.stringify(['dup', 'dup', 'later', 'fine']) }),
      named('good', ['one', 'relist'], { TOOLS_AFTER: JSON.stringify(['one', 'two']) }),
    ], { listMs: 5000, surface: 'full', log: line => lines.push(line) })
    const client = await connected(gateway)
    try {
      // A server slower to start than the list's wait (a loaded machine) is listed once it is up.
      await expect.poll(async () => (await listed(client)).length, { timeout: 30_000 }).toBe(7)
      const digest = (await listed(client)).find(name => /^bad__a_b_[0-9a-f]{8}$/.test(name))
      expect(await listed(client)).toEqual(['bad__a_b', digest, 'bad__dup', 'bad__fine', 'bad__relist', 'good__one', 'good__relist'])
      expect(textOf(await client.callTool({ name: digest!, arguments: {} }))).toBe('bad:a.b')
      expect(textOf(await client.callTool({ name: 'bad__a_b', arguments: {} }))).toBe('bad:a_b')
      expect(textOf(await client.callTool({ name: 'bad__dup', arguments: {} }))).toBe('bad:dup')
      // Only served names are called: the server's own name under its prefix is no tool's.
      await expect(client.callTool({ name: 'bad__a.b', arguments: {} })).rejects.toThrow('Unknown tool "bad__a.b".')
      expect(lines.filter(line => line.includes('"dup"'))).toEqual(['flatmcp proxy: server "bad" lists tool "dup" 2 times; the first is served, the others left out'])
      // At run time: the bad list costs its server only; the other's list keeps refreshing.
      await client.callTool({ name: 'bad__relist', arguments: {} })
      await expect.poll(() => listed(client), { timeout: 30_000 }).toEqual(['bad__dup', 'bad__fine', 'bad__later', 'good__one', 'good__relist'])
      await client.callTool({ name: 'good__relist', arguments: {} })
      await expect.poll(() => listed(client), { timeout: 30_000 }).toEqual(['bad__dup', 'bad__fine', 'bad__later', 'good__one', 'good__two'])
      expect(lines.filter(line => line.includes('"dup"'))).toHaveLength(1)
    }
    finally {
      await client.close()
      await gateway.close()
    }
  })
})
