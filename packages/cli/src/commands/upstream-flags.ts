// The flags of proxy and snapshot, each once: which command takes it, its value, what help says of
// it, the words it takes and the flags it needs. The parser's options, each command's help, the
// flags one command refuses and the checks of what a flag needs are read from this table.
import { PRESET_NAMES, PROFILE_NAMES, TARGET_NAMES } from '@flatmcp/core/names'
import { WHEN_DOWN } from '../proxy/limits-store'
import { LOG_LEVELS } from '../proxy/operator-log'

/** Which of proxy and snapshot a row is theirs. */
export type Taker = 'both' | 'proxy' | 'snapshot'

/** A flag that needs another: that flag, and what the usage error says without it. */
type Need = readonly [flag: string, said: string]

/** A row of the table: a heading of help, a way to name the upstream that is no flag, or a flag. */
type Row =
  | { of: Taker, heading: string }
  | { of: Taker, shown: string, help: string }
  | {
    of: Taker
    name: string
    type: 'string' | 'boolean'
    multiple?: true
    /** The value's name in help (default: the words it takes, `a|b`). */
    value?: string
    /** What help says of it, or what each command's help says. */
    help: string | Readonly<Record<'proxy' | 'snapshot', string>>
    /** The only words it takes. */
    words?: readonly string[]
    /** The flags it needs, each with its usage error, checked in this order. */
    needs?: readonly Need[]
    /** It says how to reach one server: refused beside --config, where each entry says it. */
    oneServer?: true
  }

/** The profiles the proxy compiles and serves: `minimal`, a base profile an author builds with, has no route. */
export const SERVED_PROFILES: readonly string[] = ['portable', ...TARGET_NAMES]

/** Who may use the proxy over HTTP, and how it listens and drains, mean nothing over stdio. */
const overHttp = (name: string, why = 'is for the proxy served over HTTP'): Need => ['http', `--${name} ${why}: give --http port too`]

/** Every row, in the order help lists them (each command's help lists its own). */
export const UPSTREAM_FLAGS = [
  { of: 'snapshot', name: 'out', type: 'string', value: 'file', help: 'the file written (default: the upstream\'s name, .mcp.json, in the working folder)' },
  { of: 'both', heading: 'the upstream' },
  { of: 'both', shown: '-- <command> [args…]', help: 'a server run as a child process over stdio, with the proxy\'s whole environment (the -- may be left out)' },
  { of: 'both', name: 'env', type: 'string', multiple: true, value: 'NAME=value', oneServer: true, help: 'a variable added to its environment (repeatable; ${NAME} in a value is read from the environment)' },
  { of: 'both', shown: '<url>', help: 'a server over Streamable HTTP' },
  { of: 'both', name: 'header', type: 'string', multiple: true, value: '\'Name: value\'', oneServer: true, help: 'sent with every request to it, never logged (repeatable; ${NAME} read from the environment)' },
  { of: 'both', name: 'oauth-client-id', type: 'string', value: 'id', oneServer: true, help: 'an upstream behind OAuth, reached with the proxy\'s client credentials: this id, the issuer and the secret' },
  { of: 'both', name: 'oauth-issuer', type: 'string', value: 'url', oneServer: true, help: 'the authorization server\'s issuer URL, the only place the secret is sent' },
  { of: 'both', name: 'oauth-client-secret-file', type: 'string', value: 'file', oneServer: true, help: 'the client secret (or FLATMCP_OAUTH_CLIENT_SECRET; never a flag, which any process may read)' },
  { of: 'both', name: 'oauth-scope', type: 'string', value: 'scope', oneServer: true, help: 'the scope asked for' },
  { of: 'both', name: 'config', type: 'string', value: 'FILE', help: 'every server a client\'s config lists, as one (Claude Desktop\'s, Claude Code\'s, Cursor\'s, Gemini CLI\'s mcpServers, VS Code\'s servers, Codex\'s config.toml), each tool as NAME__tool' },
  { of: 'both', name: 'timeout', type: 'string', value: 'ms', help: 'how long one request may wait for the upstream (default: 60000)' },
  { of: 'both', heading: 'how its tools are compiled' },
  { of: 'both', name: 'profile', type: 'string', multiple: true, value: 'name', help: {
    proxy: `a target profile: ${SERVED_PROFILES.join(', ')} (the one served at /mcp and over stdio; default: portable)`,
    snapshot: `a target profile: ${PROFILE_NAMES.join(', ')} (repeatable; default: every one)`,
  } },
  { of: 'both', name: 'preset', type: 'string', value: 'name', help: `the parser its schemas were written for: auto (default: told by their fingerprints), ${PRESET_NAMES.join(', ')}` },
  { of: 'both', name: 'on-invalid', type: 'string', words: ['serve', 'drop'], help: 'a tool whose schema cannot be compiled: served as it came (default), or left out' },
  { of: 'both', name: 'compile-timeout', type: 'string', value: 'ms', help: 'how long compiling one tool may take; past it, the tool is served as it came (default: 10000)' },
  { of: 'both', name: 'strict-budget', type: 'string', value: 'points', help: 'how much of Anthropic\'s combined strict grammar the anthropic-strict tools may spend together; past it, the tools strictness buys least are served as portable there (default: 48, below every list reported refused)' },
  { of: 'both', name: 'overrides', type: 'string', value: 'file', help: 'hide tools or parameters, fix a parameter\'s value, replace descriptions, mark alwaysLoad or searchHint (checked against the list: a name it does not list is an error); with --config, each server\'s prefix ("servers": {"NAME": {"prefix": "gh"}}) and the separator ("separator": "-")' },
  { of: 'both', name: 'log-level', type: 'string', value: 'level', words: LOG_LEVELS, help: 'which lines reach stderr: error (why it stopped), warn (also what needs a look: a tool served as it came, a drift), info (default: also what is served), debug (proxy: also a line per call, its outcome, time and repaired paths)' },
  { of: 'proxy', name: 'artifact', type: 'string', value: 'file', help: 'serve a snapshot (flatmcp snapshot\'s) without compiling at start' },
  { of: 'proxy', name: 'frozen', type: 'boolean', needs: [['artifact', '--frozen serves only what a snapshot holds: give it with --artifact file']], help: 'serve only what the snapshot holds: an upstream that lists otherwise is refused, with the command that refreshes the snapshot' },
  { of: 'proxy', name: 'outputs', type: 'string', value: 'unlisted', words: ['compiled', 'unlisted'], help: 'list no output schema (for a server whose results miss its own)' },
  { of: 'proxy', heading: 'what a session sees' },
  { of: 'proxy', name: 'surface', type: 'string', words: ['full', 'search', 'auto'], help: 'full: every schema; search: three tools that find, describe and call the others; auto: whichever costs a session fewer tokens (default with --config)' },
  { of: 'proxy', name: 'always-load', type: 'string', multiple: true, value: 'name', help: 'a tool listed beside the search surface (repeatable)' },
  { of: 'proxy', heading: 'serving over HTTP' },
  { of: 'proxy', name: 'http', type: 'string', value: 'port', help: 'serve stateless HTTP instead of stdio; /healthz and /readyz for balancers' },
  { of: 'proxy', name: 'host', type: 'string', value: 'address', needs: [overHttp('host', 'is where --http listens')], help: 'where it listens (default: 127.0.0.1); beyond loopback a caller credential is needed' },
  { of: 'proxy', name: 'drain-timeout', type: 'string', value: 'ms', needs: [overHttp('drain-timeout', 'is how long a proxy served over HTTP drains on SIGTERM')], help: 'on SIGTERM or SIGINT, how long the calls in flight may take to finish before the proxy exits (default: 20000); /readyz says 503 at once, new requests are served 5 s more, then answered 503 unread; a second signal exits at once' },
  { of: 'proxy', name: 'auth-token-file', type: 'string', value: 'file', needs: [overHttp('auth-token-file')], help: 'the callers\' bearer tokens, one per line (or FLATMCP_PROXY_TOKEN)' },
  { of: 'proxy', name: 'auth-token', type: 'string', multiple: true, value: 'token', needs: [overHttp('auth-token')], help: 'a caller\'s bearer token (repeatable; a file keeps it out of the process list)' },
  { of: 'proxy', name: 'callers', type: 'string', value: 'file', help: 'named tokens, each with calls a minute and at once, each tool\'s limits and the tools it is served (over stdio, its "stdio" entry holds the client)' },
  { of: 'proxy', name: 'limits-store', type: 'string', value: 'url', needs: [overHttp('limits-store')], help: 'count the limits in Redis or Valkey (redis://[user@]host:port/db; password in FLATMCP_LIMITS_STORE_PASSWORD), shared by every replica naming it' },
  { of: 'proxy', name: 'limits-store-down', type: 'string', words: WHEN_DOWN, needs: [overHttp('limits-store-down'), ['limits-store', '--limits-store-down says what happens while the limits store does not answer: give --limits-store url too']], help: 'while the store does not answer: refuse calls with limits (503, default) or let them through uncounted' },
  { of: 'proxy', name: 'no-auth', type: 'boolean', needs: [overHttp('no-auth')], help: 'serve beyond loopback without a credential: anyone who reaches the port uses the upstream' },
  { of: 'proxy', name: 'allow-origin', type: 'string', multiple: true, value: 'origin', needs: [overHttp('allow-origin')], help: 'a browser origin allowed beyond loopback (repeatable)' },
  { of: 'proxy', name: 'allow-host', type: 'string', multiple: true, value: 'name', needs: [overHttp('allow-host')], help: 'a Host header allowed beyond loopback (repeatable)' },
  { of: 'proxy', heading: 'operating it' },
  { of: 'proxy', name: 'audit-log', type: 'string', value: 'file', help: 'one JSON line per request sent upstream or refused at a limit: caller, id, method, tool, outcome, time, repaired paths (never a value)' },
  { of: 'proxy', name: 'check', type: 'boolean', help: 'connect, read the list, apply the overrides, compile every profile, say what would be served and exit: 0, or 1 where the overrides name what the upstream does not list' },
] as const satisfies readonly Row[]

/** The rows that are flags. */
export type FlagRow = Extract<typeof UPSTREAM_FLAGS[number], { name: string }>
/** A flag's name, without its dashes. */
export type FlagName = FlagRow['name']

const isFlag = (row: typeof UPSTREAM_FLAGS[number]): row is FlagRow => 'name' in row

/** Every flag, in the table's order. */
export const FLAG_ROWS: readonly FlagRow[] = UPSTREAM_FLAGS.filter(isFlag)

/** Each flag as Node's parseArgs reads it, typed from the table so each value has its type. */
type OptionsOf<R extends FlagRow> = { [F in R as F['name']]: F extends { multiple: true } ? { type: F['type'], multiple: true } : { type: F['type'] } }

/** The options proxy and snapshot read (each refuses the other's own). */
export const UPSTREAM_OPTIONS = Object.fromEntries(FLAG_ROWS.map(row => [row.name, {
  type: row.type,
  ...('multiple' in row ? { multiple: true } : {}),
}])) as OptionsOf<FlagRow>

/** The flags only `command` takes: the other command refuses them. */
export const ownFlags = (command: 'proxy' | 'snapshot'): FlagName[] => FLAG_ROWS.filter(row => row.of === command).map(row => row.name)

/** The flags that mean something only with the proxy served over HTTP. */
export const SERVING_FLAGS: readonly FlagName[] = FLAG_ROWS.filter(row => 'needs' in row && row.needs.some(([flag]) => flag === 'http')).map(row => row.name)

/** The flags that say how to reach one server. */
export const ONE_SERVER_FLAGS: readonly FlagName[] = FLAG_ROWS.filter(row => 'oneServer' in row).map(row => row.name)

/** The flags that take only some words, each with its words. */
type WordRow = Extract<FlagRow, { words: readonly string[] }>
type Words = { [R in WordRow as R['name']]: R['words'] }

/** The words `name` takes. */
export function wordsOf<N extends keyof Words>(name: N): Words[N] {
  return (FLAG_ROWS.find(row => row.name === name) as WordRow).words as Words[N]
}

/** The first flag given whose needed flag is not, with its usage error (the table's order). */
export function unmetNeed(given: (name: FlagName) => boolean): string | undefined {
  for (const row of FLAG_ROWS) {
    const unmet = 'needs' in row && given(row.name) ? row.needs.find(([flag]) => !given(flag as FlagName)) : undefined
    if (unmet)
      return unmet[1]
  }
  return undefined
}

/** `command`'s help: its rows in the table's order, each flag with its value's name. */
export function helpOf(command: 'proxy' | 'snapshot'): (readonly [string, string])[] {
  return UPSTREAM_FLAGS.filter(row => row.of === 'both' || row.of === command).map((row) => {
    if ('heading' in row)
      return ['', row.heading] as const
    if ('shown' in row)
      return [row.shown, row.help] as const
    const value = 'value' in row ? row.value : 'words' in row ? row.words.join('|') : undefined
    return [`--${row.name}${value === undefined ? '' : ` ${value}`}`, typeof row.help === 'string' ? row.help : row.help[command]] as const
  })
}
