/** A position in an original source, from a source map. */
export interface OriginalPosition {
  source: string
  /** 1-based, as editors show it. */
  line: number
  /** 1-based. */
  column: number
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** The numbers of one base64 VLQ segment. */
function decodeSegment(segment: string): number[] {
  const values: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = BASE64.indexOf(char)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return values
}

/**
 * Where a generated position (1-based line and column) comes from, by a source map (version 3): the
 * last mapping at or before it on its line. Undefined when the line maps nothing.
 */
export function originalPosition(map: { sources: string[], mappings: string }, line: number, column: number): OriginalPosition | undefined {
  let source = 0
  let originalLine = 0
  let originalColumn = 0
  let found: OriginalPosition | undefined
  const lines = map.mappings.split(';')
  for (let index = 0; index < lines.length && index < line; index++) {
    let generatedColumn = 0
    for (const segment of lines[index]!.split(',')) {
      if (segment === '')
        continue
      const [columnDelta, sourceDelta, lineDelta, originalColumnDelta] = decodeSegment(segment)
      generatedColumn += columnDelta!
      if (sourceDelta === undefined)
        continue
      source += sourceDelta
      originalLine += lineDelta!
      originalColumn += originalColumnDelta!
      if (index === line - 1 && generatedColumn <= column - 1)
        found = { source: map.sources[source]!, line: originalLine + 1, column: originalColumn + 1 }
    }
  }
  return found
}

/** The source map inlined at the end of generated code (`//# sourceMappingURL=data:…;base64,…`). */
export function inlineSourceMap(code: string): { sources: string[], mappings: string } | undefined {
  const match = /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(code)
  return match ? JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as { sources: string[], mappings: string } : undefined
}
