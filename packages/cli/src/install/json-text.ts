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

/** A removed property's place: its own lines (and the comment lines just above it) where it stands alone on them, else its text; with its comma. */
function placeOf(text: string, property: Node): [number, number] {
  let start = property.offset
  let end = property.offset + property.length
  const comma = match(/\s*,/y, text, end)
  if (comma)
    end += comma.length
  const line = lineOf(text, start)
  const rest = match(/[ \t]*(?:\/\/[^\n]*)?\r?\n/y, text, end)
  if (text.slice(line.start, start).trim() !== '' || rest === undefined)
    return [start, end]
  start = line.start
  // The comment lines just above it are its own.
  for (let above = text.lastIndexOf('\n', start - 2) + 1; start > 0 && /^[ \t]*\/\/[^\n]*\r?\n$/.test(text.slice(above, start)); above = text.lastIndexOf('\n', start - 2) + 1)
    start = above
  return [start, end + rest.length]
}

/** What a sticky pattern matches at `at`, or undefined. */
function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at
  return pattern.exec(text)?.[0]
}

/**
 * The text without the properties `names` of the servers object, in one pass: each with its own
 * lines and comma (placeOf), and where the last ones go, the comma that joined them to the last one
 * kept.
 */
export function withoutProperties(text: string, key: string, names: ReadonlySet<string>): string {
  const properties = serversNode(text, key).children ?? []
  const removed = properties.map(property => names.has(property.children?.[0]?.value as string))
  const lastKept = removed.lastIndexOf(false)
  const cuts = properties.flatMap((property, i) => removed[i] ? [placeOf(text, property)] : [])
  const kept = properties[lastKept]
  if (kept && lastKept < properties.length - 1) {
    const joining = match(/(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/y, text, kept.offset + kept.length)
    if (joining !== undefined) {
      const at = kept.offset + kept.length + joining.length - 1
      cuts.push([at, at + 1])
    }
  }
  const parts: string[] = []
  let at = 0
  for (const [start, end] of cuts.sort((a, b) => a[0] - b[0])) {
    parts.push(text.slice(at, Math.max(at, start)))
    at = Math.max(at, end)
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/** The text with properties first in the servers object, in their order, indented as the properties there are. */
export function withFirstProperties(text: string, key: string, entries: readonly (readonly [string, unknown])[], eol: string): string {
  if (entries.length === 0)
    return text
  const object = serversNode(text, key)
  const first = object.children?.[0]
  const unit = indentUnit(text)
  const outer = lineOf(text, object.offset).indent
  const indent = first ? lineOf(text, first.offset).indent : `${outer}${unit}`
  const body = entries.map(([name, value]) => `${eol}${indent}${JSON.stringify(name)}: ${JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`)}`).join(',')
  const open = object.offset + 1
  // An empty object on its own lines keeps its closing line; `{}` gets one.
  const closed = first ? ',' : /^[ \t]*\r?\n/.test(text.slice(open)) ? '' : `${eol}${outer}`
  return `${text.slice(0, open)}${body}${closed}${text.slice(open)}`
}

/** The text with the servers `moved` taken out, and `name`'s entry first in their object. */
export function rewriteJson(text: string, key: string, moved: readonly string[], name: string, entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  return withFirstProperties(withoutProperties(text, key, new Set(moved)), key, [[name, entry]], eol)
}

/** The names given twice in a JSON text: at its top, or in the servers object (where the client's reading of them is unsure). */
export function twiceGiven(text: string, key: string): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true })
  const twice = (object: Node | undefined, path: string): string | undefined => {
    const seen = new Set<unknown>()
    for (const property of object?.type === 'object' ? object.children ?? [] : []) {
      const name = property.children?.[0]?.value as string
      if (seen.has(name))
        return `${path}${JSON.stringify(name)}`
      seen.add(name)
    }
    return undefined
  }
  return twice(root, '') ?? twice(root && findNodeAtLocation(root, [key]), `${JSON.stringify(key)}.`)
}
