// A JSON (or JSONC) config's servers object edited in its text, so everything else in the file stays
// as it was: a property taken out with its own lines (and the comment lines just above it), one put
// first at the indentation its neighbours have. Where the properties are is jsonc-parser's reading.
import type { Node } from 'jsonc-parser'
import { findNodeAtLocation, parseTree } from 'jsonc-parser'

/** The indentation one level of a JSON text takes (its first indented line's). */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  '
}

/** Where a line starts, and the whitespace it starts with. */
function lineOf(text: string, offset: number): { start: number, indent: string } {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  return { start, indent: /^[ \t]*/.exec(text.slice(start))![0] }
}

/** The servers object of a JSON text, as jsonc-parser reads its tree. */
function serversNode(text: string, key: string): Node {
  return findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [key])!
}

/**
 * The text without one property of the servers object: its own lines (and the comment lines just
 * above it) where it has them, else its text alone; with the comma that joined it to the others
 * (the one before its own where it is last: that comma alone, the rest of its line kept).
 */
export function withoutProperty(text: string, key: string, name: string): string {
  const properties = serversNode(text, key).children ?? []
  const index = properties.findIndex(property => property.children?.[0]?.value === name)
  const property = properties[index]!
  let start = property.offset
  let end = property.offset + property.length
  const comma = /^\s*,/.exec(text.slice(end))
  if (comma)
    end += comma[0].length
  const previous = index > 0 ? properties[index - 1]! : undefined
  const previousEnd = previous ? previous.offset + previous.length : 0
  const joining = !comma && previous ? /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/.exec(text.slice(previousEnd)) : null
  const line = lineOf(text, start)
  const rest = /^[ \t]*(?:\/\/[^\n]*)?\r?\n/.exec(text.slice(end))
  // Its own lines go where it stands alone on them.
  if (text.slice(line.start, start).trim() === '' && rest && (comma || !previous || joining)) {
    start = line.start
    end += rest[0].length
    // The comment lines just above it are its own.
    while (/(^|\n)[ \t]*\/\/[^\n]*\r?\n$/.test(text.slice(0, start)))
      start = text.lastIndexOf('\n', start - 2) + 1
    const out = text.slice(0, start) + text.slice(end)
    const at = joining ? previousEnd + joining[0].length - 1 : -1
    return joining ? out.slice(0, at) + out.slice(at + 1) : out
  }
  if (!comma && previous)
    start = previousEnd
  return text.slice(0, start) + text.slice(end)
}

/** The text with one property first in the servers object, indented as the properties there are. */
export function withFirstProperty(text: string, key: string, name: string, value: unknown, eol: string): string {
  const object = serversNode(text, key)
  const first = object.children?.[0]
  const unit = indentUnit(text)
  const outer = lineOf(text, object.offset).indent
  const indent = first ? lineOf(text, first.offset).indent : `${outer}${unit}`
  const body = JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`)
  const open = object.offset + 1
  // An empty object on its own lines keeps its closing line; `{}` gets one.
  const closed = first ? ',' : /^[ \t]*\r?\n/.test(text.slice(open)) ? '' : `${eol}${outer}`
  return `${text.slice(0, open)}${eol}${indent}${JSON.stringify(name)}: ${body}${closed}${text.slice(open)}`
}

/** The text with the servers `moved` taken out, and `name`'s entry first in their object. */
export function rewriteJson(text: string, key: string, moved: readonly string[], name: string, entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const without = moved.reduce((out, server) => withoutProperty(out, key, server), text)
  return withFirstProperty(without, key, name, entry, eol)
}
