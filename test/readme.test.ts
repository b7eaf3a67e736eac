// The README's configuration and serving snippets are the example's files, whole: the example is built
// and run by the other tests, so each snippet shown is one that works.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { readmeSnippet, readmeSnippets } from './support/readme'

const EXAMPLE_FILES = ['vite.config.ts', 'rollup.config.mjs', 'rolldown.config.mjs', 'esbuild.config.mjs', 'webpack.config.mjs', 'rspack.config.mjs', 'src/tools.ts', 'src/stdio.ts', 'src/stdio-v2.ts', 'src/flat.tools.ts', 'src/flat-server.ts', 'src/flat-v2.ts', 'src/flat-tmcp.ts']

describe('README snippets', () => {
  it.each(EXAMPLE_FILES)('%s is shown as examples/chat-server has it', (file) => {
    expect(readmeSnippet(file)).toBe(readFileSync(path.join(ROOT, 'examples/chat-server', file), 'utf8'))
  })

  it('names no file the example does not have', () => {
    expect([...readmeSnippets().keys()].filter(file => !EXAMPLE_FILES.includes(file))).toEqual([])
  })
})
