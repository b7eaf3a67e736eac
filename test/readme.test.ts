// The README's and docs' configuration and serving snippets are the examples' files, whole: the
// examples are built and run by the other tests, so each snippet shown is one that works.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { docPages, headingAnchor, readmeSnippet, readmeSnippets } from './support/readme'

/** Each snippet the pages show, by the name on its first line, and the example it comes from. */
const EXAMPLE_FILES: Record<string, string> = {
  ...Object.fromEntries(['vite.config.ts', 'rollup.config.mjs', 'rolldown.config.mjs', 'esbuild.config.mjs', 'webpack.config.mjs', 'rspack.config.mjs', 'src/tools.ts', 'src/stdio.ts', 'src/stdio-v2.ts', 'src/flat.tools.ts', 'src/flat-server.ts', 'src/flat-v2.ts', 'src/flat-tmcp.ts', 'src/flat-fastmcp.ts', 'src/flat-mcp-handler.ts'].map(file => [file, 'examples/chat-server'])),
  'src/worker.ts': 'examples/proxy-worker',
}

describe('README snippets', () => {
  it.each(Object.entries(EXAMPLE_FILES))('%s is shown as %s has it', (file, example) => {
    expect(readmeSnippet(file)).toBe(readFileSync(path.join(ROOT, example, file), 'utf8'))
  })

  it('names no file the examples do not have', () => {
    expect([...readmeSnippets().keys()].filter(file => !(file in EXAMPLE_FILES))).toEqual([])
  })
})

describe('README and docs links', () => {
  const pages = docPages()
  const anchors = new Map([...pages].map(([page, text]) => [page, new Set([...text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#+ (.+)$/gm)].map(m => headingAnchor(m[1]!)))]))
  const links = [...pages].flatMap(([page, text]) => [...text.matchAll(/\]\((?!https?:)([^)\s]*)\)/g)].map(m => ({ page, link: m[1]! })))

  it('finds the links it checks', () => {
    expect(links.filter(l => l.link.startsWith('docs/')).length).toBeGreaterThan(2)
  })

  it.each(links.map(l => [l.page, l.link] as const))('%s: %s leads to a page and a heading it has', (page, link) => {
    const [file, anchor] = link.split('#') as [string, string | undefined]
    const target = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
    expect(existsSync(path.join(ROOT, target)), `${target} exists`).toBe(true)
    if (anchor !== undefined)
      expect([...(anchors.get(target) ?? [])], `${target} has a heading for #${anchor}`).toContain(anchor)
  })
})
