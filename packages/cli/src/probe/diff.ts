/**
 * A line diff of two texts in unified style (`-` only in `before`, `+` only in `after`), with a few
 * lines of context around each change. Longest-common-subsequence over lines; artifacts are small.
 */
export function lineDiff(before: string, after: string, beforeLabel: string, afterLabel: string, context = 2): string {
  const a = before.split('\n')
  const b = after.split('\n')
  if (a.length * b.length > 4_000_000) {
    // Too large for a full diff: show where the texts start to differ.
    const first = a.findIndex((line, n) => line !== b[n])
    const at = first === -1 ? a.length : first
    return [`--- ${beforeLabel}`, `+++ ${afterLabel}`, `@@ line ${at + 1}`, `- ${a[at] ?? ''}`, `+ ${b[at] ?? ''}`].join('\n')
  }
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => Array.from({ length: b.length + 1 }, () => 0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
  }
  const lines: { mark: ' ' | '-' | '+', text: string }[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i++]! })
      j++
    }
    else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      lines.push({ mark: '+', text: b[j++]! })
    }
    else {
      lines.push({ mark: '-', text: a[i++]! })
    }
  }
  const keep = lines.map((line, n) => lines.slice(Math.max(0, n - context), n + context + 1).some(l => l.mark !== ' '))
  const out = [`--- ${beforeLabel}`, `+++ ${afterLabel}`]
  lines.forEach((line, n) => {
    if (keep[n])
      out.push(`${line.mark} ${line.text}`)
    else if (keep[n - 1])
      out.push('  …')
  })
  return out.join('\n')
}
