// Patterns written for another regex engine, read as ECMAScript's unicode mode (what JSON Schema
// validators compile) with the same meaning: each class escape and dot the engines read otherwise
// is spelled out, and a pattern with a construct that has no exact spelling is given up on.

/** The regex engine a pattern was written for. */
export type RegexDialect = 'ecmascript' | 'rust' | 're2' | 'dotnet'

interface Spelling {
  /** Escapes spelled out, outside a class and inside one (`undefined` inside: no exact spelling there). */
  escapes: Record<string, [string, string | undefined]>
  /** What `.` matches. */
  dot: string
  /** What `$` matches outside a class. */
  end: string
}

const RUST_WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}'
const DOTNET_WORD = '\\p{L}\\p{Mn}\\p{Nd}\\p{Pc}'
const DOTNET_SPACE = '\\f\\n\\r\\t\\v\\x85\\p{Z}'

const SPELLINGS: Record<Exclude<RegexDialect, 'ecmascript'>, Spelling> = {
  // regex crate docs, "Perl character classes (Unicode friendly)".
  rust: {
    escapes: { d: ['\\p{Nd}', '\\p{Nd}'], D: ['\\P{Nd}', '\\P{Nd}'], s: ['\\p{White_Space}', '\\p{White_Space}'], S: ['\\P{White_Space}', '\\P{White_Space}'], w: [`[${RUST_WORD}]`, RUST_WORD], W: [`[^${RUST_WORD}]`, undefined] },
    dot: '[^\\n]',
    end: '$',
  },
  // Go regexp/syntax docs: ASCII `\d`, `\w`, `\b`; `\s` is `[\t\n\f\r ]`.
  re2: {
    escapes: { s: ['[\\t\\n\\f\\r ]', '\\t\\n\\f\\r '], S: ['[^\\t\\n\\f\\r ]', undefined] },
    dot: '[^\\n]',
    end: '$',
  },
  // .NET "Character classes in regular expressions"; `$` also matches before a final `\n`.
  dotnet: {
    escapes: { d: ['\\p{Nd}', '\\p{Nd}'], D: ['\\P{Nd}', '\\P{Nd}'], w: [`[${DOTNET_WORD}]`, DOTNET_WORD], W: [`[^${DOTNET_WORD}]`, undefined], s: [`[${DOTNET_SPACE}]`, DOTNET_SPACE], S: [`[^${DOTNET_SPACE}]`, undefined] },
    dot: '[^\\n]',
    end: '(?=\\n?$)',
  },
}

/** Escapes that mean another thing per engine, or nothing in ECMAScript: no exact spelling. */
const UNSPELLABLE_ESCAPES = new Set('bBAzZpPQEGxhHKRX')

/** The pattern as ECMAScript unicode mode reads it with the same meaning, or why it cannot be. */
export function ecmascriptPattern(source: string, dialect: RegexDialect): { pattern: string } | { untranslatable: string } {
  if (dialect === 'ecmascript')
    return { pattern: source }
  const spelling = SPELLINGS[dialect]
  let out = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!
    if (char === '\\') {
      const next = source[i + 1]
      if (next === undefined)
        return { untranslatable: 'it ends in a lone backslash' }
      i++
      const spelled = spelling.escapes[next]
      if (spelled) {
        const text = spelled[inClass ? 1 : 0]
        if (text === undefined)
          return { untranslatable: `\\${next} inside a class has no ECMAScript spelling` }
        out += text
      }
      else if (UNSPELLABLE_ESCAPES.has(next) && !(dialect === 're2' && (next === 'b' || next === 'B'))) {
        return { untranslatable: `\\${next} means something else to ECMAScript` }
      }
      else {
        out += `\\${next}`
      }
      continue
    }
    if (inClass) {
      if (char === ']') {
        inClass = false
      }
      else if (char === '[' || ((char === '&' || char === '-' || char === '~') && source[i + 1] === char)) {
        return { untranslatable: 'a class holds a nested class or a set operation' }
      }
      out += char
      continue
    }
    if (char === '[') {
      inClass = true
      out += char
      if (source[i + 1] === '^')
        out += source[++i]
      // A `]` first in a class is a literal to these engines.
      if (source[i + 1] === ']') {
        out += '\\]'
        i++
      }
    }
    else if (char === '.') {
      out += spelling.dot
    }
    else if (char === '$') {
      out += spelling.end
    }
    else if (char === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2)
      if (rest.startsWith('P<')) {
        out += '(?<'
        i += 3
      }
      else if (/^[:=!]|^<[=!]|^<[A-Za-z_]/.test(rest)) {
        out += char
      }
      else {
        return { untranslatable: 'it sets flags inline or uses a group ECMAScript lacks' }
      }
    }
    else {
      out += char
    }
  }
  try {
    void new RegExp(out, 'u')
  }
  catch {
    return { untranslatable: 'it is not valid in ECMAScript\'s unicode mode' }
  }
  return { pattern: out }
}

/**
 * What puts a pattern outside the regex subset every model route compiles (OpenAI's refuses the
 * whole request for one: lookaround in Figma's server, can1357/oh-my-pi #2784; `\p{…}`, zed #60474):
 * its first such construct named, or undefined. A class or escape that only looks like one counts
 * too: moving a pattern into the description only widens.
 */
export function uncommonRegexConstruct(pattern: string): string | undefined {
  const constructs: [RegExp, string][] = [
    [/\(\?<?[=!]/, 'lookaround'],
    [/\\[1-9]|\\k</, 'a backreference'],
    [/\\[pP]\{/, 'a Unicode property escape (\\p{…})'],
    [/\(\?[a-zA-Z-]+[:)]/, 'inline flags'],
  ]
  return constructs.find(([shape]) => shape.test(pattern))?.[1]
}
