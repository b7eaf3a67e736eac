// `flatmcp install CLIENT`: a client's MCP servers put behind one `flatmcp proxy --config`, in that
// client's own config file; `--undo` restores it, `--dry-run` shows the change.
import type { InstallClient } from '../install/clients'
import type { Command } from './command'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { configFileOf, here, INSTALL_CLIENTS } from '../install/clients'
import { cliVersion } from '../version'
import { oneOf, parseOnly, UsageError } from './command'
import { servingOf } from './proxy'
import { readUpstreamCommand, UPSTREAM_OPTIONS } from './upstream-args'

const OPTIONS = {
  'scope': { type: 'string' },
  'file': { type: 'string' },
  'command': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'undo': { type: 'boolean' },
  'force': { type: 'boolean' },
  'list': { type: 'boolean' },
  'json': { type: 'boolean' },
} as const

export const install: Command = {
  summary: 'put a client\'s MCP servers behind one flatmcp proxy, in its own config; --undo restores it',
  usage: '  flatmcp install <client> [options] [-- proxy flags…]\n  flatmcp install --list [--json]',
  about: `Moves each server of a client's config that flatmcp can start as the client would (${INSTALL_CLIENTS.map(client => client.name).join(', ')}), as the client had it, env and all, its own variables resolved (\${workspaceFolder}, \${env:NAME}), into .flatmcp/<client>.servers.json beside that config, and writes one "flatmcp" entry that runs them all through flatmcp proxy --config (each tool as NAME__tool); a server it cannot (\${input:id}) stays, said. The original is kept: --undo restores it byte for byte. --list says what is installed where. Flags after -- go to the proxy.`,
  options: [
    ['--scope user|project', 'which config: the project\'s where there is one here (default), else the user\'s'],
    ['--file config', 'this config file instead'],
    ['--dry-run', 'print the change and write nothing'],
    ['--undo', 'restore the config as it was before the install'],
    ['--force', 'with --undo: restore it though it changed since the install'],
    ['--command \'words\'', 'the words that run flatmcp (default: this flatmcp, as it ran)'],
    ['--list', `what is installed where: each client's config in each scope here (${INSTALL_CLIENTS.map(client => client.name).join(', ')}), whether flatmcp is installed there and the servers behind it; writes nothing`],
    ['--json', 'with --list: the list as JSON, for machines'],
  ],
  examples: [
    ['flatmcp install cursor --dry-run', 'see what would change in Cursor\'s config'],
    ['flatmcp install claude-code -- --surface search', 'Claude Code\'s servers behind one proxy with the search surface'],
    ['flatmcp install claude-code --undo', 'put the config back'],
    ['flatmcp install --list', 'see which clients run their servers behind flatmcp'],
  ],
  async run(args) {
    const split = args.indexOf('--')
    const proxyArgs = split < 0 ? [] : args.slice(split + 1)
    const { values, positionals } = parseArgs({ args: split < 0 ? args : args.slice(0, split), allowPositionals: true, options: OPTIONS })
    if (values.list)
      return list(values, positionals, split >= 0)
    if (values.json)
      throw new UsageError('--json is for --list')
    const client = clientOf(positionals)
    await checkProxyFlags(proxyArgs, client)
    if (values.force && !values.undo)
      throw new UsageError('--force is for --undo (it restores a config changed since the install)')
    const scope = oneOf(values.scope, '--scope', ['user', 'project'] as const)
    const place = values.file === undefined ? configFileOf(client, here(), scope) : { file: path.resolve(values.file) }
    if ('missing' in place)
      throw new UsageError(`${client.title} has no ${place.missing} config flatmcp knows of; give --file`)
    const flatmcp = values.command === undefined ? runningFlatmcp() : values.command.split(/\s+/).filter(Boolean)
    if (flatmcp.length === 0)
      throw new UsageError('--command needs the words that run flatmcp')
    if (parseOnly())
      return 0
    const { install: put, undo } = await import('../install/install')
    const log = (line: string): void => void process.stderr.write(`${line}\n`)
    const run = { client, file: place.file, flatmcp, proxyArgs, dryRun: values['dry-run'] === true, force: values.force === true, log, out: (text: string) => void process.stdout.write(`${text}\n`) }
    return values.undo ? undo(run) : put(run)
  },
}

/** `--list`: what is installed where, read only. */
async function list(values: Record<string, unknown>, positionals: string[], proxyFlags: boolean): Promise<number> {
  const other = Object.keys(values).find(name => values[name] !== undefined && name !== 'list' && name !== 'json')
  if (positionals.length > 0 || other !== undefined || proxyFlags)
    throw new UsageError(`--list takes no ${positionals.length > 0 ? `client (${positionals[0]})` : other !== undefined ? `--${other}` : 'proxy flags'}: it lists every client's configs here`)
  if (parseOnly())
    return 0
  const { listInstalls, renderInstalls } = await import('../install/list')
  const places = listInstalls(here())
  process.stdout.write(`${values.json ? JSON.stringify(places, null, 2) : renderInstalls(places)}\n`)
  return 0
}

function clientOf(positionals: string[]) {
  const names = INSTALL_CLIENTS.map(client => client.name)
  if (positionals.length !== 1)
    throw new UsageError(`install takes one client: ${names.join(', ')}`)
  const client = INSTALL_CLIENTS.find(known => known.name === positionals[0])
  if (!client)
    throw new UsageError(`install knows no client "${positionals[0]}": ${names.join(', ')}`)
  return client
}

/** The flags given for the proxy, read as the proxy reads them: one it would refuse is refused now. */
async function checkProxyFlags(flags: readonly string[], client: InstallClient): Promise<void> {
  if (flags.includes('--config'))
    throw new UsageError('after --, --config is the install\'s own: give the proxy\'s other flags there')
  try {
    await servingOf(readUpstreamCommand('proxy', [...flags, '--config', 'servers.json']).values)
  }
  catch (error) {
    throw new UsageError(`after --: ${(error as Error).message}`)
  }
  const credentialFlags = await proxyCredentialFlags()
  const secret = flags.map(flag => /^--([\w-]+)/.exec(flag)?.[1]).find(name => name !== undefined && credentialFlags.includes(name))
  if (secret !== undefined)
    throw new UsageError(`after --: --${secret} would write the proxy's token into ${client.title}'s config and onto its command line, which any local user reads (ps): give it by FLATMCP_PROXY_TOKEN in the environment flatmcp runs in, or --auth-token-file file`)
}

/**
 * The proxy's flags whose value is a credential itself (not a file of it): never written into a
 * client's config. The runtime's proxy entry is loaded here, not with the CLI, so `flatmcp proxy`
 * still starts its upstream before it loads the SDK.
 */
async function proxyCredentialFlags(): Promise<string[]> {
  const { isCredentialKey } = await import('@flatmcp/runtime/proxy')
  return Object.entries(UPSTREAM_OPTIONS).filter(([name, option]) => option.type === 'string' && isCredentialKey(name) && !name.endsWith('-file')).map(([name]) => name)
}

/** The words that run this flatmcp again: npx's, where npx ran it from its cache, else Node and this script. */
function runningFlatmcp(): string[] {
  const script = realpathSync(process.argv[1]!)
  if (script.split(path.sep).includes('_npx'))
    return ['npx', '-y', `flatmcp@${cliVersion()}`]
  return [process.execPath, script]
}
