// scripts/slowest-tests.mjs: the table of the slowest test files in docs/development.md, written from a
// vitest JSON report of a run anywhere (a fresh clone in another folder), between its markers only.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-slowest-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const SCRIPT = path.join(ROOT, 'scripts/slowest-tests.mjs')
const DOC = 'before\n<!-- slowest-tests:start -->\nold table\n<!-- slowest-tests:end -->\nafter\n'

function run(files: [string, number][]): string {
  const clone = '/elsewhere/clone'
  const report = { startTime: Date.UTC(2026, 11, 6), testResults: files.map(([name, seconds]) => ({ name: `${clone}/${name}`, startTime: 0, endTime: seconds * 1000 })) }
  writeFileSync(path.join(scratch, 'report.json'), JSON.stringify(report))
  writeFileSync(path.join(scratch, 'doc.md'), DOC)
  execFileSync(process.execPath, [SCRIPT, path.join(scratch, 'report.json'), path.join(scratch, 'doc.md')])
  return readFileSync(path.join(scratch, 'doc.md'), 'utf8')
}

describe('scripts/slowest-tests.mjs', () => {
  it('writes the slowest files first, named from the project root wherever the run was, with the lanes it covers', () => {
    const files: [string, number][] = Array.from({ length: 12 }, (_, i) => [`packages/core/test/f${i}.test.ts`, i + 1])
    files.push(['test/cli.test.ts', 100], ['packages/core/test/superset.property.test.ts', 50])
    const doc = run(files)
    expect(doc.startsWith('before\n<!-- slowest-tests:start -->\nFrom a run of the unit, property, e2e lanes on 2026-12-06:')).toBe(true)
    expect(doc.endsWith('<!-- slowest-tests:end -->\nafter\n')).toBe(true)
    const rows = doc.split('\n').filter(line => line.startsWith('| `'))
    expect(rows).toHaveLength(10)
    expect(rows.slice(0, 3)).toEqual(['| `test/cli.test.ts` | 100 |', '| `packages/core/test/superset.property.test.ts` | 50 |', '| `packages/core/test/f11.test.ts` | 12 |'])
    expect(doc).toContain(`| all 14 files, summed | ${150 + 78} |`)
    expect(doc).not.toContain('old table')
  })

  it('says a report of one lane is of that lane', () => {
    expect(run([['packages/runtime/test/a.test.ts', 2], ['packages/cli/test/b.test.ts', 1]])).toContain('From a run of the unit lane on 2026-12-06:')
  })
})
