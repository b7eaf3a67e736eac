import type { JsonPointer, JsonSchemaObject, ParserSemantics, SchemaNotes } from '../types'
import type { JsonSchemaMethod, OriginalSchema } from './interface'
import { childPointer, isSchemaObject } from '../json'
import { CONSERVATIVE_SEMANTICS } from './interface'

/**
 * arktype tests RegExps with their flags (which its JSON drops), counts lengths in UTF-16 units,
 * keeps undeclared keys by default and vouches for no format a validator checks.
 */
export const ARKTYPE_SEMANTICS: ParserSemantics = { ...CONSERVATIVE_SEMANTICS }

interface ArktypeLike { 'internal': { json: unknown }, '~standard': { vendor: string } }

export function isArktype(schema: unknown): schema is ArktypeLike {
  const candidate = schema as Partial<ArktypeLike> | null
  // arktype's types and their nodes are callable.
  return typeof schema === 'function' && candidate?.['~standard']?.vendor === 'arktype' && candidate.internal !== undefined && candidate.internal !== null
}

/** The flags of each pattern arktype's own node tree lists, by source (several readings: the widest). */
function patternFlags(node: unknown, found = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(node)) {
    node.forEach(child => patternFlags(child, found))
  }
  else if (isSchemaObject(node)) {
    if (typeof node.rule === 'string' && typeof node.flags === 'string') {
      const readings = found.get(node.rule) ?? new Set()
      readings.add(node.flags)
      found.set(node.rule, readings)
    }
    for (const child of Object.values(node))
      patternFlags(child, found)
  }
  return found
}

/** Flags that read a pattern at least as widely as each of `readings` (a sticky reading only anchors, so it is left out when others differ). */
function widest(readings: Set<string>): string {
  if (readings.size === 1)
    return [...readings][0]!
  return [...new Set([...readings].join('').replace(/[yg]/g, ''))].join('')
}

function markPatterns(node: unknown, pointer: JsonPointer, flags: Map<string, Set<string>>, notes: SchemaNotes): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => markPatterns(child, childPointer(pointer, i), flags, notes))
    return
  }
  if (!isSchemaObject(node))
    return
  const readings = typeof node.pattern === 'string' ? flags.get(node.pattern) : undefined
  if (readings && widest(readings) !== '')
    notes[pointer] = { patternFlags: widest(readings) }
  for (const [key, child] of Object.entries(node))
    markPatterns(child, childPointer(pointer, key), flags, notes)
}

/** The arktype front end: its Standard JSON Schema, with the pattern flags its node tree still knows. */
export function arktypeOriginal(schema: ArktypeLike, convert: JsonSchemaMethod): OriginalSchema {
  const json = JSON.parse(JSON.stringify(convert({ target: 'draft-2020-12' }))) as JsonSchemaObject
  const notes: SchemaNotes = {}
  markPatterns(json, '', patternFlags(schema.internal.json), notes)
  return { schema: json, notes, semantics: ARKTYPE_SEMANTICS }
}
