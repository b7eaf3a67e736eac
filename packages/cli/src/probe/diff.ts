/**
 * A line diff of two pretty-printed JSON texts in unified style: what only `before` has (`-`), then
 * what only `after` has (`+`), a few lines of context around each change. Each hunk is headed by the
 * JSON path it is at; a change made alike at several places (a tool's schema in every profile an
 * artifact holds) is shown once, with the other places listed. Longest common subsequence over lines.
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
  const beforePaths = linePaths(a)
  const afterPaths = linePaths(b)
  const lines: { mark: ' ' | '-' | '+', text: string, path: string }[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i]!, path: beforePaths[i]! })
      i++
      j++
    }
    else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      lines.push({ mark: '-', text: a[i]!, path: beforePaths[i]! })
      i++
    }
    else {
      lines.push({ mark: '+', text: b[j]!, path: afterPaths[j]! })
      j++
    }
  }

  // Hunks: each change with its context, joined where they touch.
  const keep = lines.map((_, n) => lines.slice(Math.max(0, n - context), n + context + 1).some(l => l.mark !== ' '))
  const hunks: (typeof lines)[] = []
  lines.forEach((line, n) => {
    if (!keep[n])
      return
    if (n === 0 || !keep[n - 1])
      hunks.push([])
    hunks.at(-1)!.push(line)
  })
  // A change made alike elsewhere (its lines the same but for indentation) is said once.
  const shown: { hunk: typeof lines, at: string, also: string[] }[] = []
  const byChange = new Map<string, (typeof shown)[number]>()
  for (const hunk of hunks) {
    const changed = hunk.filter(line => line.mark !== ' ')
    const key = changed.map(line => `${line.mark}${line.text.trim()}`).join('\n')
    const at = changed[0]!.path
    const same = byChange.get(key)
    if (same) {
      same.also.push(at)
      continue
    }
    const entry = { hunk, at, also: [] }
    byChange.set(key, entry)
    shown.push(entry)
  }
  const out = [`--- ${beforeLabel}`, `+++ ${afterLabel}`]
  for (const { hunk, at, also } of shown) {
    out.push(`@@ ${at}`)
    out.push(...hunk.map(line => `${line.mark} ${line.text}`))
    if (also.length > 0)
      out.push(`@@ the same change at ${also.join(', ')}`)
  }
  return out.join('\n')
}

/**
 * The JSON path (a JSON pointer) of each line of pretty-printed JSON: the key or index the line
 * holds, under the containers it is in; a closing line has its container's path.
 */
export function linePaths(lines: readonly string[]): string[] {
  // The container each depth's lines are in; an item of an array is named by its index.
  const containers: { path: string, count: number }[] = []
  const escape = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1')
  return lines.map((line) => {
    const trimmed = line.trim()
    const depth = Math.floor((line.length - line.trimStart().length) / 2)
    if (/^[}\]],?$/.test(trimmed)) {
      const closed = containers[depth]?.path
      containers.length = Math.min(containers.length, depth)
      return closed || '/'
    }
    containers.length = Math.min(containers.length, depth)
    const parent = containers[depth - 1]
    const key = /^"((?:[^"\\]|\\.)*)":/.exec(trimmed)
    const token = key ? safeString(key[1]!) : String(parent ? parent.count++ : 0)
    const path = depth === 0 ? '' : `${parent?.path ?? ''}/${escape(token)}`
    if (/[{[]$/.test(trimmed))
      containers[depth] = { path, count: 0 }
    return path || '/'
  })
}

/** A JSON string's text read back (as written between its quotes); as it is when it does not parse. */
function safeString(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string
  }
  catch {
    return text
  }
}
