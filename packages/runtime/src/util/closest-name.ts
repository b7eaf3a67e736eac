// "Did you mean": the known name a mistyped one was most likely meant as, for every place a name is
// read from an author or an operator (tool keys, options, profiles, command-line options).

/** Edits (one character inserted, deleted or replaced) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0
  for (const char of long) {
    if (char === short[i])
      i++
  }
  return i === short.length
}

/**
 * The known name `typed` was most likely meant as: the nearest by edits, if at most 3 away and under
 * half the name, or one that starts with the other. Undefined when none is close.
 */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  let best: { name: string, far: number, within: boolean } | undefined
  for (const name of known) {
    const far = editDistance(typed.toLowerCase(), name.toLowerCase())
    // Of two as near, the one that holds every typed letter in order: a letter left out (`profils`) is the likeliest slip.
    const within = isSubsequence(typed.toLowerCase(), name.toLowerCase())
    if (best === undefined || far < best.far || (far === best.far && within && !best.within))
      best = { name, far, within }
  }
  if (best === undefined)
    return undefined
  const near = best.far <= Math.min(3, Math.ceil(best.name.length / 2))
  return near || (typed.length > 1 && (best.name.startsWith(typed) || typed.startsWith(best.name))) ? best.name : undefined
}

/** `"descripton" (did you mean "description"?)`, or `"descripton"` when no known name is close. */
export function namedWithGuess(typed: string, known: Iterable<string>): string {
  const meant = closestName(typed, known)
  return meant === undefined ? JSON.stringify(typed) : `${JSON.stringify(typed)} (did you mean ${JSON.stringify(meant)}?)`
}

/**
 * The keys of `object` that are not among `known`, each said with its guess: what an error lists for
 * an object an author wrote with a mistyped key (which would otherwise be silently ignored).
 */
export function unknownKeys(object: object, known: readonly string[]): string[] {
  return Object.keys(object).filter(key => !known.includes(key)).map(key => namedWithGuess(key, known))
}
