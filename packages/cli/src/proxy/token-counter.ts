// How `--surface auto` counts a list's tokens: as OpenAI's o200k_base does. Its tables take about
// 0.4 s of the main thread to load, which the proxy used to spend before starting any server; they
// load while the servers start now. A list counted before they have (a snapshot that answers ahead)
// loads them then, at once.
import { createRequire } from 'node:module'

type Count = (text: string) => number

/** A token count by o200k_base, its tables loading from now on. */
export function tokenCounter(): Count {
  let count: Count | undefined
  void import('gpt-tokenizer/encoding/o200k_base').then((loaded) => {
    count ??= loaded.countTokens
  }, () => {})
  return text => (count ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Count }).countTokens)(text)
}
