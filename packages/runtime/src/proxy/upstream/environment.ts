// What a stdio upstream starts with: the proxy's whole environment, as a client that starts the
// server itself gives it (a client's config hands its `env` to the proxy, which is the process it
// starts), plus what the operator adds, less the proxy's own credentials (its callers' tokens, its
// OAuth secret), which never go upstream. `${NAME}` in a header or an added value is read from the
// environment, so a token need not sit in argv, where any local user reads it from the process list.
import { ProxySetupError } from './setup-error'

const VARIABLE = /\$\{([A-Za-z_]\w*)\}/g

/** The proxy's own variables, kept for itself: its callers' credential and its OAuth client secret. No upstream gets them. */
export const PROXY_VARIABLES: readonly string[] = ['FLATMCP_PROXY_TOKEN', 'FLATMCP_OAUTH_CLIENT_SECRET']

/**
 * What only ran the proxy: `npx --package <flatmcp> flatmcp proxy` exports the package it ran, and a
 * server started with `npx -y <its package>` would look for its command in flatmcp's package.
 */
const LAUNCHER_VARIABLES: readonly string[] = ['npm_config_package']

type Environment = Readonly<Record<string, string | undefined>>

/** The process's environment, where there is one (none in a Worker). */
export function processEnvironment(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {}
}

/**
 * `${NAME}` in `value` replaced by the environment's `NAME`; one that is not set is a
 * `ProxySetupError` naming it and `what` (an empty value counts as set). Nothing else is read as a
 * variable: `$NAME` and `$(…)` stay as they are.
 */
export function expandVariables(value: string, what: string, env: Environment = processEnvironment()): string {
  return value.replace(VARIABLE, (_, name: string) => {
    if (PROXY_VARIABLES.includes(name))
      throw new ProxySetupError(`${what} names \${${name}}, the proxy's own credential, which never goes upstream`)
    const found = env[name]
    if (found === undefined)
      throw new ProxySetupError(`${what} names \${${name}}, which is not set in the environment`)
    return found
  })
}

/** Below this length a credential is matched whole only: a shorter one would be found inside ordinary values (`PATH`). */
const SHORTEST_FOUND_INSIDE = 8

/**
 * Whether `value` carries `secret`, one of the proxy's credentials: is it, or holds it inside a longer
 * value (`Bearer <token>`, `--key=<token>`), for a credential of 8 characters or more.
 */
export function holdsSecret(value: string, secret: string): boolean {
  return secret !== '' && (value === secret || (secret.length >= SHORTEST_FOUND_INSIDE && value.includes(secret)))
}

/**
 * `values` (an added variable's, a header's) checked against the credentials the proxy holds
 * (`withheld`): one that carries a credential is a `ProxySetupError` naming `what` holds it.
 */
export function refuseWithheld(values: Readonly<Record<string, string>>, withheld: readonly string[], what: (name: string) => string): void {
  const name = Object.keys(values).find(name => withheld.some(secret => holdsSecret(values[name]!, secret)))
  if (name !== undefined)
    throw new ProxySetupError(`${what(name)} holds a credential of the proxy's own (a caller's token, or its OAuth client secret), which never goes upstream`)
}

/**
 * The environment a stdio upstream runs with: the proxy's own, every variable but those it keeps
 * for itself (`PROXY_VARIABLES`, `LAUNCHER_VARIABLES`, and any whose value is or holds one of `withheld`, the credentials
 * it was given: `AUTH="Bearer <token>"` too) and those named in `others` (another server's, by name),
 * with `added` over it (one that holds a withheld value is refused).
 */
export function upstreamEnvironment(added: Readonly<Record<string, string>> = {}, env: Environment = processEnvironment(), withheld: readonly string[] = [], others: readonly string[] = []): Record<string, string> {
  refuseWithheld(added, withheld, name => `the upstream's variable ${JSON.stringify(name)}`)
  const whole: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !PROXY_VARIABLES.includes(name) && !LAUNCHER_VARIABLES.includes(name) && !others.includes(name) && !withheld.some(secret => holdsSecret(value, secret)))
      whole[name] = value
  }
  return { ...whole, ...added }
}
