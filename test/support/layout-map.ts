// The map of the source docs/development.md draws (its block starting `packages/`), read as the paths
// it names: a word on a line is under the last lone folder on a line indented one step less.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './client'

/** The map's text, as the page prints it. */
export function layoutMap(): string {
  const page = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8')
  const block = /^```\n(packages\/\n[\s\S]*?)^```$/m.exec(page)
  if (!block)
    throw new Error('docs/development.md draws no map of the source (a block starting "packages/")')
  return block[1]!
}

/** Each path the map names, from the repository's root (a folder's with its trailing slash). */
export function layoutPaths(map: string = layoutMap()): string[] {
  const parents: string[] = []
  const named: string[] = []
  for (const line of map.split('\n')) {
    // A word is a path; words further right than this are what the line says of them.
    const match = /^( *)(\S+(?: \S+)*)/.exec(line)
    if (!match || match[1]!.length >= 20)
      continue
    const depth = match[1]!.length / 2
    const words = match[2]!.split(' ')
    for (const word of words)
      named.push(path.posix.join(...parents.slice(0, depth), word))
    parents[depth] = words.length === 1 && words[0]!.endsWith('/') ? words[0]! : ''
  }
  return named
}
