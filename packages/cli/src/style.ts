/** ANSI styling on a terminal, plain text when piped or when NO_COLOR is set. */
export function createStyle(stream: { isTTY?: boolean } = process.stdout): Record<'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', (text: string) => string> {
  const on = Boolean(stream.isTTY) && !process.env.NO_COLOR
  const wrap = (open: number, close: number) => (text: string): string => on ? `\x1B[${open}m${text}\x1B[${close}m` : text
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) }
}
