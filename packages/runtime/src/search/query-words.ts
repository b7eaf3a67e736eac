// What a query's words say of the tool it needs, apart from the values it will pass: a domain, a
// path, a quoted string, a version, an id or a number is an argument, not evidence for a tool's name
// ("3.2" is no spec version tool, a folder named like a product is not that product's server). A
// file's extension stays (it says which program), and so does a token the tools' words hold
// ("s3", "ec2"); an identifier made of words (`new-checkout-flow`) counts, at a lower share.
import { wordsOf } from './words'

/** How much of a query is read: its first characters, and the first distinct words of those. */
export const QUERY_BOUNDS = { chars: 4096, words: 64 } as const

/**
 * The longest run without a space read for values and words, and the longest quote: a longer run is
 * one value (a token, a hash, a blob), a longer quote is words. The value patterns read no further
 * from any one place, so a 4 KiB query costs them a bounded multiple of its length, not its square.
 */
const MAX_RUN = 128
const MAX_QUOTED = 256
/** A run past `MAX_RUN`, and what it leaves: a link's mark, else nothing. */
const LONG_RUN = new RegExp(`(?<!\\S)\\S{${MAX_RUN + 1},}`, 'g')
const LINK = /^[a-z][a-z0-9+.-]{0,31}:\/\//i

/** How much a word of an identifier (a flag's, a branch's name) counts beside a word of the task. */
const IDENTIFIER_SHARE = 0.35

/** Endings that make a dotted name a domain (a value), not a file whose extension names its program. */
const DOMAIN_ENDINGS = new Set(['com', 'org', 'net', 'io', 'dev', 'ai', 'app', 'co', 'us', 'uk', 'de', 'fr', 'eu', 'info', 'biz', 'gov', 'edu', 'me', 'xyz', 'cloud', 'site', 'tech', 'sh', 'so', 'gg', 'tv', 'ly', 'in', 'jp', 'ca', 'au', 'nl', 'es', 'it', 'ch', 'se', 'local', 'internal', 'example', 'test', 'invalid'])

/** A value's kinds, in the order they are read out of a query, and what each leaves of it. */
const VALUES: readonly { kind: string, pattern: RegExp, leaves?: (match: string) => string }[] = [
  { kind: 'quoted', pattern: new RegExp(`"[^"\\n]{0,${MAX_QUOTED}}"|“[^”\\n]{0,${MAX_QUOTED}}”|‘[^’\\n]{0,${MAX_QUOTED}}’|\`[^\`\\n]{0,${MAX_QUOTED}}\`|(?<![\\p{L}\\p{N}])'[^'\\n]{0,${MAX_QUOTED}}'(?![\\p{L}\\p{N}])`, 'gu') },
  { kind: 'url', pattern: /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, leaves: () => ' url ' },
  { kind: 'email', pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, leaves: () => ' email ' },
  { kind: 'path', pattern: /(?:~|\.{1,2})?(?:[\w.@-]*[/\\])+[\w.@-]*/g, leaves: extensionOf },
  { kind: 'version', pattern: /(?<![\w.])v?\d+(?:\.\d+)+(?:-[\w.]+)?(?![\w.])/gi },
  { kind: 'dotted', pattern: /(?<![\w.])[\w-]+(?:\.[\w-]+)+/g, leaves: extensionOf },
  { kind: 'id', pattern: /[#@][\w.-]+|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
  { kind: 'number', pattern: /(?<![\p{L}\d])\d+(?:[.,:]\d+)*(?![\p{L}\d])/gu },
]

/** What a dotted name or a path leaves: a file's extension (`budget.xlsx`: xlsx), nothing of a domain. */
function extensionOf(match: string): string {
  const last = /\.([a-z][a-z0-9]{0,4})$/i.exec(match)?.[1]?.toLowerCase()
  return last === undefined || DOMAIN_ENDINGS.has(last) ? ' ' : ` ${last} `
}

/** One word of a query and how much it counts. */
export interface AskedWord { word: string, share: number }

/** Words joined by `_`, `-` or camelCase: an identifier (a flag's, a branch's name), unless a tool is so named. */
const JOINED = /^(?=.*\p{L})(?:[\p{L}\p{N}]+[_-])+[\p{L}\p{N}]+$|^\p{Ll}+\p{Lu}[\p{L}\p{N}]*$/u
/** Letters with digits (`s3`, `user42`): a word where the tools' words hold it, else a value. */
const ALPHANUMERIC = /^(?=.*\p{L})(?=.*\d)[\p{L}\p{N}]+$/u

/** How much a query's token counts for each of its words. */
function shareOf(token: string, word: string, known: (word: string) => boolean, joined: boolean): number {
  if (ALPHANUMERIC.test(token))
    return known(word) ? 1 : 0
  return joined ? IDENTIFIER_SHARE : 1
}

/**
 * The words of a query, values read out, within its bounds (a query's cost does not grow past them);
 * `known` says whether the tools' words hold a word, `names` which tokens are tools' own names.
 */
export function askedWords(query: string, known: (word: string) => boolean, names: ReadonlySet<string> = new Set()): AskedWord[] {
  // "17%" asks for a percentage once its number is read out.
  let text = query.slice(0, QUERY_BOUNDS.chars).replace(/%/g, ' percent ').replace(LONG_RUN, run => LINK.test(run) ? ' url ' : ' ')
  for (const { pattern, leaves } of VALUES)
    text = text.replace(pattern, match => leaves?.(match) ?? ' ')
  // The first distinct words are read, a value's or not: what follows them costs nothing.
  const shares = new Map<string, number>()
  for (const [token] of text.matchAll(/[\p{L}\p{N}_-]+/gu)) {
    const trimmed = token.replace(/^[-_]+|[-_]+$/g, '')
    const joined = JOINED.test(trimmed) && !names.has(trimmed.toLowerCase())
    for (const word of wordsOf(trimmed)) {
      if (shares.size >= QUERY_BOUNDS.words && !shares.has(word))
        break
      shares.set(word, Math.max(shares.get(word) ?? 0, shareOf(trimmed, word, known, joined)))
    }
  }
  return [...shares].filter(([, share]) => share > 0).map(([word, share]) => ({ word, share }))
}
