import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './client'

/** The README, the pages under `docs/` and each package's README, by path from the root. */
export function docPages(): Map<string, string> {
  const pages = new Map([['README.md', readFileSync(path.join(ROOT, 'README.md'), 'utf8')]])
  for (const name of readdirSync(path.join(ROOT, 'docs')).filter(name => name.endsWith('.md')).sort())
    pages.set(`docs/${name}`, readFileSync(path.join(ROOT, 'docs', name), 'utf8'))
  for (const name of readdirSync(path.join(ROOT, 'packages')).sort())
    pages.set(`packages/${name}/README.md`, readFileSync(path.join(ROOT, 'packages', name, 'README.md'), 'utf8'))
  return pages
}

/** A fenced code block of a page: where it is, its language tag and its text, dedented. */
export interface DocBlock {
  page: string
  line: number
  lang: string
  text: string
}

/** Every fenced code block of every page, in page order. */
export function docBlocks(): DocBlock[] {
  const blocks: DocBlock[] = []
  for (const [page, text] of docPages()) {
    for (const match of text.matchAll(/^( *)```(\S*)\n([\s\S]*?)^\1```$/gm)) {
      const [, indent, lang, body] = match as unknown as [string, string, string, string]
      const line = text.slice(0, match.index).split('\n').length
      blocks.push({ page, line, lang, text: body.split('\n').map(l => l.slice(indent.length)).join('\n') })
    }
  }
  return blocks
}

/**
 * A shell command line as words: quotes and backslashes read, `$NAME` from `env`, a trailing
 * `# comment` dropped. Enough for the command lines the docs show, not a shell.
 */
function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | '\'' | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote === '\'') {
      if (c === quote)
        quote = undefined
      else
        word += c
    }
    else if (c === '"' || c === '\'') {
      if (quote === c)
        quote = undefined
      else if (quote === undefined)
        quote = c
      else
        word = `${word ?? ''}${c}`
      word ??= ''
    }
    else if (c === '$' && /[A-Z_]/.test(line[i + 1] ?? '')) {
      const name = /^[A-Z_]\w*/.exec(line.slice(i + 1))![0]
      word = `${word ?? ''}${env[name] ?? ''}`
      i += name.length
    }
    else if (quote === undefined && /\s/.test(c)) {
      if (word !== undefined)
        words.push(word)
      word = undefined
    }
    else if (quote === undefined && c === '#' && word === undefined) {
      break
    }
    else {
      word = `${word ?? ''}${c === '\\' && quote === undefined ? line[++i] ?? '' : c}`
    }
  }
  if (word !== undefined)
    words.push(word)
  return words
}

/** A command of a sh block: the line it is on, its words, and the variables it runs with. */
export interface ShellCommand {
  line: string
  words: string[]
  env: Record<string, string>
}

/**
 * A sh block's commands, as a shell would run them: continuation lines joined, comments gone, `&&`
 * splitting a line, `NAME=value` before a command set for it alone, `export NAME=value` for the
 * commands after it (and not itself a command).
 */
export function shellCommands(text: string, env: Record<string, string> = {}): ShellCommand[] {
  const exported = { ...env }
  const commands: ShellCommand[] = []
  const assign = (into: Record<string, string>, assignment: string): void => {
    const [name, ...value] = assignment.split('=')
    into[name!] = value.join('=')
  }
  for (const line of text.replace(/\\\n\s*/g, ' ').split('\n').filter(l => l.trim() !== '' && !l.trim().startsWith('#'))) {
    const words = shellWords(line, exported)
    for (let start = 0; start < words.length;) {
      const end = words.indexOf('&&', start) < 0 ? words.length : words.indexOf('&&', start)
      let command = words.slice(start, end)
      start = end + 1
      const scoped = { ...exported }
      for (; /^[A-Z_]\w*=/.test(command[0] ?? ''); command = command.slice(1))
        assign(scoped, command[0]!)
      if (command[0] === 'export')
        command.slice(1).forEach(assignment => assign(exported, assignment))
      else
        commands.push({ line: line.trim(), words: command, env: scoped })
    }
  }
  return commands
}

/** The pages' fenced code blocks, each with the file it names on its first line (`// vite.config.ts: …`). */
export function readmeSnippets(): Map<string, string> {
  const snippets = new Map<string, string>()
  for (const { text } of docBlocks()) {
    const named = /^\/\/ ([\w./-]+):/.exec(text)
    if (named)
      snippets.set(named[1]!, text)
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

/** The README's Quick start section: its text, and its code blocks. */
function quickStart(): { text: string, blocks: DocBlock[] } {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const lines = readme.split('\n')
  const first = lines.indexOf('## Quick start (in your own project)')
  const last = lines.findIndex((line, i) => i > first && line.startsWith('## '))
  return {
    text: lines.slice(first, last).join('\n'),
    blocks: docBlocks().filter(block => block.page === 'README.md' && block.line > first && block.line <= last),
  }
}

/** The `npm i` lines of the README's Quick start. */
export function quickStartInstallLines(): string[] {
  return [...quickStart().text.matchAll(/^npm i .*$/gm)].map(m => m[0])
}

/** The files the README's Quick start has the reader write, by path: its blocks whose first line is `// <path>` and nothing more. */
export function quickStartFiles(): Record<string, string> {
  const files: Record<string, string> = {}
  for (const { text } of quickStart().blocks) {
    const named = /^\/\/ ([\w./-]+)\n/.exec(text)
    if (named)
      files[named[1]!] = text
  }
  return files
}
