// A YAML config's servers edited in its text (Goose's `extensions:` map, Continue's `mcpServers:`
// list), so everything else in the file stays byte for byte as it was: an entry taken out with its
// own lines (and the comment lines just above it), one put first at the indentation its neighbours
// have. Where the entries are is the `yaml` package's reading of the text (its node ranges).
import type { Node, Pair } from 'yaml'
import { isMap, isScalar, isSeq, parseDocument, stringify } from 'yaml'

/** Where a line starts. */
const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1

/** Where the line an offset is on ends, its line ending included. */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n')
    return offset
  const next = text.indexOf('\n', offset)
  return next < 0 ? text.length : next + 1
}

/** One entry of the servers collection: its name, and the text it spans from its first line's start. */
interface Item { name: string, start: number, end: number }

/** The servers collection's entries (a block map by name, or a block list of entries each with a `name`). */
function itemsOf(text: string, key: string): { items: Item[], flow: boolean } {
  const collection = parseDocument(text, { keepSourceTokens: false }).get(key, true) as Node | undefined
  if (isMap(collection)) {
    const items = (collection.items as Pair<Node, Node | null>[]).map(pair => ({
      name: String(isScalar(pair.key) ? pair.key.value : ''),
      start: lineStart(text, pair.key!.range![0]),
      end: lineEnd(text, (pair.value ?? pair.key)!.range![2]),
    }))
    return { items, flow: collection.flow === true }
  }
  if (isSeq(collection)) {
    const items = (collection.items as Node[]).map(item => ({
      name: isMap(item) ? String(item.get('name') ?? '') : '',
      start: lineStart(text, item.range![0]),
      end: lineEnd(text, item.range![2]),
    }))
    return { items, flow: collection.flow === true }
  }
  return { items: [], flow: false }
}

/** An item's place with the comment lines just above it, which are its own. */
function withComments(text: string, item: Item): [number, number] {
  let start = item.start
  for (let above = lineStart(text, start - 1); start > 0 && /^[ \t]*#[^\n]*\n$/.test(text.slice(above, start)); above = lineStart(text, above - 1))
    start = above
  return [start, item.end]
}

/** The text without the servers `names`, each with its own lines. */
export function yamlWithout(text: string, key: string, names: ReadonlySet<string>): string {
  const { items, flow } = itemsOf(text, key)
  if (flow)
    throw new Error(`"${key}" is written inline ({…} or […])`)
  let out = text
  for (const item of items.filter(item => names.has(item.name)).reverse()) {
    const [start, end] = withComments(text, item)
    out = out.slice(0, start) + out.slice(end)
  }
  return out
}

/**
 * The text with entries first among the servers, at their indentation: as a map's `NAME:` or, for
 * a list (`list`), as `- name: NAME` items.
 */
export function yamlWithFirst(text: string, key: string, entries: readonly (readonly [string, unknown])[], list: boolean | undefined, eol: string): string {
  if (entries.length === 0)
    return text
  const { items, flow } = itemsOf(text, key)
  const first = items[0]
  if (first === undefined || flow)
    throw new Error(`"${key}" lists nothing in block style to put the entries beside`)
  const indent = /^[ \t]*/.exec(text.slice(first.start))![0]
  const value = list ? entries.map(([, entry]) => entry) : Object.fromEntries(entries)
  const block = stringify(value, { lineWidth: 0 }).replace(/\n$/, '').split('\n').map(line => `${indent}${line}${eol}`).join('')
  // Above the first entry's own comment lines, which stay its.
  const at = withComments(text, first)[0]
  return text.slice(0, at) + block + text.slice(at)
}

/** The text with the servers `moved` taken out, and `name`'s entry first among them. */
export function rewriteYaml(text: string, key: string, moved: readonly string[], name: string, entry: Record<string, unknown>, list: boolean | undefined): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const { items } = itemsOf(text, key)
  // Put first where the first server is now; then take out those moved (the text after it moves on, not before).
  const written = yamlWithFirst(text, key, [[name, entry]], list, eol)
  return items.length > 0 ? yamlWithout(written, key, new Set(moved)) : written
}
