// What a tool (or a prompt) of one of many servers is called where they are served as one: the
// server's prefix, a separator, and the tool's own name (`github__create_issue`), made to fit the
// strictest rule clients apply to names (Copilot in Visual Studio, Kimi, OpenAI's 64 characters:
// `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), deterministically. What is served, and what is left out, is the
// name map's (../name-map.ts).

/** The strictest tool-name rule clients apply: a letter or `_` first, then letters, digits, `_` and `-`, 64 at most. */
export const SERVED_NAME = /^[A-Za-z_][\w-]{0,63}$/

/** How served names are made: the separator, and each server's prefix (its entry name by default; `''` for none). */
export interface NamingOptions {
  /** Between a server's prefix and its tool's name. Default: `__`. */
  separator?: string
  /** A server's prefix, by entry name, where it is not the entry name (`''`: its tools served by their own names). */
  prefixes?: Readonly<Record<string, string>>
}

/** An 8-hex-digit digest of a name (FNV-1a): what keeps two long names that share their start apart once cut. */
export function digest8(text: string): string {
  let hash = 0x811C9DC5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}

/** A name made to fit `SERVED_NAME`: other characters as `_`, a `_` before a first character that cannot start one, a long one cut and told apart by its digest. */
export function fittedName(name: string): string {
  let fitted = name.replace(/[^\w-]/g, '_')
  if (!/^[A-Z_]/i.test(fitted))
    fitted = `_${fitted}`
  return fitted.length <= 64 ? fitted : `${fitted.slice(0, 55)}_${digest8(name)}`
}

/** The name a server's tool (or prompt) is served by. */
export function servedName(server: string, name: string, options: NamingOptions = {}): string {
  const prefix = options.prefixes && Object.hasOwn(options.prefixes, server) ? options.prefixes[server]! : server
  return fittedName(prefix === '' ? name : `${prefix}${options.separator ?? '__'}${name}`)
}

/** Where a served name comes from. */
export interface NameOrigin { server: string, name: string }
