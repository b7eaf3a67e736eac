// The start-up checks over what the proxy serves (issue 68): each file's problems at their JSON
// paths, a gateway's server that is down at start left to when it is back, and a check of another
// file plugged in beside the overrides'.
import type { ServedAtStart, StartupCheck } from '@flatmcp/runtime/proxy'
import { overridesProblems, readOverrides, startupProblems } from '@flatmcp/runtime/proxy'
import { describe, expect, it } from 'vitest'

const served = (names: string[], unmatched: string[] = [], down: string[] = []): ServedAtStart =>
  ({ names: new Set(names), unmatched, down: name => down.some(server => name.startsWith(`${server}__`)) })

describe('startupProblems', () => {
  it('says each tool the overrides name that the list lacks, and each view\'s tool not served or hidden, at its path', () => {
    const overrides = readOverrides({ tools: { gh__delete_repo: { hide: true }, gh__merge: { hide: true } }, views: { triage: { tools: ['gh__list_issues', 'gh__merge', 'gh__list_isues'] } } })
    const checks: StartupCheck[] = [{ file: 'ov.json', root: 'overrides', problems: overridesProblems(overrides) }]
    expect(startupProblems(served(['gh__list_issues', 'gh__delete_repository'], ['gh__delete_repo']), checks)).toEqual([
      'ov.json: overrides.tools["gh__delete_repo"]: the upstream lists no tool "gh__delete_repo" (did you mean "gh__delete_repository"?); the overrides name tools as the proxy serves them',
      'ov.json: overrides.views["triage"].tools[1]: tool "gh__merge" is hidden by the overrides, so the view cannot serve it',
      'ov.json: overrides.views["triage"].tools[2]: no tool "gh__list_isues" is served (did you mean "gh__list_issues"?)',
    ])
  })

  it('leaves a name under the prefix of a server down at start to when it is back, and takes a check of another file beside', () => {
    const overrides = readOverrides({ tools: { mem__create: { hide: true } }, views: { v: { tools: ['mem__read'] } } })
    const rules: StartupCheck = { file: 'callers.json', root: 'callers', problems: names => names.names.has('gh__x') ? [] : [{ path: '.rules[0].tools[0]', message: 'no tool "gh__x" is served' }] }
    expect(startupProblems(served(['gh__y'], ['mem__create'], ['mem']), [{ file: 'ov.json', root: 'overrides', problems: overridesProblems(overrides) }, rules])).toEqual([
      'callers.json: callers.rules[0].tools[0]: no tool "gh__x" is served',
    ])
    expect(startupProblems(served(['gh__x'], [], []), [rules])).toEqual([])
  })
})
