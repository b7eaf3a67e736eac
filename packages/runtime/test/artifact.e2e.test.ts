// The `*.mcp.json` format's one home: the reader every consumer uses (the runtime, the proxy, the probe,
// the command) refuses what a client would refuse, alike for module artifacts and snapshots; the
// writer's text round-trips through it; the content hash the runtime takes is the one the build wrote.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { compileTool } from '@flatmcp/core'
import { defineTool, registerArtifact } from '@flatmcp/runtime'
import { readSnapshot } from '@flatmcp/runtime/proxy'
import { artifactIsStale, artifactText, contentHash, isSnapshot, moduleArtifact, readArtifact, toPrecomputed, toSnapshot } from '@flatmcp/runtime/artifact'
import { planFeatures, readingsOf, repairsOf } from '@flatmcp/runtime/coerce'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fixtureProject } from '../../../test/support/fixture-project'
import { ROOT } from '../../../test/support/client'
import { forgetSaidOnce } from '../src/util/log'
import { SLOW } from '../../../test/support/timeouts'

const send = defineTool({
  name: 'send',
  input: z.discriminatedUnion('kind', [z.object({ kind: z.literal('text'), text: z.string() }), z.object({ kind: z.literal('media'), urls: z.array(z.object({ id: z.string() })) })]),
  handler: () => 'ok',
})
const precomputed = toPrecomputed(compileTool(send), [compileTool(send, { profile: 'openai-strict' })])

function moduleOf(files: string[], hash: string): ReturnType<typeof moduleArtifact> {
  return moduleArtifact({
    generator: { name: 'test', version: '1' },
    module: 'src/send.tools.ts',
    hash,
    files,
    options: { profile: 'portable', profiles: ['openai-strict'], coercion: true, extend: null },
    tools: [{ export: 'send', precomputed, tokens: { original: 1, portable: 1 } }],
    flats: [],
    forms: [],
    diagnostics: [],
  })
}

describe('the artifact reader', () => {
  it('reads back what the writer wrote, a module\'s artifact and a snapshot alike', () => {
    const module = readArtifact(artifactText(moduleOf([], 'sha256:0')), { provenance: true })
    expect(module.kind).toBe('module')
    expect(module.tools).toEqual([precomputed])
    const upstream = { name: 'send', inputSchema: { type: 'object' as const } }
    const snapshot = toSnapshot([{ name: 'send', served: 'compiled', precomputed, diagnostics: [], upstream: { digest: 'sha256:1', tool: upstream } }], { generator: 'test@1', upstream: { name: 'up', version: '1' }, preset: 'json-schema', profiles: ['openai-strict'] })
    expect(isSnapshot(snapshot)).toBe(true)
    const read = readArtifact(artifactText(snapshot))
    expect(read.kind).toBe('snapshot')
    expect(read.kind === 'snapshot' && read.tools[0]).toMatchObject({ name: 'send', served: 'compiled', precomputed, upstream: { digest: 'sha256:1' } })
    // Text and parsed JSON are read alike; text that is not JSON says so.
    expect(() => readArtifact('{"tools": [')).toThrow(/^not valid JSON \(/)
  })

  it('refuses, in a snapshot as in a module\'s artifact, what a client would refuse on every tools/list', () => {
    const upstream = { name: 'send', inputSchema: { type: 'object' as const } }
    const good = toSnapshot([{ name: 'send', served: 'compiled', precomputed, diagnostics: [], upstream: { digest: 'sha256:1', tool: upstream } }], { generator: 'test@1', upstream: { name: 'up', version: '1' }, preset: 'json-schema', profiles: [] })
    for (const artifact of [good, moduleOf([], 'sha256:0')]) {
      const broken = structuredClone(artifact) as { tools: { inputSchema: Record<string, unknown> }[] }
      broken.tools[0]!.inputSchema.properties = 5
      expect(() => readArtifact(broken)).toThrow('tool "send": its inputSchema.properties is not an object')
      const profiled = structuredClone(artifact) as { runtime: Record<string, { profiles?: unknown }> }
      profiled.runtime.send!.profiles = { gemini: { inputSchema: { type: 'object', required: [1] }, coercion: {} } }
      expect(() => readArtifact(profiled)).toThrow('tool "send", profile "gemini": its inputSchema.required is not a list of names')
    }
    expect(() => readArtifact({ tools: [] }, { provenance: true })).toThrow('not a flatmcp artifact: "generator" is missing')
    expect(() => readArtifact({ tools: [], runtime: {} })).not.toThrow()
    // Each consumer takes the kind it serves: a server a module's artifact, a proxy a snapshot.
    expect(() => registerArtifact(good)).toThrow(/registerArtifact: this is a snapshot of an upstream server/)
    expect(() => readSnapshot(moduleOf([], 'sha256:0'))).toThrow(/not a flatmcp snapshot: .*this is a module's artifact/)
  })
})

describe('the content hash', () => {
  it('is the one the build takes, so the runtime tells a current artifact from a stale one', async () => {
    const project = fixtureProject('artifact-hash', { 'src/a.tools.ts': `import { z } from 'zod'\nimport { note } from './note'\nexport const a = { name: 'a', description: note, input: z.object({ n: z.number() }), handler: () => 1 }\n`, 'src/note.ts': `export const note = 'A tool.'\n` })
    const root = project.root
    try {
      const { buildArtifacts } = await import('flatmcp')
      const [file] = await buildArtifacts({ patterns: ['src/a.tools.ts'], root, out: 'dist' })
      const artifact = JSON.parse(readFileSync(file!, 'utf8')) as { hash: string, files: string[], module: string }
      const read = (name: string): Uint8Array | undefined => {
        try {
          return readFileSync(path.join(root, name))
        }
        catch {
          return undefined
        }
      }
      expect(artifact.files).toEqual(['src/a.tools.ts', 'src/note.ts'])
      expect(contentHash(artifact.files, { read, sha256: () => createHash('sha256') })).toBe(artifact.hash)
      expect(artifactIsStale(artifact, root)).toBe(false)
      project.write('src/note.ts', `export const note = 'Another tool.'\n`)
      expect(contentHash(artifact.files, { read, sha256: () => createHash('sha256') })).not.toBe(artifact.hash)
      expect(artifactIsStale(artifact, root)).toBe(true)
    }
    finally {
      project.remove()
    }
  }, SLOW)

  it('reads only regular files of a source\'s size, and outside the project only modules\' files: a FIFO (which would hang), /dev/zero (which never ends), another file elsewhere are not read, said once', () => {
    const project = fixtureProject('artifact-files', { 'src/a.tools.ts': 'export {}\n' })
    try {
      execFileSync('mkfifo', [path.join(project.root, 'src/pipe')])
      const lines: string[] = []
      const write = process.stderr.write
      process.stderr.write = ((line: string) => lines.push(line)) as never
      const staleWith = (file: string): boolean | undefined => {
        forgetSaidOnce()
        return artifactIsStale({ module: 'src/a.tools.ts', hash: 'sha256:x', files: ['src/a.tools.ts', file] }, project.root)
      }
      const verdicts: (boolean | undefined)[] = []
      try {
        // Each returns at once (the FIFO was read before: it hung).
        for (const file of ['src/pipe', '/dev/zero', '../../../../../../../../etc/passwd', 'src/missing.ts', path.relative(project.root, path.join(ROOT, 'packages/runtime/src/index.ts'))])
          verdicts.push(staleWith(file))
      }
      finally {
        process.stderr.write = write
      }
      // Refused: cannot tell (undefined), said; a missing file or a linked package's module: told (the hash is not theirs).
      expect(verdicts).toEqual([undefined, undefined, undefined, true, true])
      expect(lines).toEqual([
        expect.stringMatching(/names "src\/pipe", which is not a regular file: it is not read, so whether the artifact is current is not checked here/),
        expect.stringMatching(/names "\/dev\/zero", which is outside the project, and not a module's file/),
        expect.stringMatching(/names "(\.\.\/)+etc\/passwd", which is outside the project, and not a module's file/),
      ])
    }
    finally {
      project.remove()
    }
  })
})

describe('what a plan does, read from its structure', () => {
  it('is not fooled by a key that bears a feature\'s name', () => {
    // A tool whose own keys are named like plan fields: its plan parses JSON text there, and drops no
    // nulls and repairs no scalars, so one reading is tried (its JSON text names both).
    const named = compileTool(defineTool({ name: 'named', input: z.object({ keepNull: z.object({ a: z.string() }), scalars: z.array(z.string()) }), handler: () => 1 }))
    expect(JSON.stringify(named.coercion)).toContain('"keepNull"')
    expect(JSON.stringify(named.coercion)).toContain('"scalars"')
    expect(planFeatures(named.coercion)).toEqual({ parse: true, keepNull: false, nullIsAbsent: false, unwrap: false, scalars: false })
    expect(readingsOf(named.coercion)).toEqual(['plan'])
    expect(repairsOf(named)).toEqual({ first: true, scalars: false })
    const plain = compileTool(defineTool({ name: 'plain', input: z.object({ a: z.string() }), handler: () => 1 }))
    expect(repairsOf(plain)).toEqual({ first: false, scalars: false })
    // A strict profile's plan drops nulls and parses JSON text: every reading is tried.
    const strict = compileTool(send, { profile: 'openai-strict' })
    expect(planFeatures(strict.coercion)).toMatchObject({ keepNull: true })
    expect(readingsOf(strict.coercion)).toEqual(['plan', 'planned', 'everywhere'])
    expect(repairsOf(compileTool(send)).first).toBe(true)
  })
})
