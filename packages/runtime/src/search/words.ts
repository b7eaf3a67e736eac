// The words a tool search reads: lowercase, camelCase and snake_case split, words that say nothing of
// which tool is meant left out, each reduced to a common stem.

/** Words that say nothing of which tool is meant. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'by', 'from', 'at', 'is', 'it', 'as', 'be', 'this', 'that', 'my', 'me', 'i', 'all', 'some', 'using', 'use', 'tool', 'tools', 'how', 'are', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'will', 'you', 'your', 'we', 'our', 'they', 'their', 'there', 'any', 'please', 'want', 'need', 'into', 'than', 'then', 'so', 'if', 'just', 'its', 'am', 'has', 'have', 'been', 'these', 'those', 'them', 'about', 'it\'s', 'what\'s', 's'])

/** Lowercase words, camelCase and snake_case split, each reduced to a common stem. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // "17%" asks for a percentage as "17 percent" does.
    .replace(/%/g, ' percent ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(word => word !== '' && !STOP_WORDS.has(word))
    .map(stem)
}

/** A word without the endings that make its other forms alike ("issues" and "issue"; "created" and "create"). */
export function stem(word: string): string {
  let out = word
  if (out.length > 4 && out.endsWith('ies'))
    out = `${out.slice(0, -3)}y`
  else if (out.endsWith('sses'))
    out = out.slice(0, -2)
  else if (out.length > 3 && out.endsWith('s') && !out.endsWith('ss'))
    out = out.slice(0, -1)
  for (const ending of ['ing', 'ed']) {
    if (out.length - ending.length >= 3 && out.endsWith(ending))
      out = out.slice(0, -ending.length)
  }
  return out.length > 4 && out.endsWith('e') ? out.slice(0, -1) : out
}
