// What flatmcp never shows of an operator's config: the value of a key that names a credential, and
// every value of a server's environment or headers (where a client's config keeps its tokens), and
// the value of a credential's flag on a command line (an entry's `args`: `--api-key X`). One table
// decides, for a parsed value (`redacted`), a config's text (read by its key paths) and a command
// line (`redactedArgs`); a variable reference (`${NAME}`) is no secret and stays readable. A credential
// written inside a longer string (a URL's password or query, `NAME=VALUE`, a variable's default) is
// found by its shape (`INLINE_CREDENTIALS`) in every string, wherever it is.

/** Parts of a key's name that say its value is a credential (matched in any case, anywhere in the name). */
export const CREDENTIAL_KEY_PARTS: readonly string[] = ['token', 'key', 'secret', 'password', 'passwd', 'passphrase', 'auth', 'cookie', 'credential', 'session', 'bearer', 'private', 'signature', 'jwt']

/** Keys whose every value is redacted, whatever it is named: a server's environment and headers. */
export const SECRET_HOLDERS: readonly string[] = ['env', 'headers', 'http_headers', 'env_http_headers', 'environment']

/** What a redacted value reads as. */
export const REDACTED = '[redacted]'

/**
 * A value made of variable references alone names its secret without holding it (`${NAME}`,
 * `${env:NAME}`); a default (`${NAME:-value}`) is a literal, and redacted as one.
 */
const ONLY_VARIABLES = /^(?:\$\{(?:env:)?[\w.-]+(?::-[^}]*)?\})+$/

/** A credential inside a longer string: its shape (`keep` is shown, `value` redacted; where it has a `name`, only a credential's), and an example as shown. */
export interface InlineCredential {
  what: string
  pattern: RegExp
  example: string
  shown: string
}

/** Every credential flatmcp finds inside a string by its shape. */
export const INLINE_CREDENTIALS: readonly InlineCredential[] = [
  {
    what: 'a URL\'s password (a connection string\'s too)',
    pattern: /(?<keep>\b[a-z][\w+.-]*:\/\/[^\s:@/?#]*:)(?<value>[^\s/?#]+)(?=@[^\s@/?#]*(?:[/?#\s]|$))/gi,
    example: 'postgresql://admin:pa@ss@db.internal/prod',
    shown: `postgresql://admin:${REDACTED}@db.internal/prod`,
  },
  {
    what: 'a URL\'s query parameter named for a credential',
    pattern: /(?<keep>[?&](?<name>[^=&#\s]+)=)(?<value>[^&#\s]+)/g,
    example: 'https://mcp.example.com/mcp?team=core&api_key=sk-live-1&x=2',
    shown: `https://mcp.example.com/mcp?team=core&api_key=${REDACTED}&x=2`,
  },
  {
    what: 'an assignment to a credential\'s name (`docker run -e NAME=VALUE`, `env NAME=VALUE`)',
    pattern: /^(?<keep>(?<name>[A-Z_][\w.-]*)=)(?<value>.+)$/is,
    example: 'GITHUB_TOKEN=ghp_live_1',
    shown: `GITHUB_TOKEN=${REDACTED}`,
  },
  {
    what: 'a variable\'s default (`${NAME:-value}` is the value where NAME is unset)',
    pattern: /(?<keep>\$\{(?:env:)?[\w.-]+:-)(?<value>[^}]+)(?=\})/g,
    example: '${API_TOKEN:-sk-fallback-1}',
    shown: `\${API_TOKEN:-${REDACTED}}`,
  },
]

/** A string with each credential `INLINE_CREDENTIALS` finds in it redacted, the rest as it was. */
export function inlineRedacted(value: string): string {
  return INLINE_CREDENTIALS.reduce((out, { pattern }) => out.replace(pattern, (whole, ...rest) => {
    const groups = rest.at(-1) as { keep: string, name?: string, value: string }
    return groups.name !== undefined && !isCredentialKey(groups.name) ? whole : `${groups.keep}${REDACTED}`
  }), value)
}

/** Whether a key's name says its value is a credential. */
export function isCredentialKey(key: string): boolean {
  const lower = key.toLowerCase()
  return CREDENTIAL_KEY_PARTS.some(part => lower.includes(part))
}

/** Whether the value at a key path (`["mcpServers", "github", "env", "GH_TOKEN"]`) is one to redact. */
export function isSecretPath(path: readonly (string | number)[]): boolean {
  const last = path.at(-1)
  if (typeof last === 'string' && isCredentialKey(last))
    return true
  return path.slice(0, -1).some(key => typeof key === 'string' && SECRET_HOLDERS.includes(key))
}

/** A string value at a secret path, as shown: its variable references where it is only those (their defaults redacted), else `REDACTED`. */
export function redactedString(value: string): string {
  return ONLY_VARIABLES.test(value) ? inlineRedacted(value) : REDACTED
}

/** A parsed value (a config, an entry) with every scalar at a secret path redacted; the value itself is not changed. */
export function redacted<T>(value: T, path: readonly (string | number)[] = []): T {
  if (isCommandLine(value, path))
    return redactedArgs(value) as T
  if (Array.isArray(value))
    return value.map((item, i) => redacted(item, [...path, i])) as T
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redacted(item, [...path, key])])) as T
  if (typeof value === 'string' && !isSecretPath(path))
    return inlineRedacted(value) as T
  if (value === null || value === undefined || !isSecretPath(path))
    return value
  return (typeof value === 'string' ? redactedString(value) : REDACTED) as T
}

/** Keys whose list of strings is a command line, read as `redactedArgs` reads one. */
export const COMMAND_LINES: readonly string[] = ['args']

/** Whether a value at a path is a command line: a list of strings under `args`. */
export function isCommandLine(value: unknown, path: readonly (string | number)[]): value is string[] {
  const last = path.at(-1)
  return typeof last === 'string' && COMMAND_LINES.includes(last) && Array.isArray(value) && value.every(item => typeof item === 'string')
}

/** Flags whose value is a header (`Name: value`): redacted where the header's name is a credential's. */
const HEADER_FLAGS = new Set(['--header', '-H'])

/**
 * A command line as shown: the value of a flag named for a credential (`--auth-token X`,
 * `--api-key=X`) and of a credential's header (`--header "Authorization: Bearer X"`) redacted,
 * and each credential any word holds (`INLINE_CREDENTIALS`: `-e GITHUB_TOKEN=X`, a connection string).
 */
export function redactedArgs(words: readonly string[]): string[] {
  return words.map((word, i) => {
    const flag = /^(--?[\w-]+)=(.*)$/s.exec(word)
    if (flag)
      return `${flag[1]}=${redactedFlagValue(flag[1]!, flag[2]!)}`
    const before = words[i - 1]
    return before !== undefined && /^--?[\w-]+$/.test(before) && !word.startsWith('-') ? redactedFlagValue(before, word) : inlineRedacted(word)
  })
}

function redactedFlagValue(flag: string, value: string): string {
  if (HEADER_FLAGS.has(flag)) {
    const header = /^([^:]+):(.*)$/s.exec(value)
    return header && isCredentialKey(header[1]!) ? `${header[1]}: ${redactedString(header[2]!.trim())}` : inlineRedacted(value)
  }
  return isCredentialKey(flag.replace(/^-+/, '')) ? redactedString(value) : inlineRedacted(value)
}
