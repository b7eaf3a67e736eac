// What a stdio upstream starts with: the proxy's whole environment, as a client that starts the
// server itself gives it (a client's config hands its `env` to the proxy, which is the process it
// starts), plus what the operator adds. `${NAME}` in a header or an added value is read from the
// environment, so a token need not sit in argv, where any local user reads it from the process list.
import { ProxySetupError } from './setup-error'

const VARIABLE = /\$\{([A-Za-z_]\w*)\}/g

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
    const found = env[name]
    if (found === undefined)
      throw new ProxySetupError(`${what} names \${${name}}, which is not set in the environment`)
    return found
  })
}

/** The environment a stdio upstream runs with: the proxy's own, every variable, with `added` over it. */
export function upstreamEnvironment(added: Readonly<Record<string, string>> = {}, env: Environment = processEnvironment()): Record<string, string> {
  const whole: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined)
      whole[name] = value
  }
  return { ...whole, ...added }
}
