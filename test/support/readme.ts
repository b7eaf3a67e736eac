import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './client'

/** The README and the pages under `docs/` it links to, by path from the root. */
export function docPages(): Map<string, string> {
  const pages = new Map([['README.md', readFileSync(path.join(ROOT, 'README.md'), 'utf8')]])
  for (const name of readdirSync(path.join(ROOT, 'docs')).filter(name => name.endsWith('.md')).sort())
    pages.set(`docs/${name}`, readFileSync(path.join(ROOT, 'docs', name), 'utf8'))
  return pages
}

/** The pages' fenced code blocks, each with the file it names on its first line (`// vite.config.ts: …`). */
export function readmeSnippets(): Map<string, string> {
  const snippets = new Map<string, string>()
  for (const text of docPages().values()) {
    for (const [, body] of text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
      const named = /^\/\/ ([\w./-]+):/.exec(body!)
      if (named)
        snippets.set(named[1]!, body!)
    }
  }
  return snippets
}

/** The snippet for a file; throws when no page has one. */
export function readmeSnippet(file: string): string {
  const snippet = readmeSnippets().get(file)
  if (snippet === undefined)
    throw new Error(`the README shows no snippet named ${file}`)
  return snippet
}

/** GitHub's anchor for a heading: lower case, punctuation gone, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')
}

/**
 * The files the README's Quick start has the reader write, by path: its indented code blocks whose
 * first line is `// <path>` and nothing more, dedented.
 */
export function quickStartFiles(): Record<string, string> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1))
  const files: Record<string, string> = {}
  for (const [, indent, body] of section.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)) {
    const text = body!.split('\n').map(line => line.slice(indent!.length)).join('\n')
    const named = /^\/\/ ([\w./-]+)\n/.exec(text)
    if (named)
      files[named[1]!] = text
  }
  return files
}
