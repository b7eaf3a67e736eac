// How much of a command's stderr the proxy passes on: 64 KiB a second, the rest of that second's left
// out and said once, so a command that floods it costs the proxy little (and the proxy's own stderr,
// which may drain slower than the command writes, holds little).

/** The most of a command's stderr written in one second. */
export const STDERR_CHARS_PER_SECOND = 64 * 1024

/** What the cut is said as, after the lines' own prefix. */
export const STDERR_CUT = `… (its stderr past ${STDERR_CHARS_PER_SECOND / 1024} KiB a second is left out)`

/** `pass` for each line within the second's budget; past it, `cut` once a second, and nothing else. */
export function stderrBudget(pass: (line: string) => void, cut: () => void, now: () => number = Date.now): (line: string) => void {
  const second = { start: 0, chars: 0 }
  return (line) => {
    const time = now()
    if (time - second.start >= 1000)
      Object.assign(second, { start: time, chars: 0 })
    second.chars += line.length + 1
    if (second.chars <= STDERR_CHARS_PER_SECOND)
      pass(line)
    else if (second.chars - line.length - 1 <= STDERR_CHARS_PER_SECOND)
      cut()
  }
}
