// A client's config text as a dry run shows it: each string value at a secret path (the runtime's
// `isSecretPath`: a credential's key, anything under `env` or `headers`) and a credential flag's value
// in a command line (`isCommandLine`, `redactedArgs`) redacted in place, every other byte as it was,
// so a diff of two redacted texts reads as the diff of the texts.
import type { ConfigFormat } from './clients'
import { inlineRedacted, isCommandLine, REDACTED, isSecretPath, redactedArgs, redactedString } from '@flatmcp/runtime/proxy'
import { visit } from 'jsonc-parser'
import { isPair, isScalar, isSeq, parseDocument, visit as visitYaml } from 'yaml'
import { splitBom } from './rewrite'

interface Edit { offset: number, length: number, text: string }
/** A string in a config's text: where it is, its key path and its value. */
interface Literal { path: (string | number)[], offset: number, length: number, value: string }

/**
 * The edits that redact a text's strings: each at a secret path, each credential a string holds
 * (`inlineRedacted`), and each command line's credentials; one edit a string at most.
 */
function editsOf(literals: readonly Literal[]): Edit[] {
  const edits = new Map<number, Edit>()
  const lists = new Map<string, Literal[]>()
  const edit = (literal: Literal, shown: string): void => {
    if (shown !== literal.value)
      edits.set(literal.offset, { offset: literal.offset, length: literal.length, text: JSON.stringify(shown) })
  }
  for (const literal of literals) {
    if (typeof literal.path.at(-1) === 'number') {
      const list = JSON.stringify(literal.path.slice(0, -1))
      const items = lists.get(list)
      if (items)
        items.push(literal)
      else
        lists.set(list, [literal])
    }
    edit(literal, isSecretPath(literal.path) ? redactedString(literal.value) : inlineRedacted(literal.value))
  }
  for (const [list, items] of lists) {
    const values = items.map(item => item.value)
    if (!isCommandLine(values, JSON.parse(list) as (string | number)[]))
      continue
    const shown = redactedArgs(values)
    items.forEach((item, i) => !isSecretPath(item.path) && edit(item, shown[i]!))
  }
  return [...edits.values()]
}

/** The text with each edit made, in one pass (many edits cost no more than one each). */
function applied(text: string, edits: Edit[]): string {
  const parts: string[] = []
  let at = 0
  for (const edit of edits.sort((a, b) => a.offset - b.offset)) {
    parts.push(text.slice(at, edit.offset), edit.text)
    at = edit.offset + edit.length
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/** The text with its secret values redacted. */
export function redactedText(read: string, format: ConfigFormat): string {
  const [bom, text] = splitBom(read)
  return `${bom}${format === 'json' ? redactedJson(text) : format === 'yaml' ? redactedYaml(text) : redactedToml(text)}`
}

/** A YAML text's strings redacted, each shown as a JSON string (which YAML reads as its double-quoted one). */
function redactedYaml(text: string): string {
  const literals: Literal[] = []
  visitYaml(parseDocument(text), {
    Scalar(key, node, ancestors) {
      if (key === 'key' || typeof node.value !== 'string' || !node.range)
        return
      const path: (string | number)[] = []
      ancestors.forEach((ancestor, i) => {
        const child = ancestors[i + 1] ?? node
        if (isPair(ancestor) && isScalar(ancestor.key))
          path.push(String(ancestor.key.value))
        else if (isSeq(ancestor))
          path.push(ancestor.items.indexOf(child as never))
      })
      literals.push({ path, offset: node.range[0], length: node.range[1] - node.range[0], value: node.value })
    },
  })
  return applied(text, editsOf(literals))
}

function redactedJson(text: string): string {
  const literals: Literal[] = []
  visit(text, {
    onLiteralValue: (value: unknown, offset, length, _line, _character, path) => {
      if (typeof value === 'string')
        literals.push({ path: path(), offset, length, value })
    },
  }, { allowTrailingComma: true, disallowComments: false })
  return applied(text, editsOf(literals))
}

/** A TOML text read as far as where its strings are and the key path each is at. */
class TomlScanner {
  at = 0
  table: string[] = []
  readonly literals: Literal[] = []
  constructor(readonly text: string) {}

  private blank(newlines: boolean): void {
    for (;;) {
      const skipped = (newlines ? /^(?:\s|#[^\n]*)+/ : /^[ \t]+/).exec(this.text.slice(this.at))
      if (!skipped)
        return
      this.at += skipped[0].length
    }
  }

  /** A dotted key (bare or quoted parts), up to `stop`. */
  private key(): string[] {
    const parts: string[] = []
    for (;;) {
      this.blank(false)
      const part = /^(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([\w-]+))/.exec(this.text.slice(this.at))
      if (!part)
        throw new Error(`no key at ${this.at}`)
      parts.push(part[1] ?? part[2] ?? part[3]!)
      this.at += part[0].length
      this.blank(false)
      if (this.text[this.at] !== '.')
        return parts
      this.at++
    }
  }

  private value(path: (string | number)[]): void {
    this.blank(false)
    const rest = this.text.slice(this.at)
    const string = /^(?:"""[\s\S]*?"""(?!")|'''[\s\S]*?'''(?!')|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')/.exec(rest)
    if (string) {
      const value = string[0].replace(/^("""|'''|"|')([\s\S]*)\1$/, '$2')
      this.literals.push({ path, offset: this.at, length: string[0].length, value })
      this.at += string[0].length
      return
    }
    if (rest[0] === '{' || rest[0] === '[') {
      const close = rest[0] === '{' ? '}' : ']'
      this.at++
      for (let i = 0; ; i++) {
        this.blank(close === ']')
        if (this.text[this.at] === close)
          break
        if (close === '}') {
          const key = this.key()
          this.expect('=')
          this.value([...path, ...key])
        }
        else {
          this.value([...path, i])
        }
        this.blank(close === ']')
        if (this.text[this.at] === ',')
          this.at++
      }
      this.at++
      return
    }
    const scalar = /^[^,\]}\s#]+/.exec(rest)
    if (!scalar)
      throw new Error(`no value at ${this.at}`)
    this.at += scalar[0].length
  }

  private expect(char: string): void {
    this.blank(false)
    if (this.text[this.at] !== char)
      throw new Error(`no ${char} at ${this.at}`)
    this.at++
  }

  scan(): void {
    for (;;) {
      this.blank(true)
      if (this.at >= this.text.length)
        return
      if (this.text[this.at] === '[') {
        const array = this.text.startsWith('[[', this.at)
        this.at += array ? 2 : 1
        this.table = this.key()
        this.expect(']')
        if (array)
          this.expect(']')
        continue
      }
      const key = this.key()
      this.expect('=')
      this.value([...this.table, ...key])
    }
  }
}

/**
 * Lines of TOML past where they could be read, as shown: a table's header and a blank line as they
 * are, a key's value redacted, any other line (a multi-line string's, a comment) wholly.
 */
function redactedRest(text: string): string {
  return text.replace(/^([ \t]*)(.*?)(\r?)$/gm, (_whole, indent: string, line: string, cr: string) => {
    if (line === '' || /^\[\[?[\w.\-"' ]+\]\]?$/.test(line.trim()))
      return `${indent}${line}${cr}`
    const key = /^([\w.\-"' ]+?)\s*=/.exec(line)
    return `${indent}${key ? `${key[1]} = "${REDACTED}"` : `# ${REDACTED}`}${cr}`
  })
}

function redactedToml(text: string): string {
  const scanner = new TomlScanner(text)
  try {
    scanner.scan()
  }
  catch {
    // Read no further than it could: every value after that point is redacted, to be sure.
    const line = text.lastIndexOf('\n', scanner.at - 1) + 1
    return applied(text.slice(0, line), editsOf(scanner.literals.filter(literal => literal.offset + literal.length <= line))) + redactedRest(text.slice(line))
  }
  return applied(text, editsOf(scanner.literals))
}
