// A TOML config's servers edited table by table (Codex's `[mcp_servers.NAME]` and its sub-tables),
// everything else in the file line for line as it was.

/** A TOML table header's key path (`[mcp_servers."my server".env]`, an array of tables' `[[…]]` too), or undefined for a line that is none. */
function tableKey(line: string): string[] | undefined {
  const header = (/^\s*\[\[(.*)\]\]\s*(?:#.*)?$/.exec(line) ?? /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line))?.[1]
  if (header === undefined)
    return undefined
  return [...header.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([\w-]+))\s*(?:\.|$)/g)].map(m => m[1] ?? m[2] ?? m[3]!)
}

/**
 * The comment lines a table ends with (from the first of them, blank lines among them), which are
 * not its own: a comment there introduces what follows.
 */
function trailingComments(lines: string[]): string[] {
  let start = lines.length
  for (let i = lines.length - 1; i >= 0 && /^\s*(?:#.*)?$/.test(lines[i]!); i--) {
    if (lines[i]!.trim() !== '')
      start = i
  }
  return lines.splice(start)
}

/** A TOML string, as TOML writes one (its JSON form is one). */
const tomlString = (value: string): string => JSON.stringify(value)

/**
 * The text's lines without the tables of the servers named (each `[mcp_servers.NAME]` and its
 * sub-tables, up to their last line that is not a comment), and those tables' lines by server.
 */
export function tomlSplit(text: string, names: readonly string[]): { kept: string[], tables: Map<string, string[]> } {
  const kept: string[] = []
  const tables = new Map<string, string[]>()
  let table: string[] | undefined
  for (const line of text.split(/\r?\n/)) {
    const key = tableKey(line)
    if (key !== undefined) {
      const name = key[0] === 'mcp_servers' && names.includes(key[1]!) ? key[1]! : undefined
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

/** The lines kept, then each table, a blank line between. */
export function tomlJoin(kept: readonly string[], tables: readonly string[][], eol: string): string {
  const blocks = tables.map(lines => lines.join(eol).replace(/\s+$/, ''))
  return `${[kept.join(eol), ...blocks].filter(block => block !== '').join(`${eol}${eol}`)}${eol}`
}

/** The text without the tables of the servers `moved`, and `name`'s table after the rest. */
export function rewriteToml(text: string, moved: readonly string[], name: string, entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  return tomlJoin(tomlSplit(text, moved).kept, [tomlTable(name, entry)], eol)
}
