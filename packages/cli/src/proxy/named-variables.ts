// The variables of the proxy's environment an entry of a client's config names as its own: Codex's
// `env_vars`, `env_http_headers` and `bearer_token_env_var`, and `${NAME}` written anywhere in it. A
// client passes such a variable to that server only (Codex gives a server only what its entry names),
// so behind flatmcp, whose own entry is handed them all, each goes to the servers that name it and no other.
import type { UpstreamTarget } from '@flatmcp/runtime/proxy'

/** Variables every client gives every server it starts (Codex's short list of its own): no one server's alone. */
const EVERY_SERVER = new Set(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'])

const WRITTEN = /\$\{(?:env:)?([A-Za-z_]\w*)(?::-[^}]*)?\}/g

const strings = (value: unknown): string[] => (Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [value]).filter((item): item is string => typeof item === 'string')

/** The variables `entry` names as its own. */
export function variablesNamed(entry: Readonly<Record<string, unknown>>): string[] {
  const names = new Set([...JSON.stringify(entry).matchAll(WRITTEN)].map(match => match[1]!))
  for (const key of ['env_vars', 'env_http_headers', 'bearer_token_env_var'])
    strings(entry[key]).forEach(name => names.add(name))
  return [...names].filter(name => !EVERY_SERVER.has(name)).sort()
}

/** Each command entry with the variables the others name (and it does not) kept from its environment. */
export function keptApart<Entry extends { target: UpstreamTarget }>(read: readonly { entry: Entry, named: readonly string[] }[]): Entry[] {
  const all = new Set(read.flatMap(({ named }) => named))
  return read.map(({ entry, named }) => {
    const others = [...all].filter(name => !named.includes(name)).sort()
    return 'command' in entry.target && others.length > 0 ? { ...entry, target: { ...entry.target, othersVariables: others } } : entry
  })
}
