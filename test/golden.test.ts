// Golden fixtures: tool modules whose `*.mcp.json` text is checked in (test/golden/expected), built as
// `flatmcp build` and the plugin build them in every profile, and a proxied list (test/golden/proxied:
// a fixed upstream's tools, snapshotted by `flatmcp snapshot` with operator overrides). A change of the
// format, of a flattening or of a plan shows as a diff of these files in review.
// `FLATMCP_UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts` writes them anew.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
  it('has fixtures', () => {
    expect(modules).toEqual(['records.tools.ts', 'schemas.tools.ts', 'send.tools.ts'])
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
    // What made it is the command's version: the checked-in file names none.
    const text = readFileSync(file, 'utf8').replace(/"generator": "flatmcp@[^"]+"/, '"generator": "flatmcp"')
    expectGolden(text, path.join(proxied, 'expected', 'upstream.mcp.json'))
  }, SLOW)
})
