// A client's config text as a dry run shows it: each string value at a secret path (the runtime's
// `isSecretPath`: a credential's key, anything under `env` or `headers`) and a credential flag's value
// in a command line (`isCommandLine`, `redactedArgs`) redacted in place, every other byte as it was,
// so a diff of two redacted texts reads as the diff of the texts.
import type { ConfigFormat } from './clients'
import { isCommandLine, isSecretPath, redactedArgs, redactedString } from '@flatmcp/runtime/proxy'
import { visit } from 'jsonc-parser'

interface Edit { offset: number, length: number, text: string }
/** A string in a config's text: where it is, its key path and its value. */
interface Literal { path: (string | number)[], offset: number, length: number, value: string }

/** The edits that redact a text's strings: each at a secret path, and each command line's credentials. */
function editsOf(literals: readonly Literal[]): Edit[] {
  const edits: Edit[] = []
  const lists = new Map<string, Literal[]>()
  for (const literal of literals) {
    const list = JSON.stringify(literal.path.slice(0, -1))
    if (typeof literal.path.at(-1) === 'number')
      lists.set(list, [...lists.get(list) ?? [], literal])
    const shown = redactedString(literal.value)
    if (isSecretPath(literal.path) && shown !== literal.value)
      edits.push({ offset: literal.offset, length: literal.length, text: JSON.stringify(shown) })
  }
  for (const [list, items] of lists) {
    const values = items.map(item => item.value)
    if (!isCommandLine(values, JSON.parse(list) as (string | number)[]))
      continue
    const shown = redactedArgs(values)
    items.forEach((item, i) => shown[i] !== item.value && !isSecretPath(item.path) && edits.push({ offset: item.offset, length: item.length, text: JSON.stringify(shown[i]) }))
  }
  return edits
}

function applied(text: string, edits: Edit[]): string {
  return edits.sort((a, b) => b.offset - a.offset).reduce((out, edit) => out.slice(0, edit.offset) + edit.text + out.slice(edit.offset + edit.length), text)
}

/** The text with its secret values redacted. */
export function redactedText(text: string, format: ConfigFormat): string {
  return format === 'json' ? redactedJson(text) : redactedToml(text)
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

function redactedToml(text: string): string {
  const scanner = new TomlScanner(text)
  try {
    scanner.scan()
  }
  catch {
    // Read no further than it could: every string after that point is redacted, to be sure.
    return applied(text.slice(0, scanner.at), editsOf(scanner.literals)) + text.slice(scanner.at).replace(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, '"[redacted]"')
  }
  return applied(text, editsOf(scanner.literals))
}
