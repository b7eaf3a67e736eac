// JSON read from a file that may hold secrets (a caller's token, a server's env): where it is no
// JSON, the error says what broke and the line and column, never the text there, as V8's own message
// does (`Unexpected token 'o', ..."ghp_…", "x": nope}" is not valid JSON`).
// Loaded at start by every command that reads a file (the proxy's snapshot among them): confbox's
// JSONC parser alone, not its index (YAML, TOML, JSON5, INI), and jsonc-parser only to say where a
// text that is no JSON broke.
import type * as JsoncParser from 'jsonc-parser'
import { parseJSONC } from 'confbox/jsonc'
import { createRequire } from 'node:module'

/** The line and column (from 1) of `offset` in `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n')
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`
}

/**
 * `text` parsed as JSON (with `comments`, as JSONC: comments and trailing commas), or a
 * `SyntaxError` naming only what broke and where. The value is the usual parser's (JSON.parse's own
 * `__proto__` keys and all); jsonc-parser only finds where it broke.
 */
export function parseJson(text: string, comments = false): unknown {
  try {
    return comments ? parseJSONC(text, { allowTrailingComma: true }) : JSON.parse(text) as unknown
  }
  catch {
    const { parse, printParseErrorCode } = createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser
    const errors: JsoncParser.ParseError[] = []
    parse(text, errors, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: false })
    const error = errors[0]
    throw new SyntaxError(`not JSON${error === undefined ? '' : ` (${printParseErrorCode(error.error)} at ${lineColumn(text, error.offset)})`}`)
  }
}
