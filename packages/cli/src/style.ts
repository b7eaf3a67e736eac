/** ANSI styling on a terminal, plain text when piped or when NO_COLOR is set. */
export function createStyle(stream: { isTTY?: boolean } = process.stdout): Record<'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', (text: string) => string> {
  const on = Boolean(stream.isTTY) && !process.env.NO_COLOR
  const wrap = (open: number, close: number) => (text: string): string => on ? `\x1B[${open}m${text}\x1B[${close}m` : text
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) }
}

/** The columns a report is wrapped to on a terminal; piped, a line stays whole (one finding, one line to grep). */
export const widthOf = (stream: { isTTY?: boolean, columns?: number } = process.stdout): number => stream.isTTY && stream.columns ? Math.max(60, stream.columns) : Infinity

/** Lines of at most `width` visible characters, broken between words; the lines after the first indented by `indent`. */
export function wrapWords(text: string, width: number, indent = '  '): string[] {
  // eslint-disable-next-line no-control-regex
  const visible = (line: string): number => line.replace(/\x1B\[\d+m/g, '').length
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`
    if (line !== '' && visible(next) > width) {
      lines.push(line)
      line = `${indent}${word}`
    }
    else {
      line = next
    }
  }
  lines.push(line)
  return lines
}

/** A line wrapped to `width` (see `wrapWords`), each further line indented two past the first's own indent. */
export function wrapLine(line: string, width: number): string {
  const lead = /^ */.exec(line)![0]
  return wrapWords(line.slice(lead.length), width - lead.length).map(part => `${lead}${part}`).join('\n')
}
