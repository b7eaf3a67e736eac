// Golden fixtures: tool modules whose `*.mcp.json` text is checked in (test/golden/expected), built as
// `flatmcp build` and the plugin build them in every profile, a proxied list (test/golden/proxied:
// a fixed upstream's tools, snapshotted by `flatmcp snapshot` with operator overrides), and a gateway
// (test/golden/gateway: `flatmcp snapshot --config` over two servers, one a replica pair folded, with
// another separator, and the refusal of two servers without a prefix). A change of the format, of a
// flattening, of a plan or of how a gateway names its tools shows as a diff of these files in review.
// `FLATMCP_UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts` writes them anew.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PROFILE_NAMES } from '@flatmcp/core/names'
import { buildArtifacts } from 'flatmcp'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { runCli } from './support/proxy'
import { SLOW } from './support/timeouts'

const GOLDEN = path.join(ROOT, 'test/golden')
const EXPECTED = path.join(GOLDEN, 'expected')
const UPDATE = process.env.FLATMCP_UPDATE_GOLDEN === '1'
const out = mkdtempSync(path.join(tmpdir(), 'flatmcp-golden-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

/**
 * The artifact as checked in: a module that imports the runtime lists the linked workspace files it
 * is made of, whose names and bytes change with every build of the runtime; those are left out of
 * `files`, and `hash` (which covers them) says it was taken over more. What the fixture's own files
 * are is kept.
 */
function checkedIn(text: string): string {
  const artifact = JSON.parse(text) as { hash: string, files: string[] }
  const own = artifact.files.filter(file => !file.startsWith('../'))
  if (own.length === artifact.files.length)
    return text
  return `${JSON.stringify({ ...artifact, hash: 'sha256:(over linked workspace files too)', files: own }, null, 2)}\n`
}

const modules = readdirSync(path.join(GOLDEN, 'src')).filter(file => file.endsWith('.tools.ts')).sort()

/** Each fixture folder of test/golden but the modules' (`src`, their goldens in `expected`), and the goldens its case below compares. */
const SNAPSHOTS: Readonly<Record<string, readonly string[]>> = {
  proxied: ['proxied/expected/upstream.mcp.json'],
  gateway: ['gateway/expected/gateway.mcp.json', 'gateway/expected/refused.txt'],
}

/** Every checked-in golden: each file under an `expected/` folder of test/golden, by its path there. */
const goldens = (readdirSync(GOLDEN, { recursive: true, encoding: 'utf8' }) as string[])
  .map(file => file.split(path.sep).join('/'))
  .filter(file => !file.startsWith('node_modules/') && file.split('/').includes('expected') && statSync(path.join(GOLDEN, file)).isFile())
  .sort()

/** What made a snapshot is the command's version: the checked-in file names none. */
const unversioned = (text: string): string => text.replace(/"generator": "flatmcp@[^"]+"/, '"generator": "flatmcp"')

/** Compares `text` with the checked-in file (writes it with FLATMCP_UPDATE_GOLDEN=1). */
function expectGolden(text: string, expected: string): void {
  if (UPDATE || !existsSync(expected)) {
    expect(UPDATE, `${path.relative(ROOT, expected)} is missing: write it with FLATMCP_UPDATE_GOLDEN=1`).toBe(true)
    mkdirSync(path.dirname(expected), { recursive: true })
    writeFileSync(expected, text)
  }
  expect(text).toBe(readFileSync(expected, 'utf8'))
}

describe('golden artifacts', () => {
  it('has fixtures, each folder read by a case and each golden compared by one: a new folder or a golden left behind fails', () => {
    expect(modules.length).toBeGreaterThan(0)
    // node_modules holds the build's cache (.cache/flatmcp), no fixture.
    const folders = readdirSync(GOLDEN, { withFileTypes: true }).filter(entry => entry.isDirectory() && !['src', 'expected', 'node_modules'].includes(entry.name)).map(entry => entry.name).sort()
    expect(folders, 'a folder of test/golden no case below reads').toEqual(Object.keys(SNAPSHOTS).sort())
    // A fixture with no golden fails where it is compared (expectGolden); a golden with no fixture fails here.
    const compared = [...modules.map(module => `expected/src/${module.replace(/\.ts$/, '.mcp.json')}`), ...Object.values(SNAPSHOTS).flat()]
    expect(goldens.filter(file => !compared.includes(file)), 'a golden no fixture makes').toEqual([])
  })

  it.each(modules)('%s builds to the checked-in artifact, byte for byte', async (module) => {
    // `minimal` is a base profile no client is sent; a new profile changes the artifact, so the golden fails until regenerated.
    const [file] = await buildArtifacts({ patterns: [`src/${module}`], root: GOLDEN, out, profiles: PROFILE_NAMES.filter(name => name !== 'minimal') })
    const text = checkedIn(readFileSync(file!, 'utf8'))
    expectGolden(text, path.join(EXPECTED, path.relative(out, file!)))
  }, SLOW)

  it('a proxied list snapshots to the checked-in artifact, byte for byte, in every profile and with the overrides', async () => {
    const proxied = path.join(GOLDEN, 'proxied')
    const file = path.join(out, 'upstream.mcp.json')
    const made = await runCli(['snapshot', '--out', file, '--overrides', path.join(proxied, 'overrides.json'), '--', process.execPath, path.join(proxied, 'upstream.mjs')])
    expect(made.code, made.stderr).toBe(0)
    expectGolden(unversioned(readFileSync(file, 'utf8')), path.join(proxied, 'expected', 'upstream.mcp.json'))
  }, SLOW)

  it('a gateway snapshots to the checked-in artifact, byte for byte: two servers, one a replica pair folded, another separator; two servers without a prefix are refused', async () => {
    // The config names its servers' files from its own folder, where the command runs: the snapshot holds no path.
    const gateway = path.join(GOLDEN, 'gateway')
    const file = path.join(out, 'gateway.mcp.json')
    const made = await runCli(['snapshot', '--config', 'config.json', '--overrides', 'overrides.json', '--out', file], gateway)
    expect(made.code, made.stderr).toBe(0)
    expectGolden(unversioned(readFileSync(file, 'utf8')), path.join(gateway, 'expected', 'gateway.mcp.json'))
    const bare = path.join(out, 'bare.mcp.json')
    const refused = await runCli(['snapshot', '--config', 'config.json', '--overrides', 'bare.overrides.json', '--out', bare], gateway)
    expect(refused.code).toBe(2)
    expect(existsSync(bare)).toBe(false)
    expectGolden(refused.stderr, path.join(gateway, 'expected', 'refused.txt'))
  }, SLOW)
})
