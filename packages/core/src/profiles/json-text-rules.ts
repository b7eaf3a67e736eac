// What a target cannot say in its schema, sent as JSON text the inverse map parses back: scalar enums
// beside their kinds, and open objects.
import type { JsonPointer, JsonSchemaObject } from '../types'
import type { Kind } from '../keywords'
import type { TargetContext, TargetRule } from './rules'
import { splitByKind } from '../flatten/facets'
import { withSentence } from '../keywords'
import { childPointer } from '../json'
import { onlyObject, withRestKey } from './rest-key'
import { isOpenObject, kindsOf, takesNull } from './rules'

/** A summary of what JSON text at a place holds, for the model. */
function jsonNote(node: JsonSchemaObject): string {
  const kinds = kindsOf(node).filter(kind => kind !== 'null')
  if (kinds.length === 0 && kindsOf(node).includes('null'))
    return 'Send null.'
  const what = kinds.length === 0 || kinds.length >= 5 ? 'any JSON value' : kinds.map(kind => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`).join(' or ')
  // How to write a string matters only where a string is one of the values.
  const takesString = kinds.length === 0 || kinds.length >= 5 || kinds.includes('string')
  return `Send as JSON text (${what}${takesString ? '; a string as a quoted JSON string' : ''}).`
}

/**
 * Advertises a node as a string holding its value as JSON text; the inverse map parses it back.
 * `null` stays a plain `null` where the node takes it, so an optional key can still be left out.
 */
export function encodeAsJson(node: JsonSchemaObject, path: JsonPointer, ctx: TargetContext, nullable: 'type' | 'keyword'): JsonSchemaObject {
  ctx.encode(path)
  const note = jsonNote(node)
  const out: JsonSchemaObject = { type: 'string' }
  for (const annotation of ['title', 'description'])
    if (typeof node[annotation] === 'string')
      out[annotation] = node[annotation]
  out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note
  if (takesNull(node)) {
    if (nullable === 'type')
      out.type = ['string', 'null']
    else
      out.nullable = true
  }
  ctx.report('encoded-as-json', 'info', path, `${ctx.profile} cannot describe this value (${kindsOf(node).join(', ') || 'any'}${isOpenObject(node, ctx.keepsUnknownKeys) ? ', open object' : ''}); advertised as JSON text that the server parses back`)
  return out
}

/**
 * An `enum` with an array or object among its values is dropped (wider): a strict target advertises
 * what is inside an array or object anew (items as JSON text, keys wrapped), and the literal values
 * then no longer fit the place they stand (`[[false]]` beside items sent as `"false"`).
 */
export const scalarEnums: TargetRule = {
  name: 'scalar-enums',
  node(node, path, ctx) {
    if (!Array.isArray(node.enum) || node.enum.every(value => typeof value !== 'object' || value === null))
      return node
    const { enum: _dropped, ...out } = node
    ctx.report('keyword-dropped', 'info', childPointer(path, 'enum'), `an enum of arrays or objects is not kept by ${ctx.profile}, which advertises their contents anew; dropped (the schema only gets wider)`)
    return out
  },
}

/** Kinds whose values are never strings: beside JSON text they can stay as they are. */
const NOT_STRINGS = new Set<Kind>(['number', 'integer', 'boolean'])
const KIND_WORDS: Record<string, string> = { number: 'a number', integer: 'an integer', boolean: 'a boolean' }

/**
 * Objects with unknown keys are closed, a strict target closing every object: one that is an object
 * (or null) and nothing else keeps its named keys and gets a rest key for the others (`rest-key.ts`);
 * at a place of other kinds too, the object becomes JSON text. Where the place also takes numbers or booleans with bounds of their own (`maximum`, an enum), those stay a branch
 * as they are, bounds and all, beside the JSON text (which the inverse map parses only from a string).
 */
export const encodeOpenObjects: TargetRule = {
  name: 'encode-open-objects',
  node(node, path, ctx) {
    if (!isOpenObject(node, ctx.keepsUnknownKeys))
      return node
    // An object and nothing else keeps its named keys, and the others go in the rest key.
    if (onlyObject(node))
      return withRestKey(node, path, ctx)
    if (path === '')
      return node
    const facets = [...splitByKind(node).kinds].filter(([kind]) => NOT_STRINGS.has(kind)).map(([, facet]) => facet)
    if (!facets.some(facet => Object.keys(facet).some(keyword => keyword !== 'type')))
      return encodeAsJson(node, path, ctx, 'type')
    const { description: _note, ...text } = encodeAsJson(node, path, ctx, 'type')
    const kept = facets.map(facet => KIND_WORDS[facet.type as string]).join(' or ')
    return { description: withSentence(node.description, `Send ${kept} as is; anything else as JSON text (a string as a quoted JSON string).`), anyOf: [...facets, text] }
  },
}
