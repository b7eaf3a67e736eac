// The key a profile choice answers, built and read in one file: a profile, a view, a caller's own
// subset, each within a ruled caller's key too. The surface each key is served behind is what it was
// before the key had a file of its own (the views' answer, a subset's `full`, else the base).
import type { ToolView } from '../src/service/options'
import { describe, expect, it } from 'vitest'
import { callerKey, readKey, servedAs, subsetKey, viewKey } from '../src/service/choice-key'
import { surfaceOf } from '../src/search/views'

const VIEWS: Record<string, ToolView> = {
  triage: { tools: ['a'], profile: 'openai-strict', surface: 'search' },
  plain: { tools: ['b'] },
}

describe('the key a profile choice answers', () => {
  it('names a caller\'s own subset once per name, trimmed and sorted, in its profile', () => {
    expect(subsetKey('gemini', ' b, a,,b ')).toBe('tools:gemini:a,b')
    expect(subsetKey(undefined, 'a')).toBe('tools::a')
    expect(subsetKey('gemini', ' , ')).toBeUndefined()
    expect(readKey(subsetKey(undefined, Array.from({ length: 150 }, (_, i) => `t${String(i).padStart(3, '0')}`).join(',')))).toEqual({ tools: Array.from({ length: 100 }, (_, i) => `t${String(i).padStart(3, '0')}`) })
  })

  it('reads back what it was built from, within a ruled caller\'s key too', () => {
    const kinds: [string | undefined, object][] = [
      [undefined, {}],
      ['openai-strict', { profile: 'openai-strict' }],
      [viewKey('triage'), { view: 'triage' }],
      [subsetKey('gemini', 'b,a'), { tools: ['a', 'b'], profile: 'gemini' }],
      [subsetKey(undefined, 'a'), { tools: ['a'] }],
    ]
    for (const [key, read] of kinds) {
      expect(readKey(key), String(key)).toEqual(read)
      expect(readKey(callerKey('ci-bot', key)), `ruled ${String(key)}`).toEqual({ ...read, caller: 'ci-bot' })
    }
    expect(readKey('')).toEqual({})
    expect(readKey(callerKey('', undefined))).toEqual({ caller: '' })
  })

  it('says a call\'s profile and view apart: a view\'s own profile, none for a view no one has', () => {
    expect(servedAs(undefined, VIEWS)).toEqual({})
    expect(servedAs('gemini', VIEWS)).toEqual({ profile: 'gemini' })
    expect(servedAs(viewKey('triage'), VIEWS)).toEqual({ profile: 'openai-strict', view: 'triage' })
    expect(servedAs(viewKey('plain'), VIEWS)).toEqual({ view: 'plain' })
    expect(servedAs(viewKey('nobody'), VIEWS)).toEqual({})
    expect(servedAs(subsetKey('gemini', 'a'), VIEWS)).toEqual({ profile: 'gemini' })
    expect(servedAs(callerKey('ci-bot', viewKey('triage')), VIEWS)).toEqual({ profile: 'openai-strict', view: 'triage' })
    expect(servedAs(callerKey('ci-bot', 'gemini'), VIEWS)).toEqual({ profile: 'gemini' })
    // The views' name check is an own key: a view called like an Object method is none.
    expect(servedAs(viewKey('toString'), VIEWS)).toEqual({})
  })

  it('is served behind the surface it was before: a view\'s own, a subset\'s full, else the base, a ruled caller\'s that of its key', () => {
    for (const wrap of [(key: string | undefined) => key, (key: string | undefined) => callerKey('ci-bot', key)]) {
      expect(surfaceOf(VIEWS, wrap(undefined), 'auto')).toBe('auto')
      expect(surfaceOf(VIEWS, wrap('gemini'), 'auto')).toBe('auto')
      expect(surfaceOf(VIEWS, wrap(viewKey('triage')), 'auto')).toBe('search')
      expect(surfaceOf(VIEWS, wrap(viewKey('plain')), 'auto')).toBe('full')
      expect(surfaceOf(VIEWS, wrap(viewKey('nobody')), 'auto')).toBe('auto')
      expect(surfaceOf(VIEWS, wrap(subsetKey('gemini', 'a')), 'search')).toBe('full')
    }
  })
})

describe('a key the reader did not build (a choice of the operator\'s may answer any text)', () => {
  it('reads back what the keys are built as', () => {
    expect(readKey(viewKey('triage'))).toEqual({ view: 'triage' })
    expect(readKey(subsetKey('gemini', 'b,a'))).toEqual({ profile: 'gemini', tools: ['a', 'b'] })
    expect(readKey(callerKey('bot', viewKey('triage')))).toEqual({ caller: 'bot', view: 'triage' })
    expect(readKey(callerKey('bot', callerKey('admin', 'gemini')))).toEqual({ caller: 'bot', profile: 'gemini' })
  })

  it('a choice answering `caller:NAME` with no separator is a profile name, not a loop', () => {
    expect(readKey('caller:admin')).toEqual({ profile: 'caller:admin' })
    expect(servedAs('caller:admin', {})).toEqual({ profile: 'caller:admin' })
    expect(readKey(callerKey('bot', 'caller:admin'))).toEqual({ caller: 'bot', profile: 'caller:admin' })
  })

  it('a `tools:` answer with no profile part is a subset in the base profile, not one of a profile cut by a character', () => {
    expect(readKey('tools:a,b')).toEqual({ tools: ['a', 'b'] })
  })
})
