// Texts found not to be JSON, by the arguments they came in: each reading of them parses a text at
// most once (a failed parse costs the whole text, and a strict profile tries several readings).

/** Texts found not to be JSON, by the arguments they came in: each reading of them parses a text at most once. */
const notJsonTexts = new WeakMap<object, Set<string>>()
/**
 * The set for arguments none of whose texts has failed yet: kept for them only once one has, so
 * clean arguments cost no set and no entry (a `WeakMap` entry per call costs more than the walk).
 */
let unfailed = new Set<string>()

export function notJsonOf(args: unknown): Set<string> | undefined {
  if (typeof args !== 'object' || args === null)
    return undefined
  return notJsonTexts.get(args) ?? unfailed
}

export function keepNotJson(args: unknown, texts: Set<string> | undefined): void {
  if (texts !== unfailed || texts.size === 0)
    return
  notJsonTexts.set(args as object, texts)
  unfailed = new Set()
}
