// The command table: each command's line read and checked as it would run (FLATMCP_PARSE_ONLY=1 stops
// it before it starts anything), the usage errors it gives, and the loopback rule the proxy shares
// with the runtime's HTTP serving: `[::1]` is loopback wherever it is written.
import { PROFILE_NAMES } from '@flatmcp/core/names'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../../test/support/proxy'
import { COMMANDS, flagsOf, helpText, saidInOneLine, UsageError } from '../src/commands'
import { servingOf } from '../src/commands/proxy'
import { readUpstreamCommand } from '../src/commands/upstream-args'
import { FLAG_ROWS, ownFlags, UPSTREAM_OPTIONS } from '../src/commands/upstream-flags'

const parse = (args: string[]): ReturnType<typeof runCli> => runCli(args, undefined, 60_000, undefined, { FLATMCP_PARSE_ONLY: '1', FLATMCP_PROXY_TOKEN: '' })

describe('flatmcp proxy --http: who may use it', () => {
  it('serves loopback without a credential, however the address is written', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', 'LOCALHOST']) {
      const run = await parse(['proxy', '--http', '8080', '--host', host, '--', 'node', 'server.js'])
      expect(run.code, `${host}: ${run.stderr}`).toBe(0)
    }
  })

  it('needs a credential or --no-auth beyond loopback', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1', 'proxy.example.com']) {
      const run = await parse(['proxy', '--http', '8080', '--host', host, '--', 'node', 'server.js'])
      expect(run.code, host).toBe(2)
      expect(run.stderr).toContain(`--host ${host} serves beyond loopback: give a caller credential`)
      expect((await parse(['proxy', '--http', '8080', '--host', host, '--no-auth', '--', 'node', 'server.js'])).code).toBe(0)
      expect((await parse(['proxy', '--http', '8080', '--host', host, '--auth-token', 't', '--', 'node', 'server.js'])).code).toBe(0)
    }
  })
})

describe('each command\'s help', () => {
  it('has a table of options and examples, each line within the width asked', () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const text = helpText(command, 80)
      expect(text, name).toMatch(/\noptions:\n[\s\S]+\nexamples:\n {2}# .+\n {2}(\S+=\S+ )?flatmcp /)
      expect(text.split('\n').filter(line => line.length > 80 && !line.startsWith('  flatmcp') && !/^ {2}\S+=/.test(line)), name).toEqual([])
    }
  })

  it('names every option proxy and snapshot take, and only those', async () => {
    // What the other command owns is refused (the table's rows of the other).
    const refused = { proxy: ownFlags('snapshot'), snapshot: ownFlags('proxy') }
    for (const name of ['proxy', 'snapshot'] as const) {
      const said = flagsOf(COMMANDS[name]!)
      const taken = Object.keys(UPSTREAM_OPTIONS).filter(flag => !(refused[name] as string[]).includes(flag)).map(flag => `--${flag}`)
      expect(taken.filter(flag => !said.has(flag)), name).toEqual([])
      expect([...said].filter(flag => !taken.includes(flag)), name).toEqual([])
    }
  })

  it('names only options each command takes', async () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      for (const flag of flagsOf(command)) {
        const run = await parse([name, flag])
        expect(run.stderr, `${name} ${flag}`).not.toContain('unknown option')
      }
    }
  })
})

describe('the flag table', () => {
  // Read in this process, as the command reads them: a usage error is thrown before anything starts.
  const refusal = async (command: 'proxy' | 'snapshot', args: string[]): Promise<string | undefined> => {
    try {
      const { values } = readUpstreamCommand(command, [...args, '--', 'node', 'server.js'])
      if (command === 'proxy')
        await servingOf(values)
      return undefined
    }
    catch (error) {
      expect(error).toBeInstanceOf(UsageError)
      return (error as Error).message
    }
  }

  it('refuses each flag of the other command, and each flag without the flag it needs, as the table says', async () => {
    for (const [command, other] of [['proxy', 'snapshot'], ['snapshot', 'proxy']] as const) {
      for (const flag of ownFlags(other))
        expect(await refusal(command, [`--${flag}`, ...(UPSTREAM_OPTIONS[flag].type === 'string' ? ['x'] : [])]), `${command} --${flag}`).toBe(`${command} takes no --${flag}`)
    }
    for (const row of FLAG_ROWS.filter(row => 'needs' in row)) {
      // The flags it needs, in order: the first not given is asked for.
      for (const [n, [missing, said]] of row.needs.entries()) {
        const given = row.needs.slice(0, n).flatMap(([flag]) => [`--${flag}`, '1'])
        expect(await refusal('proxy', [`--${row.name}`, ...(row.type === 'string' ? ['1'] : []), ...given]), `--${row.name} without --${missing}`).toBe(said)
      }
    }
  })
})

describe('the errors said in one line', () => {
  it('are each command\'s own classes, not errors that take their names', async () => {
    const { ProxySetupError } = await import('@flatmcp/runtime/proxy')
    const { InstallError } = await import('../src/install/rewrite')
    const { ProbeLoadError } = await import('../src/probe/findings')
    const { StartupCheckError } = await import('../src/proxy/startup-check')
    for (const error of [new ProxySetupError('x'), new InstallError('x'), new ProbeLoadError('x'), new StartupCheckError(['x'])])
      expect(await saidInOneLine(error), error.name).toBe(true)
    for (const error of [Object.assign(new Error('x'), { name: 'ProxySetupError' }), new TypeError('x'), 'ProbeLoadError'])
      expect(await saidInOneLine(error), String(error)).toBe(false)
  })
})

describe('the command table', () => {
  it('reads each command\'s own options, and refuses another\'s', async () => {
    expect((await parse(['snapshot', '--out', 'x.mcp.json', '--profile', 'gemini', '--', 'node', 'server.js'])).code).toBe(0)
    expect((await parse(['build', 'src/*.tools.ts', '--fail-on', 'warning'])).code).toBe(0)
    expect((await parse(['inspect', 'src/a.tools.ts', '--profile', 'gemini'])).code).toBe(0)
    expect((await parse(['probe', 'dist', '--samples', '10'])).code).toBe(0)
    const foreign = await parse(['snapshot', '--http', '8080', '--', 'node', 'server.js'])
    expect([foreign.code, foreign.stderr]).toEqual([2, 'flatmcp: snapshot takes no --http\n(flatmcp snapshot --help shows the usage)\n'])
    const word = await parse(['proxy', '--surface', 'lean', '--', 'node', 'server.js'])
    expect(word.stderr).toContain('--surface must be full, search or auto, not "lean"')
    const profile = await parse(['build', 'a.tools.ts', '--profile', 'gemni'])
    expect([profile.code, profile.stderr.split('\n')[0]]).toEqual([2, 'flatmcp: --profile must be one of portable, minimal, openai-strict, anthropic-strict, gemini, not "gemni"'])
  })

  it('proxy serves the profiles it compiles: minimal, a base profile no route serves, is refused (it was served portable with a line telling the operator to change a plugin option)', async () => {
    const minimal = await parse(['proxy', '--profile', 'minimal', '--', 'node', 'server.js'])
    expect([minimal.code, minimal.stderr.split('\n')[0]]).toEqual([2, 'flatmcp: proxy serves portable, openai-strict, anthropic-strict or gemini, not "minimal"'])
    // every other profile is served
    for (const profile of PROFILE_NAMES.filter(name => name !== 'minimal'))
      expect((await parse(['proxy', '--profile', profile, '--', 'node', 'server.js'])).code, profile).toBe(0)
    expect(helpText(COMMANDS.proxy!, 200)).toContain('a target profile: portable, openai-strict, anthropic-strict, gemini (the one served')
  })

  it('prints each command\'s usage with --help, and the list of them without a command', async () => {
    const all = await runCli(['--help'])
    for (const command of Object.keys(COMMANDS))
      expect(all.stdout).toContain(`  flatmcp ${command} `)
    const proxy = await runCli(['proxy', '--help'])
    expect(proxy.stdout.startsWith('usage:\n  flatmcp proxy [options]')).toBe(true)
    expect(proxy.stdout).toMatch(/\noptions:\n[\s\S]*\n {2}--log-level level +which lines reach stderr[\s\S]*\nexamples:\n {2}# /)
    expect(proxy.stdout).not.toContain('flatmcp build')
    const unknown = await runCli(['serve'])
    expect([unknown.code, unknown.stderr]).toEqual([2, 'flatmcp: unknown command "serve"\n(flatmcp --help shows the usage)\n'])
  })
})
