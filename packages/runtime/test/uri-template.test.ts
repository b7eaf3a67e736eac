// A resource's URI matched against the templates servers list (RFC 6570, levels 1 to 4), to read it
// from the server whose template makes it: every URI a template expands to is matched, one whose
// literal part differs is not, and a template or URI past its bound is never matched.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_MATCHED_URI_CHARS, MAX_TEMPLATE_CHARS, templateMatcher } from '../src/proxy/upstream/gateway/uri-template'

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&'
interface Expression { operator: Operator, variables: { name: string, value?: string }[] }

/** RFC 6570's expansion of an expression, its values already encoded (section 3.2). */
function expanded({ operator, variables }: Expression): string {
  const defined = variables.filter((variable): variable is { name: string, value: string } => variable.value !== undefined)
  if (defined.length === 0)
    return ''
  const named = (variable: { name: string, value: string }, empty: string): string => `${variable.name}${variable.value === '' ? empty : `=${variable.value}`}`
  switch (operator) {
    case '': case '+': return defined.map(variable => variable.value).join(',')
    case '#': return `#${defined.map(variable => variable.value).join(',')}`
    case '.': case '/': return `${operator}${defined.map(variable => variable.value).join(operator)}`
    case ';': return `;${defined.map(variable => named(variable, '')).join(';')}`
    case '?': case '&': return `${operator}${defined.map(variable => named(variable, '=')).join('&')}`
  }
}

const unreserved = fc.string({ unit: fc.constantFrom(...'abcxyz019-._~'), maxLength: 8 })
const reserved = fc.string({ unit: fc.constantFrom(...'abc19-._~/:?=&,'), maxLength: 8 })
const expression: fc.Arbitrary<Expression> = fc.constantFrom<Operator>('', '+', '#', '.', '/', ';', '?', '&').chain(operator => fc.record({
  operator: fc.constant(operator),
  variables: fc.array(fc.record({ name: fc.stringMatching(/^[a-z]\w{0,5}$/), value: fc.option(operator === '+' || operator === '#' ? reserved : unreserved, { nil: undefined }) }, { requiredKeys: ['name'] }), { minLength: 1, maxLength: 3 }),
}))
const literal = fc.string({ unit: fc.constantFrom(...'abz:/.-'), maxLength: 6 })
/** A template: literals and expressions in turn, a scheme first. */
const template = fc.tuple(fc.constantFrom('notes://', 'file:///', 'x:'), fc.array(fc.tuple(expression, literal), { maxLength: 4 }))

const templateOf = ([scheme, parts]: [string, [Expression, string][]]): string => scheme + parts.map(([e, text]) => `{${e.operator}${e.variables.map(v => v.name).join(',')}}${text}`).join('')
const uriOf = ([scheme, parts]: [string, [Expression, string][]]): string => scheme + parts.map(([e, text]) => expanded(e) + text).join('')

describe('resource templates', () => {
  it('match every URI they expand to, at every level (RFC 6570\'s own examples among them)', () => {
    const cases: [string, string][] = [
      ['notes://{id}', 'notes://7'],
      ['github://repos/{owner}/{repo}/issues/{n}', 'github://repos/a/b/issues/3'],
      ['file:///{+path}', 'file:///home/ada/notes.md'],
      ['wiki://search{?q,limit}', 'wiki://search?q=mcp&limit=3'],
      ['wiki://search{?q,limit}', 'wiki://search'],
      ['map://{x,y}', 'map://1024,768'],
      ['site://x{/path*}{?query*}', 'site://x/a/b?k=v&l=w'],
      ['site://x{.ext}{;p}{#frag}', 'site://x.json;p=1#top'],
      ['x:{var:3}', 'x:val'],
    ]
    for (const [t, uri] of cases)
      expect(templateMatcher(t)!(uri), `${t} ${uri}`).toBe(true)
    fc.assert(fc.property(template, parts => templateMatcher(templateOf(parts))!(uriOf(parts))), { numRuns: 2000 })
  })

  it('do not match a URI of another scheme or a simple variable\'s value with a slash; a template that is none, or past its bound, is never matched', () => {
    expect(templateMatcher('notes://{id}')!('notes://a/b')).toBe(false)
    expect(templateMatcher('notes://{id}')!('wiki://7')).toBe(false)
    fc.assert(fc.property(template, parts => !templateMatcher(templateOf(parts))!(`other:${uriOf(parts)}`)), { numRuns: 500 })
    for (const broken of ['notes://{id', 'notes://id}', 'notes://{}', 'notes://{=x}', 'notes://{a b}'])
      expect(templateMatcher(broken), broken).toBeUndefined()
    expect(templateMatcher(`x:${'{a}'.repeat(MAX_TEMPLATE_CHARS)}`)).toBeUndefined()
    // The longest template of variables side by side, against the longest URI: each character read once per step, no backtracking.
    const crowded = templateMatcher(`x:${'{a}b'.repeat((MAX_TEMPLATE_CHARS - 2) / 4)}`)!
    expect(crowded(`x:${'b'.repeat(MAX_MATCHED_URI_CHARS - 3)}c`)).toBe(false)
    expect(templateMatcher('x:{+a}')!(`x:${'a'.repeat(MAX_MATCHED_URI_CHARS)}`)).toBe(false)
  })
})
