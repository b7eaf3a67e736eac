// `--surface auto`'s token count (issue 70): its tables load while the servers start, and a list
// counted before they have loaded is counted at once: either way, as gpt-tokenizer's o200k_base counts.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { tokenCounter } from '../src/proxy/token-counter'

const TEXTS = ['', 'find_tools', '{"name":"search","description":"Search the web 🌍 for a query","inputSchema":{"type":"object"}}', 'ünïcödé\n\t'.repeat(40)]

describe('the token counter of --surface auto', () => {
  it('counts as o200k_base does, asked before its tables have loaded and after', async () => {
    const early = tokenCounter()
    expect(TEXTS.map(text => early(text))).toEqual(TEXTS.map(text => countTokens(text)))
    const late = tokenCounter()
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(TEXTS.map(text => late(text))).toEqual(TEXTS.map(text => countTokens(text)))
  })
})
