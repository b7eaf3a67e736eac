// The tables of sections 1 to 13 of `npm run bench` (the compiler, the runtime, the profiles, the
// proxy's own path), each printed from its section's result with the targets it is held to; the
// sections from 14 on print from their own files. bench/sections.ts says which runs when.
import type { BuildResults } from './build.bench'
import type { CompilerResults } from './compiler.bench'
import type { GeneratorRow } from './generators.bench'
import type { InstallResults } from './install.bench'
import type { InverseRow } from './inverse.bench'
import type { FormRow, OutputRow } from './outputs.bench'
import type { PeerRow } from './peers.bench'
import type { PrecisionRow } from './precision.bench'
import type { ProfileResult } from './profiles.bench'
import type { ProxyResults } from './proxy.bench'
import type { ServeResults } from './serve.bench'
import type { SizeResults } from './size.bench'
import type { TokensRow } from './tokens.bench'
import type { V2Results } from './v2.bench'
import type { KeywordPrecisionRow } from '../test/support/keyword-precision'
import { BUNDLERS, MODULES } from './build.bench'
import { BEFORE_GENERATORS, GENERATOR_PROFILES } from './generators.bench'
import { NOT_JSON } from './inverse.bench'
import { fmt, median, ratio } from './measure'
import { BEFORE } from './precision.bench'
import { PROXY_CALLS, PROXY_TOOLS } from './proxy.bench'
import { SIZES } from './serve.bench'
import { BEFORE_CUTS, medianRatios, TOKEN_PROFILES } from './tokens.bench'
import { V2_TOOLS } from './v2.bench'

export type Table = (header: string[], rows: (string | number)[][]) => void
export type Target = (what: string, met: boolean, figure: string) => void

const percent = (part: number, whole: number): string => `${whole === 0 ? '-' : ((part / whole) * 100).toFixed(1)}%`

/** What one reading adds to another, in µs, from their ms. */
const addedMicros = (ms: number, baseMs: number): string => ((ms - baseMs) * 1000).toFixed(2)

/** Sections 1a, 1b, 2, 3 and 3b: tools/list in process and over stdio, cold start, tools/call and hostile arguments. */
export function printServe(serve: ServeResults, table: Table, target: Target): void {
  console.log('\n1a. tools/list, in process: the server\'s tools/list handler plus the line its stdio transport writes, per request')
  table(['tools', 'flatmcp', 'compile at start-up', 'SDK McpServer', 'pre-serialized', 'SDK ÷ flatmcp', 'flatmcp ÷ limit'], SIZES.map((n) => {
    const r = serve.listInProcess[n]!
    return [n, fmt(r.flatmcp), fmt(r.startup), fmt(r.sdk), fmt(r.limit), ratio(r.sdk, r.flatmcp), ratio(r.flatmcp, r.limit)]
  }))
  console.log('\n1b. tools/list over stdio, a real SDK client, per request')
  table(['tools', 'flatmcp', 'compile at start-up', 'SDK McpServer', 'pre-serialized', 'SDK ÷ flatmcp', 'flatmcp ÷ limit'], SIZES.map((n) => {
    const r = serve.listStdio[n]!
    return [n, fmt(r.flatmcp), fmt(r.startup), fmt(r.sdk), fmt(r.limit), ratio(r.sdk, r.flatmcp), ratio(r.flatmcp, r.limit)]
  }))
  const stdio100 = serve.listStdio[100]!
  target('tools/list at 100 tools through a real client ≥ 40× faster than the SDK', stdio100.sdk / stdio100.flatmcp >= 40, ratio(stdio100.sdk, stdio100.flatmcp))
  target('tools/list at 100 tools within 1.5× of the pre-serialized limit', stdio100.flatmcp / stdio100.limit <= 1.5, ratio(stdio100.flatmcp, stdio100.limit))
  console.log('\n2. cold start to the first tools/list answer, whole process, 100 tools')
  const cold = serve.coldStart
  table(['flatmcp (bundled)', 'compile at start-up', 'SDK McpServer', 'pre-serialized, no SDK', 'start-up ÷ flatmcp', 'SDK ÷ flatmcp'], [[fmt(cold.flatmcp), fmt(cold.startup), fmt(cold.sdk), fmt(cold.limit), ratio(cold.startup, cold.flatmcp), ratio(cold.sdk, cold.flatmcp)]])
  target('cold start at 100 tools ≥ 3× faster than compiling at start-up', cold.startup / cold.flatmcp >= 3, ratio(cold.startup, cold.flatmcp))

  console.log('\n3. tools/call: coerceArgs + zod parse vs zod parse alone (a union tool with an array of objects), µs')
  const call = serve.call
  const overhead = (r: { zod: number, flatmcp: number }): string => `${((r.flatmcp / r.zod - 1) * 100).toFixed(0)}%`
  table(['arguments', 'zod parse', 'coerce + zod parse', 'added'], [
    ['clean', (call.clean.zod * 1000).toFixed(2), (call.clean.flatmcp * 1000).toFixed(2), overhead(call.clean)],
    ['double-serialized', (call.stringified.zod * 1000).toFixed(2), (call.stringified.flatmcp * 1000).toFixed(2), `${overhead(call.stringified)} (zod alone rejects them)`],
  ])
  // 1.5×, not 1.1×: the standalone coercer walks its plan in under 1 KB (section 6's target), where
  // the servers' own path runs a pass compiled per tool (section 8b); a walk of a clean call's few
  // planned places costs a few tenths of a µs beside zod's sub-microsecond parse.
  target('the standalone coercer + zod ≤ 1.5× zod parse on clean arguments', call.clean.flatmcp / call.clean.zod <= 1.5, `${ratio(call.clean.flatmcp, call.clean.zod)} (${addedMicros(call.clean.flatmcp, call.clean.zod)} µs added)`)

  console.log('\n3b. hostile arguments within the 4 MiB HTTP body limit: coerceArgs alone vs zod rejecting the same arguments')
  table(['arguments', 'bytes', 'coerceArgs', 'zod safeParse', 'coerce ÷ zod'], serve.hostile.map(r => [r.case, r.bytes, fmt(r.coerce), fmt(r.zod), ratio(r.coerce, r.zod)]))
  const worst = serve.hostile.reduce((a, b) => b.coerce / b.zod > a.coerce / a.zod ? b : a)
  target('the worst hostile call costs the coercer ≤ 1× what zod spends on it', worst.coerce / worst.zod <= 1, `${ratio(worst.coerce, worst.zod)} (${worst.case})`)
}

/** Section 1c: tools/list through a real client in one process, per SDK major. */
export function printV2(v2: V2Results, table: Table, target: Target): void {
  console.log(`\n1c. tools/list through a real client in one process (in-memory transport), ${V2_TOOLS} tools, per request`)
  table(['SDK', 'McpServer + zod', 'McpServer + flat()', 'createMcpServer', 'prebuilt list (limit)', 'zod ÷ flat()', 'flat() ÷ limit', 'createMcpServer ÷ limit'], [
    ['2.x', fmt(v2.v2.zod), fmt(v2.v2.flat), fmt(v2.v2.createMcpServer), fmt(v2.v2.limit), ratio(v2.v2.zod, v2.v2.flat), ratio(v2.v2.flat, v2.v2.limit), ratio(v2.v2.createMcpServer, v2.v2.limit)],
    ['1.x', '', '', fmt(v2.v1.createMcpServer), fmt(v2.v1.limit), '', '', ratio(v2.v1.createMcpServer, v2.v1.limit)],
  ])
  target('SDK 2.x McpServer with flat() within 1.2× of a prebuilt list', v2.v2.flat / v2.v2.limit <= 1.2, ratio(v2.v2.flat, v2.v2.limit))
}

/** Sections 4, 4a and 4b: the compiler's scaling. */
export function printCompiler(compiler: CompilerResults, table: Table, target: Target): void {
  console.log('\n4. compiler scaling')
  table(['case', 'nodes', 'zod → JSON', 'flatten', 'compileTool', 'flatten µs/node'], [...compiler.widths, ...compiler.depths].map(r => [r.case, r.nodes, fmt(r.toJsonMs), fmt(r.flattenMs), fmt(r.compileMs), (r.flattenMs * 1000 / r.nodes).toFixed(2)]))
  console.log(`growth exponent (time ∝ size^k): widths 500→10,000 flatten k=${compiler.widthExponent.flatten.toFixed(2)}, compileTool k=${compiler.widthExponent.compileTool.toFixed(2)}; depth 1→8 flatten k=${compiler.depthExponent.flatten.toFixed(2)}, compileTool k=${compiler.depthExponent.compileTool.toFixed(2)}`)
  console.log('\n4a. unions whose variants each have a key of their own (as many keys as variants), zod and JSON Schema given as data')
  table(['case', 'nodes', 'flatten', 'compileTool'], compiler.ownKeys.map(r => [r.case, r.nodes, fmt(r.flattenMs), fmt(r.compileMs)]))
  console.log(`growth exponent (compileTool, 1,000 → 10,000 variants): zod k=${compiler.ownKeysExponent.zod.toFixed(2)}, JSON k=${compiler.ownKeysExponent.json.toFixed(2)}`)
  target('a union with a key per variant compiles in time about linear in its width', Math.max(compiler.ownKeysExponent.zod, compiler.ownKeysExponent.json) < 1.2, `k=${compiler.ownKeysExponent.zod.toFixed(2)} (zod), ${compiler.ownKeysExponent.json.toFixed(2)} (JSON)`)
  console.log('\n4b. recursive and bomb-shaped schemas: sizes in bytes of JSON, plan beside schema')
  table(['case', 'original', 'flat schema', 'coercion plan', 'plan ÷ original', 'planCoercion', 'compile'], compiler.sizes.map(r => [r.case, r.originalBytes, r.flatBytes, r.planBytes, ratio(r.planBytes, r.originalBytes), fmt(r.planMs), fmt(r.compileMs)]))
  const w200 = compiler.widths.find(r => r.case.includes('200'))!
  target('compiler cost about linear in schema size', compiler.widthExponent.flatten < 1.2 && compiler.depthExponent.flatten < 1.2, `k=${compiler.widthExponent.flatten.toFixed(2)} (width), ${compiler.depthExponent.flatten.toFixed(2)} (depth)`)
  target('a 200-variant union flattens in < 50 ms', w200.flattenMs < 50, `${fmt(w200.flattenMs)} ms (compileTool with zod's own conversion: ${fmt(w200.compileMs)} ms)`)
}

/** Section 5: the plugin's cost per module in each bundler. */
export function printBuild(build: BuildResults, table: Table, target: Target): void {
  console.log(`\n5. build: ${MODULES} tool modules of 10 tools; plugin cost per module = (with plugin − without) ÷ ${MODULES}`)
  table(['bundler', 'without plugin', 'cold cache', 'warm cache', 'per module cold', 'per module warm', 'rebuild after edit', 'rebuild without plugin'], BUNDLERS.map((b) => {
    const r = build[b]!
    return [b, fmt(r.baseline), fmt(r.cold), fmt(r.warm), fmt((r.cold - r.baseline) / MODULES), fmt(Math.max(0, r.warm - r.baseline) / MODULES), fmt(r.rebuild), fmt(r.rebuildBaseline)]
  }))
  const warmWorst = Math.max(...BUNDLERS.map(b => Math.max(0, build[b]!.warm - build[b]!.baseline) / MODULES))
  target('warm plugin cost ≤ 20 ms per module', warmWorst <= 20, `${fmt(warmWorst)} ms at most`)
}

/** Section 6: the runtime's size. */
export function printSize(size: SizeResults, table: Table, target: Target): void {
  console.log('\n6. runtime size (esbuild --minify, gzip -9), bytes')
  table(['part', 'min', 'min+gzip'], [['coerceArgs', size.coercer.min, size.coercer.gzip], ['serving path (runtime without the MCP SDK)', size.serving.min, size.serving.gzip]])
  target('coercer ≤ 2 KB min+gzip', size.coercer.gzip <= 2048, `${size.coercer.gzip} B`)
}

/** Section 7: what a user installs, and the coercer bundled from the installed package. */
export function printInstall(install: InstallResults, table: Table, target: Target): void {
  console.log('\n7. what a user installs (npm, fresh project) and the coercer bundled from the installed package')
  const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1)
  table(['install', 'MB on disk', 'packages'], [
    ['unplugin-flatmcp + @flatmcp/runtime + @flatmcp/core, as npm installs them (with the MCP SDK, a peer)', mb(install.flatmcp.bytes), install.flatmcp.packages],
    ['the same without peers (the SDK a server has anyway left out)', mb(install.flatmcpAlone.bytes), install.flatmcpAlone.packages],
    ['unplugin-auto-import', mb(install.autoImport.bytes), install.autoImport.packages],
    ['flatmcp without peers ÷ auto-import', ratio(install.flatmcpAlone.bytes, install.autoImport.bytes), ratio(install.flatmcpAlone.packages, install.autoImport.packages)],
  ])
  table(['import', 'min', 'min+gzip'], [["{ coerceArgs } from '@flatmcp/runtime/coerce'", install.coercer.min, install.coercer.gzip]])
  target('the standalone coercer, bundled from the package, ≤ 1 KB min+gzip', install.coercer.gzip <= 1024, `${install.coercer.gzip} B`)
}

/** Section 8: the target profiles' compile, call and list. */
export function printProfiles(profiles: ProfileResult[], table: Table, target: Target): void {
  console.log('\n8. target profiles: compiling 100 tools, one call of a union tool (model-shaped arguments), tools/list of 100 tools')
  const portable = profiles[0]!
  const added = (r: { zod: number, inverse: number }): string => `${((r.inverse / r.zod - 1) * 100).toFixed(0)}%`
  table(['profile', 'compile', 'compile ÷ portable', 'zod parse µs', 'inverse + zod µs', 'added', 'tools/list', 'limit', 'list ÷ limit', 'list ÷ portable\'s'], profiles.map(r => [
    r.profile,
    fmt(r.compile),
    ratio(r.compile, portable.compile),
    (r.zod * 1000).toFixed(2),
    (r.inverse * 1000).toFixed(2),
    added(r),
    fmt(r.list),
    fmt(r.limit),
    ratio(r.list, r.limit),
    ratio(r.list, portable.list),
  ]))
  // The reading of clean arguments is judged in section 8b, beside the least a server does to read
  // what each profile's model writes (zod alone does not drop openai-strict's nulls or parse gemini's text).
  const worstList = profiles.reduce((a, b) => b.list / b.limit > a.list / a.limit ? b : a)
  target('tools/list in every profile within 1.2× of the pre-serialized limit', worstList.list / worstList.limit <= 1.2, `${ratio(worstList.list, worstList.limit)} at most (${worstList.profile}); ÷ portable's own: ${ratio(worstList.list, portable.list)}`)
}

/** Section 8b: the server's reading path beside zod and the transport's parse. */
export function printInverse(inverse: InverseRow[], table: Table, target: Target): void {
  console.log('\n8b. the server\'s reading path (each try of the inverse map, then zod) beside zod alone: arguments needing scalar repair, and hostile bodies zod rejects; the inverse alone and the transport\'s JSON.parse of the body beside them (and of the JSON text the profile asked for, where it did)')
  table(['profile', 'arguments', 'zod', 'reading path', 'read ÷ zod', 'inverse alone', 'inverse ÷ zod', 'transport parse', 'inverse ÷ transport', 'its JSON text\'s parse'], inverse.map(r => [
    r.profile,
    r.case,
    fmt(r.zod),
    fmt(r.read),
    ratio(r.read, r.zod),
    r.inverse === undefined ? '' : fmt(r.inverse),
    r.inverse === undefined ? '' : ratio(r.inverse, r.zod),
    r.transport === undefined ? '' : fmt(r.transport),
    r.inverse === undefined || r.transport === undefined ? '' : ratio(r.inverse, r.transport),
    r.text === undefined ? '' : fmt(r.text),
  ]))
  // ≤ 1.3× the least a server does, not ≤ 1.2× zod alone: zod parses this tool in ~0.7 µs, and the
  // reading visits each planned place and tries its readings in turn; openai-strict's and gemini's
  // forms cost any server work zod alone is not timed doing (nulls dropped, JSON text parsed).
  const clean = inverse.filter(r => r.least)
  const worstClean = clean.reduce((a, b) => b.read / b.zod > a.read / a.zod ? b : a)
  target('the reading path on clean arguments ≤ 1.3× the least a server does to read them, in every profile', worstClean.read / worstClean.zod <= 1.3, `${ratio(worstClean.read, worstClean.zod)} at most (${worstClean.profile}; ${addedMicros(worstClean.read, worstClean.zod)} µs added)`)
  // What a client waits for: the same µs as a share of a whole call through createMcpServer.
  const share = (r: InverseRow): number => Math.max(0, r.read - r.zod) / r.served!
  const worstShare = clean.reduce((a, b) => share(b) > share(a) ? b : a)
  target('what the reading path adds to clean arguments beyond that least ≤ 1% of a whole call through createMcpServer, in every profile', share(worstShare) <= 0.01, `${(share(worstShare) * 100).toFixed(2)}% at most (${worstShare.profile}; ${addedMicros(worstShare.read, worstShare.zod)} µs of a ${fmt(worstShare.served! * 1000)} µs call)`)
  // Each of the four timed on a collected heap (`interleaved`'s `collect`): timed one after another,
  // gemini's album paid for the garbage of the parse before it (0.97× and 1.88× in two whole runs).
  const hostile = inverse.filter(r => r.inverse !== undefined && r.transport !== undefined)
  const worstHostile = hostile.reduce((a, b) => b.inverse! / b.transport! > a.inverse! / a.transport! ? b : a)
  const text = worstHostile.text === undefined ? '' : `; the JSON text it asked for parses in ${fmt(worstHostile.text)} ms`
  target('on a hostile body of about 4 MiB, the inverse map costs at most the transport\'s own parse of it (×1.5)', worstHostile.inverse! / worstHostile.transport! <= 1.5, `${ratio(worstHostile.inverse!, worstHostile.transport!)} at most (${worstHostile.profile}, ${worstHostile.case}${text})`)
  const million = inverse.filter(r => r.case.startsWith('1,000,000'))
  const worstMillion = million.reduce((a, b) => b.read / b.zod > a.read / a.zod ? b : a)
  target('a body zod takes seconds to reject costs the reading path about one parse in every profile (≤ 1.5× zod)', worstMillion.read / worstMillion.zod <= 1.5, `${ratio(worstMillion.read, worstMillion.zod)} at most (${worstMillion.profile})`)
  const notJsonRead = (profile: string): number => inverse.find(r => r.profile === profile && r.case.startsWith(NOT_JSON))!.read
  const strictNotJson = notJsonRead('openai-strict') / notJsonRead('portable')
  target('openai-strict\'s reading path on JSON text that does not parse within 3× portable\'s (a text fails to parse once, not once per reading)', strictNotJson <= 3, `${strictNotJson.toFixed(2)}×`)
  const notJsonServed = (profile: string): number => inverse.find(r => r.profile === profile && r.case.startsWith(NOT_JSON))!.served!
  const strictNotJsonServed = notJsonServed('openai-strict') / notJsonServed('portable')
  target('the same body through createMcpServer: openai-strict\'s whole call within 3× portable\'s', strictNotJsonServed <= 3, `${strictNotJsonServed.toFixed(2)}× (${fmt(notJsonServed('openai-strict'))} vs ${fmt(notJsonServed('portable'))})`)
  const readsFully = hostile.filter(r => r.zod > 1 && r.inverse !== undefined)
  const worstVsZod = readsFully.reduce((a, b) => b.inverse! / b.zod > a.inverse! / a.zod ? b : a)
  target('where zod reads the whole hostile body to reject it, the inverse map costs no more than zod', worstVsZod.inverse! / worstVsZod.zod <= 1, `${ratio(worstVsZod.inverse!, worstVsZod.zod)} at most (${worstVsZod.profile}, ${worstVsZod.case})`)
}

/** Section 9: precision and soundness of the advertised schema against the core before. */
export function printPrecision(precision: PrecisionRow[], table: Table, target: Target): void {
  console.log(`\n9. precision and soundness of the advertised schema under ajv + ajv-formats: valid arguments accepted, invalid variations (zod rejects each) still rejected; core at ${BEFORE} vs now`)
  table(['tool', 'valid accepted before', 'valid accepted now', 'invalid variations', 'rejected before', 'rejected now'], precision.map(r => [r.tool, percent(r.validBefore, 1), percent(r.validAfter, 1), r.invalid, percent(r.before, r.invalid), percent(r.after, r.invalid)]))
  target('every valid argument accepted under ajv + ajv-formats', precision.every(r => r.validAfter === 1), precision.map(r => percent(r.validAfter, 1)).join(' '))
}

/** Sections 10 and 10a: tokens per profile, and what examples per variant add. */
export function printTokens(tokens: TokensRow[], table: Table, target: Target): void {
  console.log(`\n10. tokens (o200k_base) of each tool's definition, advertised ÷ original per profile; portable before the cuts (core at ${BEFORE_CUTS}); portable's precision beside it: invalid variations rejected under ajv + ajv-formats by the original JSON Schema and by portable`)
  table(['set', 'tool', 'original', ...TOKEN_PROFILES, `portable at ${BEFORE_CUTS}`, 'rejected: original', 'rejected: portable'], tokens.map(r => [
    r.set, r.tool, r.original, ...TOKEN_PROFILES.map(p => `${r.profiles[p]} (${(r.profiles[p]! / r.original).toFixed(2)}×)`), r.portableBefore ?? '-', percent(r.rejectedOriginal, r.invalid), percent(r.rejectedPortable, r.invalid),
  ]))
  for (const [label, rows] of [['example tools', tokens.filter(r => r.set === 'example')], ['tools modelled on public servers', tokens.filter(r => r.set === 'real')], ['all', tokens]] as const) {
    const ratios = medianRatios([...rows])
    console.log(`  median advertised ÷ original, ${label}: ${TOKEN_PROFILES.map(p => `${p} ${ratios[p]!.toFixed(2)}×`).join(', ')}`)
  }
  console.log('\n10a. examples per variant (one small valid example per variant of a root union): o200k_base tokens they add per profile, on the tools that get them')
  const exampled = tokens.filter(r => TOKEN_PROFILES.some(p => r.profiles[p] !== r.withoutExamples[p]))
  table(['set', 'tool', ...TOKEN_PROFILES], exampled.map(r => [r.set, r.tool, ...TOKEN_PROFILES.map(p => `+${r.profiles[p]! - r.withoutExamples[p]!} (${(r.profiles[p]! / r.withoutExamples[p]!).toFixed(2)}×)`)]))
  console.log(`  ${exampled.length} of ${tokens.length} tools get examples; median cost ${TOKEN_PROFILES.map(p => `${p} ${median(exampled.map(r => r.profiles[p]! / r.withoutExamples[p]!)).toFixed(2)}×`).join(', ')}`)
  const portableMedian = medianRatios(tokens).portable!
  target('portable well under 0.8× the original\'s tokens (median, all tools) at the same precision', portableMedian < 0.8 && tokens.every(r => r.rejectedPortable >= r.rejectedOriginal * 0.95), `${portableMedian.toFixed(2)}×; precision ${percent(tokens.reduce((s, r) => s + r.rejectedPortable, 0), tokens.reduce((s, r) => s + r.rejectedOriginal, 0))} of the original's`)
}

/** Section 10b: beside FastMCP on its own inputs. */
export function printPeers(peers: PeerRow[], table: Table, target: Target): void {
  console.log('\n10b. beside a peer on its own inputs: FastMCP\'s schema-utility test inputs, o200k_base tokens as given, as FastMCP 4.0 advertises them, and per flatmcp profile')
  const sum = (pick: (r: PeerRow) => number): number => peers.reduce((total, r) => total + pick(r), 0)
  table(['inputs', 'cases', 'original', 'FastMCP', ...TOKEN_PROFILES, 'portable ÷ FastMCP'], [['all', peers.length, sum(r => r.original), sum(r => r.fastmcp), ...TOKEN_PROFILES.map(p => sum(r => r.profiles[p]!)), ratio(sum(r => r.profiles.portable!), sum(r => r.fastmcp))]])
  const heavier = peers.filter(r => r.profiles.portable! > r.fastmcp).sort((a, b) => b.profiles.portable! / b.fastmcp - a.profiles.portable! / a.fastmcp).slice(0, 5)
  table(['heaviest beside FastMCP', 'FastMCP', 'portable', 'portable ÷ FastMCP'], heavier.map(r => [r.case, r.fastmcp, r.profiles.portable!, ratio(r.profiles.portable!, r.fastmcp)]))
  // FastMCP's output is measured with the root type MCP requires added, and apart from the inputs with
  // untyped values: portable spells those as every type with `items` (Claude Code, Codex and VS Code
  // refuse an untyped array), which costs tokens FastMCP's output does not pay and no client can do without.
  const typed = peers.filter(r => !r.untyped)
  const typedSum = (pick: (r: PeerRow) => number): number => typed.reduce((total, r) => total + pick(r), 0)
  console.log(`portable ÷ FastMCP on all ${peers.length} inputs: ${ratio(sum(r => r.profiles.portable!), sum(r => r.fastmcp))} as FastMCP lists them, ${ratio(sum(r => r.profiles.portable!), sum(r => r.fastmcpTyped))} with the root type added; ${peers.length - typed.length} inputs with untyped values`)
  target(`portable no heavier than FastMCP's own output (its root type added) on FastMCP's ${typed.length} inputs without untyped values`, typedSum(r => r.profiles.portable!) <= typedSum(r => r.fastmcpTyped), ratio(typedSum(r => r.profiles.portable!), typedSum(r => r.fastmcpTyped)))
}

/** Section 10c: precision per keyword on the official JSON-Schema-Test-Suite. */
export function printKeywords(keywordPrecision: KeywordPrecisionRow[], table: Table, target: Target): void {
  console.log('\n10c. precision per keyword on the official JSON-Schema-Test-Suite (draft 2020-12): of each keyword file\'s invalid data the original rejects under ajv 2020 + ajv-formats, the share each profile keeps a model from sending (its flat schema rejects the datum as the model writes it, or it has no form); after the slash, only where the profile still says the keyword (not JSON text as a whole), with how many data that is')
  const share = (kept: number, of: number): string => of === 0 ? '–' : (kept / of).toFixed(2)
  const profiles = Object.keys(keywordPrecision[0]!.kept) as (keyof typeof keywordPrecision[0]['kept'])[]
  table(['keyword', 'invalid data', ...profiles], keywordPrecision.map(row => [row.keyword, row.invalid, ...profiles.map(p => `${share(row.kept[p]!, row.invalid)} / ${share(row.keptCarried[p]!, row.carried[p]!)} of ${row.carried[p]}`)]))
  const below = keywordPrecision.filter(row => row.carried.portable! > 0 && row.keptCarried.portable! < row.carried.portable! * 0.95)
  target('portable keeps ≥ 0.95 of the original\'s precision on every keyword it carries (official suite)', below.length === 0, below.length === 0 ? 'every one' : below.map(row => `${row.keyword} ${share(row.keptCarried.portable!, row.carried.portable!)}`).join(', '))
}

/** Section 11: schemas other languages' generators write. */
export function printGenerators(generators: GeneratorRow[], table: Table, target: Target): void {
  console.log(`\n11. schemas other languages' generators write: tokens advertised ÷ the schema as listed, per profile, core at ${BEFORE_GENERATORS} (a Standard Schema wrapper, JavaScript semantics) → now (JSON Schema front end, preset detected); precision under ajv + ajv-formats (invalid variations rejected, ÷ the original's); compile ms per tool`)
  const x = (n: number, d: number): string => `${(n / d).toFixed(2)}×`
  table(['set', 'tool', 'preset', 'original', ...GENERATOR_PROFILES, 'precision', 'compile ms'], generators.map(r => [
    r.set, r.tool, r.preset, r.original, ...GENERATOR_PROFILES.map(p => `${x(r.before[p]!, r.original)} → ${x(r.after[p]!, r.original)}`), `${percent(r.rejectedBefore, r.rejectedOriginal)} → ${percent(r.rejectedAfter, r.rejectedOriginal)}`, `${fmt(r.compileBefore)} → ${fmt(r.compileAfter)}`,
  ]))
  for (const profile of GENERATOR_PROFILES) {
    const before = generators.map(r => r.before[profile]! / r.original)
    const after = generators.map(r => r.after[profile]! / r.original)
    console.log(`  ${profile}: median ${median(before).toFixed(2)}× → ${median(after).toFixed(2)}×, worst ${Math.max(...before).toFixed(2)}× → ${Math.max(...after).toFixed(2)}×`)
  }
  const worstPortable = Math.max(...generators.map(r => r.after.portable! / r.original))
  target('portable never larger than a generated original (worst tool)', worstPortable <= 1, `${worstPortable.toFixed(2)}×`)
  const precisionAfter = generators.reduce((s, r) => s + r.rejectedAfter, 0) / generators.reduce((s, r) => s + r.rejectedOriginal, 0)
  target('precision on generated schemas at least 0.95 of the original\'s', precisionAfter >= 0.95, `${(precisionAfter * 100).toFixed(1)}%`)
}

/** Section 12: the proxy in front of the catalogue's tools. */
export function printProxy(proxy: ProxyResults, table: Table, target: Target): void {
  console.log(`\n12. flatmcp proxy in front of the catalogue's ${PROXY_TOOLS} tools on a plain SDK 2.x server (zod): per request, straight to the upstream and through the proxy (a call of a union tool, sent clean upstream and with one key as JSON text through the proxy); start-up to the first list; the proxy's memory`)
  table(['transport', 'request', 'direct', 'through the proxy', 'proxy ÷ direct'], proxy.requests.map(r => [r.transport, r.request, fmt(r.direct), fmt(r.proxied), ratio(r.proxied, r.direct)]))
  // From a snapshot the proxy answers from it while its upstream starts: where that is before the
  // upstream alone answers, the proxy adds nothing of its own to wait for, and no ratio of the two is said.
  const own = { snapshot: proxy.startup.snapshot - proxy.startup.direct, compile: proxy.startup.compile - proxy.startup.direct }
  const ahead = own.snapshot <= 0
  table(['start-up to the first tools/list', 'upstream alone', 'proxy, from a snapshot', 'proxy, compiling', 'snapshot: proxy\'s own', 'compiling: proxy\'s own', 'snapshot ÷ compiling (proxy\'s own)'], [['whole process, stdio upstream', fmt(proxy.startup.direct), fmt(proxy.startup.snapshot), fmt(proxy.startup.compile), ahead ? 'none (answers before the upstream)' : fmt(own.snapshot), fmt(own.compile), ahead ? '' : ratio(own.snapshot, own.compile)]])
  table(['heap in use after a full GC (proxy in process)', 'after 500 calls', `after ${PROXY_CALLS.toLocaleString('en')} more`, 'growth'], [['MB', proxy.memory.before.toFixed(1), proxy.memory.after.toFixed(1), (proxy.memory.after - proxy.memory.before).toFixed(2)]])
  const proxyCalls = proxy.requests.filter(r => r.request === 'tools/call')
  const proxyAdded = Math.max(...proxyCalls.map(r => r.proxied - r.direct))
  target('a tools/call through the proxy adds ≤ 1.5 ms (its hop, the repair, the choice)', proxyAdded <= 1.5, `${fmt(proxyAdded)} ms at most`)
  const proxyLists = proxy.requests.filter(r => r.request === 'tools/list')
  target('tools/list through the proxy no slower than straight to the SDK upstream', proxyLists.every(r => r.proxied <= r.direct), proxyLists.map(r => `${r.transport} ${ratio(r.proxied, r.direct)}`).join(', '))
  target('the proxy\'s own start-up from a snapshot faster than compiling', proxy.startup.snapshot < proxy.startup.compile, ahead ? `${ratio(proxy.startup.snapshot, proxy.startup.compile)} of the whole start-up (it answers before the upstream alone: ${fmt(proxy.startup.snapshot)} vs ${fmt(proxy.startup.direct)} ms)` : ratio(own.snapshot, own.compile))
  target(`the proxy keeps nothing per call: heap growth < 1 MB over ${PROXY_CALLS.toLocaleString('en')} calls`, proxy.memory.after - proxy.memory.before < 1, `${(proxy.memory.after - proxy.memory.before).toFixed(2)} MB`)
  table(['tools/call over HTTP through the proxy', 'no caller token', 'a caller token', 'on ÷ off'], [['ms', fmt(proxy.auth.off), fmt(proxy.auth.on), ratio(proxy.auth.on, proxy.auth.off)]])
  target('a caller token costs a call through the proxy ≤ 10% (a digest compared: within the noise)', proxy.auth.on / proxy.auth.off <= 1.1, ratio(proxy.auth.on, proxy.auth.off))
  table(['a call nested in a recursive union, levels', 'chooser (bounded)', 'ajv alone', 'chooser, no union', 'bounded ÷ no union', 'ajv alone ÷ no union'], proxy.chooser.map(r => [r.depth, fmt(r.bounded), fmt(r.ajv), fmt(r.plain), ratio(r.bounded, r.plain), ratio(r.ajv, r.plain)]))
  const deepest = proxy.chooser.at(-1)!
  target('the chooser on a recursive union 20 levels deep within 50 ms (ajv alone takes seconds)', deepest.bounded <= 50, `${fmt(deepest.bounded)} ms; ajv alone ${fmt(deepest.ajv)} ms`)
  table(['40 clients not reading a 9 MB answer each', 'resident before, MB', 'resident at most, MB', 'dropped'], [['proxy over HTTP', proxy.slowReaders.before.toFixed(0), proxy.slowReaders.held.toFixed(0), proxy.slowReaders.dropped]])
  target('40 clients that do not read cannot grow the proxy past 400 MB (answers waiting for readers: 64 MiB)', proxy.slowReaders.held <= 400, `${proxy.slowReaders.held.toFixed(0)} MB, ${proxy.slowReaders.dropped} dropped`)
}

/** Sections 13 and 13b: output schemas and elicitation forms. */
export function printOutputs({ outputs, forms }: { outputs: OutputRow[], forms: FormRow[] }, table: Table, target: Target): void {
  console.log('\n13. output schemas: o200k_base tokens of what the SDK 2.x McpServer lists for a zod output (to a 2025 client) and of what flatmcp lists (a root object, a non-object root wrapped as { result })')
  table(['output', 'SDK 2.x', 'flatmcp', 'flatmcp ÷ SDK', 'wrapped'], outputs.map(row => [row.shape, String(row.sdk), String(row.flat), ratio(row.flat, row.sdk), row.wrapped ? 'yes' : 'no']))
  target('every output schema no larger than the SDK\'s own listing', outputs.every(row => row.flat <= row.sdk), outputs.map(row => `${row.shape} ${ratio(row.flat, row.sdk)}`).join(', '))

  console.log('\n13b. elicitation forms (compileForm): rounds a user answers (a union: its tag, then the variant), the most fields asked, and the o200k_base tokens of every round\'s requestedSchema')
  table(['schema', 'rounds', 'fields asked (at most)', 'tokens of the forms'], forms.map(row => [row.schema, String(row.rounds), String(row.fields), String(row.tokens)]))
}
