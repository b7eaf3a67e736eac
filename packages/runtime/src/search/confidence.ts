// How well a tool fits a query, on a scale that does not depend on the other tools: the share of the
// query's words the tool holds, each weighed by its rarity among the tools (a word no tool holds
// weighs little), a word met in a tool's description counting less than one in its name or first
// sentence. Below a floor nothing fits: find_tools says so, and names the closest as such.
import type { AskedWord } from './query-words'
import type { Nearby, WordIndex } from './word-index'
import { FIELDS, rarity, saturated, standIns } from './word-index'

/** Under this fit, no tool fits the query: the closest are named as such. */
export const NOTHING_FITS_BELOW = 0.15

/**
 * How much a word no tool holds (nor any stand-in of it) weighs against the rarest word the tools
 * hold: a little. A task's everyday words and its names ("tonight", "Alice", "Acme") say little of
 * whether a tool fits; weighed in full, they told a memory task that no tool fits it.
 */
const UNKNOWN_WEIGHT = 0.15

/** A word's score where it stands once in a tool's first sentence: what counts as held in full. */
const HELD_IN_FULL = saturated(FIELDS.lead.weight)

/** How much a query's word weighs in a fit: its share times its rarity (else its commonest stand-in's, else an unknown word's). */
export function wordWeight(index: WordIndex, { word, share }: AskedWord, nearby?: Nearby): number {
  const own = index.postings.get(word)?.length
  const held = own ?? Math.max(0, ...standIns(index, word, nearby).map(([each]) => index.postings.get(each)?.length ?? 0))
  return share * (held > 0 ? rarity(index, held) : UNKNOWN_WEIGHT * rarity(index, 0))
}

/** What a word's score in a tool adds to its fit: its weight where held in full, less where only a stand-in or the description holds it. */
export function heldWeight(score: number, weight: number): number {
  return Math.min(weight, score / HELD_IN_FULL)
}
