// node scripts/slowest-tests.mjs REPORT [DOC]: writes the ten slowest test files of a vitest JSON report
// (.ci/run writes one to .cache/vitest-report.json) into DOC (docs/development.md) between its markers,
// so the table is regenerated from a run, never typed.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const START = '<!-- slowest-tests:start -->'
const END = '<!-- slowest-tests:end -->'
const COUNT = 10

const [reportFile, docFile = 'docs/development.md'] = process.argv.slice(2)
if (!reportFile) {
  console.error('usage: node scripts/slowest-tests.mjs REPORT [DOC]')
  process.exit(2)
}

const report = JSON.parse(readFileSync(reportFile, 'utf8'))
// The project's root, wherever the run was (a fresh clone elsewhere): the folder all the files share.
function sharedFolder(names) {
  let shared = path.dirname(names[0] ?? '').split(path.sep)
  for (const name of names) {
    const parts = path.dirname(name).split(path.sep)
    const differs = shared.findIndex((part, i) => part !== parts[i])
    if (differs >= 0)
      shared = shared.slice(0, differs)
  }
  return shared.join(path.sep)
}
const root = sharedFolder(report.testResults.map(file => file.name)) || process.cwd()
// A file's time is its first test's start to its last test's end (the report's startTime and endTime;
// the report has no figure for a file's beforeAll before its first test).
const files = report.testResults
  .map(file => ({ name: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds)
const total = files.reduce((sum, file) => sum + file.seconds, 0)
// The lanes the report covers, by vitest.config.ts's rule, so a table from one lane says so.
const laneOf = name => /^test\/|\.e2e\.test\.ts$/.test(name) ? 'e2e' : /\.property\.test\.ts$/.test(name) ? 'property' : 'unit'
const lanes = ['unit', 'property', 'e2e'].filter(lane => files.some(file => laneOf(file.name) === lane))
const ran = new Date(report.startTime).toISOString().slice(0, 10)

const table = [
  `From a run of the ${lanes.join(', ')} lane${lanes.length > 1 ? 's' : ''} on ${ran}:`,
  '',
  '| test file | seconds |',
  '| --- | ---: |',
  ...files.slice(0, COUNT).map(file => `| \`${file.name}\` | ${file.seconds.toFixed(0)} |`),
  `| all ${files.length} files, summed | ${total.toFixed(0)} |`,
].join('\n')

const doc = readFileSync(docFile, 'utf8')
const start = doc.indexOf(START)
const end = doc.indexOf(END)
if (start < 0 || end < start) {
  console.error(`${docFile} has no ${START} … ${END} markers`)
  process.exit(1)
}
writeFileSync(docFile, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`)
console.log(`${docFile}: the ten slowest of ${files.length} test files (${total.toFixed(0)} s summed)`)
