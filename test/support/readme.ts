import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './client'

/** The README's fenced code blocks, each with the file it names on its first line (`// vite.config.ts: …`). */
export function readmeSnippets(): Map<string, string> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const snippets = new Map<string, string>()
  for (const [, body] of readme.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
    const named = /^\/\/ ([\w./-]+):/.exec(body!)
    if (named)
      snippets.set(named[1]!, body!)
  }
  return snippets
}

/** The README's snippet for a file; throws when the README has none. */
export function readmeSnippet(file: string): string {
  const snippet = readmeSnippets().get(file)
  if (snippet === undefined)
    throw new Error(`the README shows no snippet named ${file}`)
  return snippet
}
