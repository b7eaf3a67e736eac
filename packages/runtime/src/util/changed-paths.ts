// Where two JSON values differ, as JSON Pointers (RFC 6901): what a call's repair changed, said
// without a value. Bounded: a few dozen paths, a few dozen levels deep.

const MAX_PATHS = 64
const MAX_DEPTH = 32

const escaped = (key: string): string => key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function walk(before: unknown, after: unknown, at: string, depth: number, into: string[]): void {
  if (into.length >= MAX_PATHS || Object.is(before, after))
    return
  if (depth < MAX_DEPTH && isRecord(before) && isRecord(after)) {
    // Each key once, in the order of `before` then the keys only `after` has (no set of them made: this runs on every heard call).
    for (const key of Object.keys(before))
      walk(before[key], Object.hasOwn(after, key) ? after[key] : undefined, `${at}/${escaped(key)}`, depth + 1, into)
    for (const key of Object.keys(after)) {
      if (!Object.hasOwn(before, key))
        walk(undefined, after[key], `${at}/${escaped(key)}`, depth + 1, into)
    }
    return
  }
  if (depth < MAX_DEPTH && Array.isArray(before) && Array.isArray(after)) {
    for (let index = 0; index < Math.max(before.length, after.length); index++)
      walk(before[index], after[index], `${at}/${index}`, depth + 1, into)
    return
  }
  into.push(at === '' ? '/' : at)
}

/** The JSON Pointers where `after` differs from `before` (`"/"` for the whole value), at most 64. */
export function changedPaths(before: unknown, after: unknown): string[] {
  const paths: string[] = []
  walk(before, after, '', 0, paths)
  return paths
}
