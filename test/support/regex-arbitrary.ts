// Generated JavaScript patterns, flags and strings: legacy-mode syntax, case, lines, surrogates.
import fc from 'fast-check'

const atom = fc.oneof(
  fc.constantFrom('a', 'B', 'é', 'É', 'k', 'S', 'ſ', 'µ', '1', ' ', '\\n', '\\.', '\\-', '\\/', '\\u00e9', '\\x41', '\\101', '\\0', '\\cJ', '\\k', '\\q', '😀', '\\uD83D'),
  fc.constantFrom('.', '\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '\\b', '[a-z]', '[^a-z]', '[A-Z0-9_-]', '[\\s\\S]', '[^]', '[\\w-]', '[é-ï]', '[\\u00C0-\\u00FF]', '[\\uD800-\\uDFFF]', '[😀]', '[\\b]', '[-a]', '[a\\-z]'),
)
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?', '{', '{,2}')
const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q)
const sequence = fc.array(piece, { minLength: 1, maxLength: 5 }).map(parts => parts.join(''))
export const pattern = fc.tuple(
  fc.constantFrom('', '^', '(?:', '(', '(?=a)', '(?<!b)'),
  sequence,
  fc.option(sequence, { nil: undefined }),
  fc.constantFrom('', '$', ')', ')$'),
).map(([open, body, alternative, close]) => {
  const groups = (open.match(/\((?!\?[=!<])/g) ?? []).length
  const closing = close.includes(')') ? close : `${close}${')'.repeat(groups)}`
  return `${open}${body}${alternative === undefined ? '' : `|${alternative}`}${closing.includes(')') && groups === 0 ? closing.replace(')', '') : closing}`
})
export const flags = fc.subarray(['i', 'm', 's', 'u', 'y', 'g'], { maxLength: 3 }).map(list => list.join(''))
export const text = fc.string({ maxLength: 8, unit: fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'k', 'K', 's', 'S', 'ſ', 'µ', 'Μ', '1', ' ', '\n', '.', '-', '/', '😀', '\uD83D', 'J', '\u212A') })

