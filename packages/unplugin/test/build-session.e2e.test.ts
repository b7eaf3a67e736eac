// One build, as the plugin and `flatmcp build` both drive it (createBuild), on modules written inline:
// what a module yields, tool names claimed across the build, warnings against failOn, and the summary
// and the warning a build ends with.
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureProject } from '../../../test/support/fixture-project'
import { BuildError, createBuild } from '../src/core/pipeline/session'
import { resolveOptions } from '../src/core/options'

const tool = (name: string, input: string): string => `import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'
export const ${name} = defineTool({ name: '${name}', description: 'A tool.', input: ${input}, handler: async () => 'ok' })
`
const project = fixtureProject('build-session', {
  'src/send.tools.ts': tool('send', `z.object({ media: z.union([z.object({ id: z.string() }), z.array(z.string())]) })`),
  'src/plain.tools.ts': tool('plain', 'z.object({ q: z.string() })'),
  'src/again.tools.ts': tool('send', 'z.object({ q: z.string() })'),
  'src/widened.tools.ts': tool('widened', 'z.object({ data: z.unknown() })'),
})
afterAll(() => project.remove())
const file = (name: string): string => path.join(project.root, 'src', name)
const build = (options: Parameters<typeof resolveOptions>[0] = {}) => createBuild(resolveOptions({ root: project.root, cacheDir: path.join(project.root, '.cache'), ...options }))

describe('createBuild', () => {
  it('compiles a module into its artifact, and ends with a summary of what it built', async () => {
    const session = build()
    session.begin()
    const compiled = await session.compile(file('send.tools.ts'))
    expect(compiled.path).toBe('src/send.tools.ts')
    expect(JSON.parse(compiled.artifact!.text).tools.map((t: { name: string }) => t.name)).toEqual(['send'])
    expect([...session.artifacts().keys()]).toEqual(['src/send.tools.ts'])
    expect(session.end().summary).toMatch(/^flatmcp: 1 module, 1 tool, 1 artifact/)
  })

  it('refuses a tool name two modules claim, as a finding (exit 1), and says nothing more of that build', async () => {
    const session = build()
    session.begin()
    await session.compile(file('send.tools.ts'))
    const error = await session.compile(file('again.tools.ts')).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(BuildError)
    expect((error as BuildError).exitCode).toBe(1)
    expect((error as BuildError).message).toContain('send')
    expect(session.end()).toEqual({})
  })

  it('says warnings, fails on them only where failOn is warning, and ends with a warning where nothing matched', async () => {
    const lenient = build()
    lenient.begin()
    const { warnings } = await lenient.compile(file('widened.tools.ts'))
    expect(warnings.length).toBeGreaterThan(0)
    expect(warnings[0]).toContain('src/widened.tools.ts')
    const strict = build({ failOn: 'warning' })
    strict.begin()
    await expect(strict.compile(file('widened.tools.ts'))).rejects.toMatchObject({ name: 'BuildError', exitCode: 1 })
    const empty = build()
    empty.begin()
    expect(empty.end().warning).toMatch(/^no module matched the plugin's `include`/)
    await expect(async () => {
      const failing = build({ failOn: 'warning' })
      failing.begin()
      failing.end()
    }).rejects.toBeInstanceOf(BuildError)
  })
})
