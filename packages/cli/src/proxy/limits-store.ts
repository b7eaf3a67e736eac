// `--limits-store redis://[user@]host[:port][/db]`: the Redis or Valkey store the callers' limits are
// counted in, shared by every replica that names it. Its password is read from
// FLATMCP_LIMITS_STORE_PASSWORD, never from the URL (a command line is any local process's to read),
// and never said: the operator log names the store by host, port and database only.
import type { LimitsStore } from '@flatmcp/runtime/proxy'

/** The variable the store's password is read from. */
export const PASSWORD_VARIABLE = 'FLATMCP_LIMITS_STORE_PASSWORD'

/** What the proxy does while the store does not answer (`--limits-store-down`), the first the default. */
export const WHEN_DOWN = ['refuse', 'admit'] as const

/** How long one command to the store may take before the store counts as down. */
export const STORE_TIMEOUT_MS = 500

/** The store a URL names, or why it names none (the caller makes that a usage error). */
export function limitsStoreOf(text: string, whenDown: LimitsStore['whenDown'], env: NodeJS.ProcessEnv = process.env): LimitsStore {
  let url: URL
  try {
    url = new URL(text)
  }
  catch {
    throw new Error(`--limits-store ${JSON.stringify(text)}: is no URL (redis://host:6379/0)`)
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'valkey:')
    throw new Error(`--limits-store: the proxy speaks redis:// (Redis or Valkey, also valkey://), not ${url.protocol}//`)
  if (url.password !== '')
    throw new Error(`--limits-store: a password in the URL is readable in the process list; give it in ${PASSWORD_VARIABLE}`)
  const db = url.pathname === '' || url.pathname === '/' ? 0 : Number(url.pathname.slice(1))
  if (!Number.isInteger(db) || db < 0)
    throw new Error(`--limits-store: the database is a whole number (redis://host:6379/0), not ${JSON.stringify(url.pathname.slice(1))}`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (host === '')
    throw new Error('--limits-store: names no host (redis://host:6379)')
  const port = url.port === '' ? 6379 : Number(url.port)
  const password = env[PASSWORD_VARIABLE]
  return {
    host,
    port,
    ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
    ...(password ? { password } : {}),
    ...(db ? { db } : {}),
    timeoutMs: STORE_TIMEOUT_MS,
    whenDown,
    name: `redis://${url.host}/${db}`,
  }
}
