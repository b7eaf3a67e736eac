// A file of variables (`KEY=value` lines, dotenv's format, as VS Code's and Cursor's `envFile` name
// one), read with Node's own parser: the variables it sets, or why it cannot be read.
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseEnv } from 'node:util'

/** The largest file of variables read: one larger is no file of variables. */
const MAX_ENV_FILE_BYTES = 1024 * 1024

/** The variables of the file at `where` (a relative path from the folder of `config`, the file that names it). */
export function envFileVariables(where: string, config: string): { variables: Record<string, string> } | { error: string } {
  const file = path.resolve(path.dirname(config), where)
  try {
    if (statSync(file).size > MAX_ENV_FILE_BYTES)
      return { error: `${file} is over ${MAX_ENV_FILE_BYTES / 2 ** 20} MiB, so no file of variables` }
    return { variables: parseEnv(readFileSync(file, 'utf8')) as Record<string, string> }
  }
  catch (error) {
    return { error: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` }
  }
}
