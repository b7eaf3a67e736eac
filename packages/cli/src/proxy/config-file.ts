// A client's server config file (`--config`), read from disk and parsed as that client writes it:
// TOML where its name ends so (Codex), else JSON with comments and trailing commas (VS Code allows
// both). Loaded only where `--config` is given.
import type { ServersConfig } from './servers-config'
import { readFileSync } from 'node:fs'
import { ProxySetupError } from '@flatmcp/runtime/proxy'
import { parseTOML } from 'confbox'
import { parseJson } from './parse-json'
import { readServersConfig } from './servers-config'

/** The config in `file`, read: anything off is a `ProxySetupError` naming the file (and the entry and key, where one is). */
export function readServersConfigFile(file: string, env: Readonly<Record<string, string | undefined>> = process.env, withheld: readonly string[] = []): ServersConfig {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  }
  catch (error) {
    throw new ProxySetupError(`--config: ${(error as Error).message}`)
  }
  const toml = file.endsWith('.toml')
  let parsed: unknown
  try {
    parsed = toml ? parseTOML(text) : parseJson(text, true)
  }
  catch (error) {
    throw new ProxySetupError(toml ? `${file}: not TOML (${(error as Error).message.split('\n')[0]})` : `${file}: ${(error as Error).message}`)
  }
  try {
    return readServersConfig(parsed, file, env, withheld)
  }
  catch (error) {
    throw new ProxySetupError((error as Error).message)
  }
}
