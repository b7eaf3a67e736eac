// How `--surface auto` counts a list's tokens: as OpenAI's o200k_base does. Its tables take about
// 0.4 s of the main thread to load, which the proxy used to spend before starting any server; they
// load while the servers start now. A list counted before they have (a snapshot that answers ahead)
// loads them then, at once.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

type Count = (text: string) => number

/** The package's tables, as `require` finds them (its CommonJS build). */
export const ENCODING = 'gpt-tokenizer/encoding/o200k_base'

/** A token count by o200k_base, its tables loading from now on; a proxy without the package says so at once. */
export function tokenCounter(): Count {
  const require = createRequire(import.meta.url)
  const file = require.resolve(ENCODING)
  let count: Count | undefined
  // The file `require` loads, imported: whichever comes first, one copy of the tables (about 55 MB).
  void import(pathToFileURL(file).href).then((loaded: { countTokens: Count }) => {
    count ??= loaded.countTokens
  }, () => {})
  return text => (count ??= (require(file) as { countTokens: Count }).countTokens)(text)
}
