// A TOML config's servers edited table by table (Codex's `[mcp_servers.NAME]` and its sub-tables),
// everything else in the file line for line as it was, each line with its own line ending. A line
// inside a multi-line string (`"""…"""`, `'''…'''`) is the string's, whatever it looks like.

/** A TOML table header's key path (`[mcp_servers."my server".env]`, an array of tables' `[[…]]` too), or undefined for a line that is none. */
function tableKey(line: string): string[] | undefined {
  const header = (/^\s*\[\[(.*)\]\]\s*(?:#.*)?$/.exec(line) ?? /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line))?.[1]
  if (header === undefined)
    return undefined
  return [...header.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([\w-]+))\s*(?:\.|$)/g)].map(m => m[1] ?? m[2] ?? m[3]!)
}

/** The text's lines, each with its own line ending (the last may have none). */
const linesOf = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? []

/** A line without its line ending. */
const bare = (line: string): string => line.replace(/\r?\n$/, '')

/**
 * The multi-line string still open at a line's end (its delimiter), from the one open at its start:
 * the line read as TOML reads it (strings, escapes, comments).
 */
export function openAfter(line: string, open: string | undefined): string | undefined {
  let i = 0
  const skip = (close: string, escapes: boolean): boolean => {
    for (; i < line.length; i++) {
      if (escapes && line[i] === '\\') {
        i++
        continue
      }
      if (line.startsWith(close, i)) {
        i += close.length
        // A closing delimiter may follow one or two quotes of the string's own.
        while (close.length === 3 && line[i] === close[0])
          i++
        return true
      }
    }
    return false
  }
  while (i < line.length) {
    if (open !== undefined) {
      if (!skip(open, open === '"""'))
        return open
      open = undefined
      continue
    }
    const char = line[i]!
    if (char === '#')
      return undefined
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      open = line.slice(i, i + 3)
      i += 3
      continue
    }
    i++
    if (char === '"' || char === "'")
      skip(char, char === '"')
  }
  return open
}

/**
 * The comment lines a table ends with (from the first of them, blank lines among them), which are
 * not its own: a comment there introduces what follows.
 */
function trailingComments(lines: string[]): string[] {
  let start = lines.length
  for (let i = lines.length - 1; i >= 0 && /^\s*(?:#.*)?$/.test(bare(lines[i]!)); i--) {
    if (lines[i]!.trim() !== '')
      start = i
  }
  return lines.splice(start)
}

/** A TOML string, as TOML writes one (its JSON form is one). */
const tomlString = (value: string): string => JSON.stringify(value)

/**
 * The text's lines without the tables of the servers named (each `[mcp_servers.NAME]` and its
 * sub-tables, up to their last line that is not a comment), and those tables' lines by server;
 * each line with its own line ending.
 */
export function tomlSplit(text: string, names: readonly string[]): { kept: string[], tables: Map<string, string[]> } {
  const wanted = new Set(names)
  const kept: string[] = []
  const tables = new Map<string, string[]>()
  let table: string[] | undefined
  let open: string | undefined
  for (const line of linesOf(text)) {
    const key = open === undefined ? tableKey(bare(line)) : undefined
    open = openAfter(line, open)
    if (key !== undefined) {
      const name = key[0] === 'mcp_servers' && wanted.has(key[1]!) ? key[1]! : undefined
      const next = name === undefined ? undefined : tables.get(name) ?? tables.set(name, []).get(name)
      // A comment just above another table is that table's (or the file's): kept where it is.
      if (table && next !== table)
        kept.push(...trailingComments(table))
      table = next
    }
    ;(table ?? kept).push(line)
  }
  if (table)
    kept.push(...trailingComments(table))
  while (kept.length > 0 && kept.at(-1)!.trim() === '')
    kept.pop()
  return { kept, tables }
}

/** A TOML value as TOML writes it: JSON's strings, numbers, booleans and arrays; an object as an inline table. */
function tomlValue(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return `{ ${Object.entries(value).map(([key, item]) => `${tomlString(key)} = ${tomlValue(item)}`).join(', ')} }`
  return Array.isArray(value) ? `[${value.map(tomlValue).join(', ')}]` : JSON.stringify(value)
}

/** One server's table. */
export function tomlTable(name: string, entry: Record<string, unknown>): string[] {
  const key = /^[\w-]+$/.test(name) ? name : tomlString(name)
  return [`[mcp_servers.${key}]`, ...Object.entries(entry).map(([field, value]) => `${field} = ${tomlValue(value)}`)]
}

/** The lines kept, then each table, a blank line between; a line without an ending of its own (one made) gets `eol`. */
export function tomlJoin(kept: readonly string[], tables: readonly string[][], eol: string): string {
  const joined = (lines: readonly string[]): string => lines.map(line => line.endsWith('\n') ? line : `${line}${eol}`).join('')
  const blocks = [joined(kept).replace(/\r?\n$/, ''), ...tables.map(lines => joined(lines).replace(/\s+$/, ''))]
  return `${blocks.filter(block => block !== '').join(`${eol}${eol}`)}${eol}`
}

/** The text without the tables of the servers `moved`, and `name`'s table after the rest. */
export function rewriteToml(text: string, moved: readonly string[], name: string, entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  return tomlJoin(tomlSplit(text, moved).kept, [tomlTable(name, entry)], eol)
}
