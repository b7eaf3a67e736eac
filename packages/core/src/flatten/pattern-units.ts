// Code units and ranges of them as unicode-mode pattern text, and closed over JavaScript's legacy case folding.

/** The characters a pattern gives a meaning; written as themselves they are escaped. */
export const SYNTAX = new Set('^$\\.*+?()[]{}|/')

let canonical: Uint16Array | undefined
let groups: Map<number, number[]> | undefined

/** JavaScript's non-unicode case canonicalization (ECMA-262 Canonicalize), for every code unit. */
export function caseGroups(): { canonical: Uint16Array, groups: Map<number, number[]> } {
  if (!canonical || !groups) {
    canonical = new Uint16Array(0x10000)
    groups = new Map()
    for (let unit = 0; unit < 0x10000; unit++) {
      const upper = String.fromCharCode(unit).toUpperCase()
      const mapped = upper.length === 1 ? upper.charCodeAt(0) : unit
      const canon = unit >= 128 && mapped < 128 ? unit : mapped
      canonical[unit] = canon
      const group = groups.get(canon)
      if (group)
        group.push(unit)
      else
        groups.set(canon, [unit])
    }
  }
  return { canonical, groups }
}

export function hex4(unit: number): string {
  return `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`
}

/** One code unit as unicode-mode pattern text, outside a class or inside one. */
export function unitText(unit: number, inClass: boolean): string {
  const char = String.fromCharCode(unit)
  if (/[\w ]/.test(char) && unit < 128)
    return char
  if (unit > 32 && unit < 127)
    return (inClass ? '\\^-[]' : [...SYNTAX].join('')).includes(char) ? `\\${char}` : char
  return hex4(unit)
}

export type Range = [number, number]

/** Ranges as class text. A trail-surrogate range goes first, so no lead escape ever precedes it. */
export function rangesText(ranges: Range[]): string {
  const trail = (r: Range): boolean => r[0] >= 0xDC00 && r[0] <= 0xDFFF
  const ordered = [...ranges.filter(trail), ...ranges.filter(r => !trail(r))]
  return ordered.map(([lo, hi]) => lo === hi ? unitText(lo, true) : `${unitText(lo, true)}${hi === lo + 1 ? '' : '-'}${unitText(hi, true)}`).join('')
}

function toRanges(members: Uint8Array): Range[] {
  const ranges: Range[] = []
  for (let unit = 0; unit < members.length; unit++) {
    if (!members[unit])
      continue
    let end = unit
    while (end + 1 < members.length && members[end + 1])
      end++
    ranges.push([unit, end])
    unit = end
  }
  return ranges
}

const closedClasses = new Map<string, Range[]>()

/** Every unit case-equivalent to one in `ranges` (remembered: a pattern may repeat a class many times). */
export function caseClosed(ranges: Range[]): Range[] {
  const key = JSON.stringify(ranges)
  let closed = closedClasses.get(key)
  if (!closed) {
    closed = closeOverCase(ranges)
    closedClasses.set(key, closed)
  }
  return closed
}

function closeOverCase(ranges: Range[]): Range[] {
  const { canonical, groups } = caseGroups()
  const members = new Uint8Array(0x10000)
  for (const [lo, hi] of ranges) {
    for (let unit = lo; unit <= hi; unit++) {
      for (const other of groups.get(canonical[unit]!)!)
        members[other] = 1
    }
  }
  return toRanges(members)
}

export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const out: Range[] = []
  for (const range of sorted) {
    const last = out.at(-1)
    if (last && range[0] <= last[1] + 1)
      last[1] = Math.max(last[1], range[1])
    else
      out.push([...range])
  }
  return out
}
