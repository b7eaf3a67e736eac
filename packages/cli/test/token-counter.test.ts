// `--surface auto`'s token count (issue 70): its tables load while the servers start, and a list
// counted before they have loaded is counted at once: either way, as gpt-tokenizer's o200k_base counts,
// from one copy of its tables.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { ENCODING, tokenCounter } from '../src/proxy/token-counter'

const TEXTS = ['', 'find_tools', '{"name":"search","description":"Search the web 🌍 for a query","inputSchema":{"type":"object"}}', 'ünïcödé\n\t'.repeat(40)]

describe('the token counter of --surface auto', () => {
  it('counts as o200k_base does, asked before its tables have loaded and after', async () => {
    const early = tokenCounter()
    expect(TEXTS.map(text => early.count(text))).toEqual(TEXTS.map(text => countTokens(text)))
    const late = tokenCounter()
    late.load()
    late.load()
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(TEXTS.map(text => late.count(text))).toEqual(TEXTS.map(text => countTokens(text)))
  })

  it('loads one copy of the tables whichever way comes first: the file imported is the one required', async () => {
    const require = createRequire(import.meta.url)
    const file = require.resolve(ENCODING)
    const imported = await import(pathToFileURL(file).href) as { countTokens: unknown }
    expect(imported.countTokens).toBe((require(file) as { countTokens: unknown }).countTokens)
  })
})
