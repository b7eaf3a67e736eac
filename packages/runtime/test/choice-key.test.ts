// The profile choice's answer read back (issue 69): a key the reader did not build (a choice of the
// operator's may answer any text) is read without looping or cutting a name short.
import { describe, expect, it } from 'vitest'
import { callerKey, readKey, servedAs, subsetKey, viewKey } from '../src/service/choice-key'

describe('readKey', () => {
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
