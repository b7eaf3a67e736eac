// `flatmcp install` then `--undo` on generated configs: JSONC (comments above and after properties,
// trailing commas where VS Code allows them, nested objects, servers on one line or many, CRLF) and
// TOML (comments, tables, sub-tables, arrays of tables `[[…]]`, inline tables, quoted names, multi-line
// strings holding lines that look like a server's table). The
// install keeps every line it does not own (the moved servers' lines and the comment lines just
// above a JSON server are its own; a comment above a TOML table is not), writes the moved servers as
// they were, and `--undo` gives the file back byte for byte.
import type { InstallClient } from '../src/install/clients'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { findNodeAtLocation, parseTree } from 'jsonc-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { RUNS, SEED } from '../../../test/support/schema-arbitrary'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { install, undo } from '../src/install/install'
import { SERVED_SHAPES } from '../src/install/shapes'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-property-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const runs = Math.max(50, Math.round(RUNS / 5))

type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never

const clientNamed = (name: string): InstallClient => INSTALL_CLIENTS.find(client => client.name === name)!

type Kind = 'command' | 'url' | 'sse' | 'disabled'
interface Server { name: string, kind: Kind, env: Record<string, string>, comments: string[], multiline: boolean, after?: string }
interface Generated { text: string, owned: Set<number>, moved: Record<string, unknown> }

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/)
const comment = fc.constantFrom('// note', '// { "not": "json" } (no comma: a kept line is compared with its commas aside)', '//', '// [mcp_servers.fake]')
const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }), fc.constantFrom('a "quoted" \\ value', '# not a comment', '// not a comment'))
const nested = fc.dictionary(word, fc.oneof(scalar, fc.dictionary(word, scalar, { maxKeys: 2 }), fc.array(scalar, { maxLength: 2 })), { maxKeys: 3 })

const server = fc.record({
  name: fc.oneof(word, fc.constantFrom('my.server', 'two words', 'x-y')),
  kind: fc.constantFrom<Kind>('command', 'command', 'url', 'sse', 'disabled'),
  env: fc.dictionary(fc.stringMatching(/^[A-Z][A-Z_]{0,5}$/), fc.oneof(fc.string({ maxLength: 6 }), fc.constant('${TOKEN}')), { maxKeys: 2 }),
  comments: fc.array(comment, { maxLength: 2 }),
  multiline: fc.boolean(),
  after: fc.option(comment, { nil: undefined }),
})
const servers = fc.uniqueArray(server, { minLength: 1, maxLength: 4, selector: s => s.name }).map(list => list.some(s => s.kind === 'command' || s.kind === 'url') ? list : [{ ...list[0]!, kind: 'command' as Kind }, ...list.slice(1)])

/** A server's entry, as its client's config holds it. */
function entryOf(s: Server): Record<string, unknown> {
  const env = Object.keys(s.env).length > 0 ? { env: s.env } : {}
  if (s.kind === 'url')
    return { type: 'http', url: 'https://mcp.example.com/mcp', ...(Object.keys(s.env).length > 0 ? { headers: s.env } : {}) }
  if (s.kind === 'sse')
    return { type: 'sse', url: 'https://old.example.com/sse' }
  return { command: 'node', args: ['server.js', '--flag'], ...env, ...(s.kind === 'disabled' ? { disabled: true } : {}) }
}
const moves = (s: Server): boolean => s.kind === 'command' || s.kind === 'url'

const jsonCase = fc.record({
  client: fc.constantFrom('vscode', 'cursor'),
  unit: fc.constantFrom('  ', '    ', '\t'),
  eol: fc.constantFrom('\n', '\r\n'),
  trailingCommas: fc.boolean(),
  headComment: fc.boolean(),
  before: fc.array(fc.record({ key: word, value: nested, comments: fc.array(comment, { maxLength: 1 }) }), { maxLength: 2 }),
  after: fc.array(fc.record({ key: word, value: nested, comments: fc.array(comment, { maxLength: 1 }) }), { maxLength: 2 }),
  servers,
})

/** A JSONC config as people write them, and the line numbers install owns. */
function renderJson(c: Drawn<typeof jsonCase>): Generated {
  const jsonc = c.client === 'vscode'
  const key = clientNamed(c.client).key
  const lines: string[] = []
  const owned = new Set<number>()
  const i1 = c.unit
  const i2 = c.unit.repeat(2)
  const value = (v: unknown, indent: string, multiline = true): string => multiline ? JSON.stringify(v, null, c.unit).split('\n').join(`\n${indent}`) : JSON.stringify(v)
  if (c.headComment && jsonc)
    lines.push('// The workspace\'s servers.')
  lines.push('{')
  const others = (list: typeof c.before): { comments: string[], text: string }[] => list.filter(o => o.key !== key && !SERVED_SHAPES.some(shape => shape.key === o.key)).map(o => ({ comments: jsonc ? o.comments : [], text: `"${o.key}": ${value(o.value, i1)}` }))
  const top = [...others(c.before), { comments: [], text: '' }, ...others(c.after)]
  const seen = new Set<string>()
  const unique = top.filter(item => item.text === '' || (!seen.has(item.text.split('"')[1]!) && seen.add(item.text.split('"')[1]!)))
  unique.forEach((item, i) => {
    const comma = i < unique.length - 1 || (jsonc && c.trailingCommas) ? ',' : ''
    for (const line of item.comments)
      lines.push(`${i1}${line}`)
    if (item.text !== '') {
      lines.push(...`${i1}${item.text}${comma}`.split('\n'))
      return
    }
    lines.push(`${i1}"${key}": {`)
    c.servers.forEach((s, j) => {
      const start = lines.length
      const last = j === c.servers.length - 1
      for (const line of jsonc ? s.comments : [])
        lines.push(`${i2}${line}`)
      const after = jsonc && s.after ? ` ${s.after}` : ''
      lines.push(...`${i2}${JSON.stringify(s.name)}: ${value(entryOf(s), i2, s.multiline)}${!last || (jsonc && c.trailingCommas) ? ',' : ''}${after}`.split('\n'))
      if (moves(s)) {
        for (let n = start; n < lines.length; n++)
          owned.add(n)
      }
    })
    lines.push(`${i1}}${comma}`)
  })
  lines.push('}', '')
  const moved = Object.fromEntries(c.servers.filter(moves).map(s => [s.name, entryOf(s)]))
  return { text: lines.join(c.eol), owned, moved }
}

const tomlCase = fc.record({
  eol: fc.constantFrom('\n', '\r\n'),
  top: fc.array(fc.record({ key: word, value: fc.oneof(fc.integer(), fc.constantFrom('"gpt-5"', '[1, 2]', '{ a = 1, b = "x" }')), after: fc.option(fc.constant('# trailing'), { nil: undefined }) }), { maxLength: 2 }),
  parent: fc.boolean(),
  blocks: fc.array(fc.oneof(
    fc.record({ block: fc.constant('server' as const), server, subtable: fc.boolean() }),
    fc.record({ block: fc.constantFrom('profile' as const, 'hook' as const), name: word, comments: fc.array(fc.constantFrom('# introduces what follows', '#'), { maxLength: 2 }), multiline: fc.constantFrom(undefined, '"""', "'''") }),
  ), { minLength: 1, maxLength: 6 }),
})

const tomlKey = (name: string): string => /^[\w-]+$/.test(name) ? name : JSON.stringify(name)
const tomlInline = (values: Record<string, string>): string => `{ ${Object.entries(values).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')} }`

/** A Codex config.toml as people write them, and the line numbers install owns. */
function renderToml(c: Drawn<typeof tomlCase>): Generated {
  const lines: string[] = []
  const owned = new Set<number>()
  const seenTop = new Set<string>()
  for (const t of c.top.filter(t => !seenTop.has(t.key) && seenTop.add(t.key)))
    lines.push(`${t.key} = ${t.value}${t.after ? ` ${t.after}` : ''}`)
  if (c.parent)
    lines.push('', '[mcp_servers]')
  const names = new Set<string>()
  const profiles = new Set<string>()
  const moved: Record<string, unknown> = {}
  let any = false
  const movedFirst = c.blocks.find(b => b.block === 'server' && moves(b.server))
  const lookalike = movedFirst?.block === 'server' ? tomlKey(movedFirst.server.name) : 'only'
  for (const b of c.blocks) {
    lines.push('')
    if (b.block !== 'server') {
      if (b.block === 'profile' && profiles.has(b.name))
        continue
      profiles.add(b.name)
      lines.push(...b.comments, b.block === 'profile' ? `[profiles.${b.name}]` : '[[hooks]]', `name = ${JSON.stringify(b.name)}`, `on = { event = "start", tags = ["a", "b"] } # inline`)
      // A multi-line string's lines are the string's, however much they look like a server's table.
      if (b.multiline)
        lines.push(`notes = ${b.multiline}`, `[mcp_servers.${lookalike}]`, '# not a comment', `command = "from-the-string"${b.multiline}`)
      continue
    }
    const s = b.server
    if (names.has(s.name) || s.kind === 'sse')
      continue
    names.add(s.name)
    lines.push(...s.comments.map(line => line.replace('//', '#')))
    const start = lines.length
    const header = `mcp_servers.${tomlKey(s.name)}`
    const env = Object.keys(s.env).length > 0 ? s.env : undefined
    if (s.kind === 'url')
      lines.push(`[${header}]`, 'url = "https://mcp.example.com/mcp"', ...(env ? [`http_headers = ${tomlInline(env)}`] : []))
    else
      lines.push(`[${header}]`, 'command = "node"', 'args = ["server.js", "--flag"] # its arguments', ...(s.kind === 'disabled' ? ['enabled = false'] : []), ...(env && !b.subtable ? [`env = ${tomlInline(env)}`] : []), ...(env && b.subtable ? ['', `[${header}.env]`, ...Object.entries(env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`)] : []))
    if (moves(s)) {
      any = true
      moved[s.name] = s.kind === 'url' ? { url: 'https://mcp.example.com/mcp', ...(env ? { http_headers: env } : {}) } : { command: 'node', args: ['server.js', '--flag'], ...(env ? { env } : {}) }
      for (let n = start; n < lines.length; n++)
        owned.add(n)
    }
  }
  if (!any) {
    lines.push('', '[mcp_servers.only]', 'command = "node"')
    moved.only = { command: 'node' }
    owned.add(lines.length - 2).add(lines.length - 1)
  }
  lines.push('')
  return { text: lines.join(c.eol), owned, moved }
}

/** The lines of `text` not owned, as install must keep them (a JSON comma a neighbour's move takes or gives aside; blank lines aside in TOML). */
function keptLines(text: string, owned: ReadonlySet<number>, format: string): string[] {
  return text.split(/\r?\n/).filter((line, n) => !owned.has(n) && (format === 'json' || line.trim() !== '')).map(line => format === 'json' ? line.replace(/,(\s*(?:\/\/.*)?)$/, '$1') : line)
}

/** The lines of the installed text that are not flatmcp's own entry. */
function withoutFlatmcp(text: string, client: InstallClient): string {
  if (client.format === 'toml')
    return text.replace(/\[mcp_servers\.flatmcp\][\s\S]*$/, '')
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [client.key, 'flatmcp'])!.parent!
  const start = text.lastIndexOf('\n', node.offset) + 1
  const end = text.indexOf('\n', node.offset + node.length)
  return text.slice(0, start) + text.slice(end + 1)
}

let serial = 0
function roundTrip(generated: Generated, client: InstallClient): void {
  const folder = path.join(scratch, `c${serial++}`)
  const file = path.join(folder, client.format === 'toml' ? 'config.toml' : 'mcp.json')
  mkdirSync(folder)
  writeFileSync(file, generated.text)
  const run = { client, file, flatmcp: ['flatmcp'], proxyArgs: [], dryRun: false, log: () => {}, out: () => {} }
  install(run)
  const installed = readFileSync(file, 'utf8')
  expect(keptLines(withoutFlatmcp(installed, client), new Set(), client.format)).toEqual(keptLines(generated.text, generated.owned, client.format))
  expect(JSON.parse(readFileSync(path.join(folder, '.flatmcp', `${client.name}.servers.json`), 'utf8'))).toEqual({ mcpServers: generated.moved })
  undo(run)
  expect(readFileSync(file, 'utf8')).toBe(generated.text)
  rmSync(folder, { recursive: true })
}

describe('flatmcp install on generated configs', () => {
  it(`JSONC: keeps every line it does not own, and --undo restores the bytes (${runs} configs)`, () => {
    fc.assert(fc.property(jsonCase, c => roundTrip(renderJson(c), clientNamed(c.client))), { numRuns: runs, seed: SEED })
  })

  it(`TOML: keeps every line it does not own (comments above tables, [[…]], inline tables), and --undo restores the bytes (${runs} configs)`, () => {
    fc.assert(fc.property(tomlCase, c => roundTrip(renderToml(c), clientNamed('codex'))), { numRuns: runs, seed: SEED })
  })
})
