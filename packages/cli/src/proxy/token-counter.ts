// How `--surface auto` counts a list's tokens: as OpenAI's o200k_base does. Its tables take about
// 0.35 s of the main thread to load, in one synchronous piece: they load once the servers have been
// started (`load`), not before, where they held every spawn; a list counted before they have (a
// snapshot that answers ahead) loads them then, at once.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

type Count = (text: string) => number

/** The package's tables, as `require` finds them (its CommonJS build). */
export const ENCODING = 'gpt-tokenizer/encoding/o200k_base'

/** A token count by o200k_base, and `load`, which begins loading its tables; a proxy without the package says so at once. */
export function tokenCounter(): { count: Count, load: () => void } {
  const require = createRequire(import.meta.url)
  const file = require.resolve(ENCODING)
  let count: Count | undefined
  let loading = false
  return {
    count: text => (count ??= (require(file) as { countTokens: Count }).countTokens)(text),
    load: () => {
      if (loading)
        return
      loading = true
      // The file `require` loads, imported: whichever comes first, one copy of the tables (about 55 MB).
      void import(pathToFileURL(file).href).then((loaded: { countTokens: Count }) => {
        count ??= loaded.countTokens
      }, () => {})
    },
  }
}
