// The sections of `npm run bench`, in the order they run and print: the one table `--only`, `--help`
// and the run read. Each names what it measures, runs it, checks what it measured is what it meant
// (a list that should be whole is whole, an input it reads is at hand) and prints its tables and
// targets. A section's name is its file's (serve.bench.ts: serve).
import type { SetupCheck } from './setup-checks'
import type { Table, Target } from './core-tables'
import { runBuild } from './build.bench'
import { runCompiler } from './compiler.bench'
import { printBuild, printCompiler, printGenerators, printInstall, printInverse, printKeywords, printOutputs, printPeers, printPrecision, printProfiles, printProxy, printServe, printSize, printTokens, printV2 } from './core-tables'
import { printGateway, runGateway } from './gateway.bench'
import { BEFORE_GENERATORS, runGenerators } from './generators.bench'
import { runInstall } from './install.bench'
import { runInverse } from './inverse.bench'
import { printNpmServers, runNpmServers } from './npm-servers.bench'
import { runForms, runOutputs } from './outputs.bench'
import { runPeers } from './peers.bench'
import { BEFORE, runPrecision } from './precision.bench'
import { runProfiles } from './profiles.bench'
import { runProxyBench } from './proxy.bench'
import { printReplicas, runReplicas } from './replicas.bench'
import { printRetrieval, runRetrieval } from './retrieval.bench'
import { printScale, runScale } from './scale.bench'
import { runServe } from './serve.bench'
import { atHand, someTools } from './setup-checks'
import { runSize } from './size.bench'
import { runTokens } from './tokens.bench'
import { runV2 } from './v2.bench'
import { keywordPrecision } from '../test/support/keyword-precision'

const ROOT = new URL('..', import.meta.url).pathname
const SUITES = process.env.FLATMCP_SUITES ?? new URL('../../shared/suites', import.meta.url).pathname

export interface Section<R = unknown> {
  /** What `--only` takes. */
  name: string
  /** The numbers of the tables it prints. */
  numbers: string
  /** One line for `--help`. */
  about: string
  run: (log: (line: string) => void) => Promise<R>
  /** What was measured against what was meant; a check that fails keeps the section's figures out and fails the run. */
  setup?: (result: R) => SetupCheck[]
  print: (result: R, table: Table, target: Target) => void
}

/** A section with its result's type checked across run, setup and print. */
const section = <R>(entry: Section<R>): Section => entry as unknown as Section

const gitReads = (commit: string): string => `git cannot read ${commit} here (a shallow clone?)`
const suitesAt = `${SUITES} is not at hand (set FLATMCP_SUITES)`

export const SECTIONS: readonly Section[] = [
  section({ name: 'serve', numbers: '1a 1b 2 3 3b', about: 'tools/list in process and over stdio, cold start, tools/call, hostile arguments', run: runServe, print: printServe }),
  section({ name: 'v2', numbers: '1c', about: 'tools/list through a real client in one process, per SDK major', run: runV2, print: printV2 }),
  section({ name: 'compiler', numbers: '4 4a 4b', about: 'the compiler\'s scaling with width and depth, unions, recursive and bomb-shaped schemas', run: runCompiler, print: printCompiler }),
  section({ name: 'build', numbers: '5', about: 'the plugin\'s cost per module in Vite, Rollup and esbuild', run: runBuild, print: printBuild }),
  section({ name: 'size', numbers: '6', about: 'the runtime\'s size, min and min+gzip', run: runSize, print: printSize }),
  section({ name: 'install', numbers: '7', about: 'what a user installs, and the coercer bundled from the installed package', run: runInstall, print: printInstall }),
  section({ name: 'profiles', numbers: '8', about: 'each target profile\'s compile, call and list', run: runProfiles, print: printProfiles }),
  section({ name: 'inverse', numbers: '8b', about: 'the server\'s reading path beside zod and the transport\'s parse, hostile bodies', run: runInverse, print: printInverse }),
  section({ name: 'precision', numbers: '9', about: `precision of the advertised schema against the core at ${BEFORE}`, run: log => runPrecision(log, ROOT), setup: rows => [atHand(`the core at ${BEFORE}`, rows, gitReads(BEFORE))], print: (rows, table, target) => printPrecision(rows!, table, target) }),
  section({ name: 'tokens', numbers: '10 10a', about: 'tokens of each tool\'s definition per profile', run: log => runTokens(log, ROOT), print: printTokens }),
  section({ name: 'peers', numbers: '10b', about: 'beside FastMCP on its own inputs', run: () => runPeers(ROOT), setup: rows => [atHand('FastMCP\'s inputs', rows, suitesAt)], print: (rows, table, target) => printPeers(rows!, table, target) }),
  section({ name: 'keywords', numbers: '10c', about: 'precision per keyword on the official JSON-Schema-Test-Suite', run: async () => keywordPrecision(SUITES), setup: rows => [atHand('the JSON-Schema-Test-Suite', rows, suitesAt)], print: (rows, table, target) => printKeywords(rows!, table, target) }),
  section({ name: 'generators', numbers: '11', about: 'schemas other languages\' generators write', run: log => runGenerators(log, ROOT), setup: rows => [atHand(`the core at ${BEFORE_GENERATORS}`, rows, gitReads(BEFORE_GENERATORS))], print: (rows, table, target) => printGenerators(rows!, table, target) }),
  section({ name: 'proxy', numbers: '12', about: 'the proxy in front of an SDK 2.x server: requests, start-up, memory, tokens, the chooser', run: runProxyBench, print: printProxy }),
  section({ name: 'outputs', numbers: '13 13b', about: 'output schemas beside the SDK\'s, elicitation forms', run: async log => ({ outputs: await runOutputs(log), forms: await runForms(log) }), print: printOutputs }),
  section({ name: 'npm-servers', numbers: '14 14b', about: 'the proxy in front of the suite\'s npm servers: tools, tokens, start-up (npm run bench:startup: its start-up alone)', run: runNpmServers, setup: servers => [
    atHand('the suite\'s npm servers', servers.length > 0 ? servers : undefined, 'none ran'),
    // A server that did not start lists nothing, and its ratios would be of nothing.
    ...servers.map(server => someTools(`${server.name}'s own list`, server.tools.direct)),
    // Later starts are timed with the answers kept: a first start kept none, and would time a first start twice.
    ...servers.map(server => ({ what: `${server.name}'s answers and compiled list kept for later starts`, ok: server.kept, found: server.kept ? 'kept' : 'none kept within 20 s' })),
  ], print: printNpmServers }),
  section({ name: 'gateway', numbers: '15', about: 'the npm servers behind one --config, --surface full and auto; isolation; memory under a flood', run: runGateway, setup: result => result.setup, print: printGateway }),
  section({ name: 'retrieval', numbers: '16', about: 'find_tools beside BM25, and where the search surface pays', run: runRetrieval, print: printRetrieval }),
  section({ name: 'scale', numbers: '16b', about: 'finding a tool at a large operator\'s scale', run: runScale, print: (result, table) => printScale(result, table) }),
  section({ name: 'replicas', numbers: '17', about: 'replicas behind HAProxy and nginx: throughput, a killed replica, rolling restarts, OpenTelemetry\'s cost', run: runReplicas, setup: result => [atHand('a balancer', 'missing' in result ? undefined : result, 'missing' in result ? result.missing : '')], print: printReplicas }),
]
