// Who may reach a proxy served over HTTP without a credential, written once for the command, the
// HTTP serving and the guard: loopback is `localhost`, `127.0.0.1` and `::1` (bracketed or not, as a
// host flag, a Host header or a URL writes it). Beyond it, a caller credential is needed unless the
// operator opened the proxy by name.

/** The loopback names a Host header carries. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]'])

/** A host as a Host header names it: lowercase, an IPv6 address in brackets. */
function bracketed(host: string): string {
  const lower = host.toLowerCase()
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower
}

/** A host as a socket listens on it: an IPv6 address without the brackets a URL writes it in. */
export function listenAddress(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}

/** A host as a URL writes it: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  const address = listenAddress(host)
  return address.includes(':') ? `[${address}]` : address
}

/** Whether a host (a name or an address, an IPv6 one with or without brackets) is loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.includes(bracketed(host))
}

/** Whether serving on `host` with `tokens` needs the operator's word that anyone may use it (`--no-auth`): beyond loopback, with no caller credential. */
export function needsCallerCredential(host: string, tokens: readonly string[] = []): boolean {
  return !isLoopback(host) && tokens.length === 0
}

/**
 * The Host names a serving on `host` answers to: on loopback, the loopback names; on one address,
 * that address; on every address, those the operator allows (none given: any, for the machine's names
 * are not known here). Each with what the operator allows besides.
 */
export function hostsServed(host: string, allowed: readonly string[] = []): string[] | undefined {
  if (isLoopback(host))
    return [...LOOPBACK_NAMES, ...allowed]
  if (ANY_ADDRESS.has(host))
    return allowed.length > 0 ? [...allowed] : undefined
  return [urlHost(host), ...allowed]
}
