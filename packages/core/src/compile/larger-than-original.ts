import type { JsonSchemaObject } from '../types'
import { isSchemaObject } from '../json'

/**
 * Why an advertised schema is larger than its original, in JSON characters, by what it spells out
 * that the original did not: undefined when it is not larger.
 */
export function largerThanOriginal(advertised: JsonSchemaObject, originalSize: number, profile: string, strict: boolean): string | undefined {
  const size = JSON.stringify(advertised).length
  if (originalSize === 0 || size <= originalSize)
    return undefined
  const counts = { any: 0, wrapped: 0, hints: 0, text: 0, classes: 0 }
  const visit = (node: unknown): void => {
    if (Array.isArray(node))
      return node.forEach(visit)
    if (!isSchemaObject(node))
      return
    // The typed "any" shape nests itself in `items`: one place.
    if (Array.isArray(node.type) && node.type.length >= 6) {
      counts.any++
      return
    }
    const description = typeof node.description === 'string' ? node.description : ''
    if (description.includes('{"value": ...}'))
      counts.wrapped++
    if (/Only for |Required when /.test(description))
      counts.hints++
    if (description.includes('Send as JSON text'))
      counts.text++
    if (typeof node.pattern === 'string' && node.pattern.includes('\\p{'))
      counts.classes++
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword !== 'enum' && keyword !== 'const' && keyword !== 'default' && keyword !== 'examples')
        visit(child)
    }
  }
  visit(advertised)
  const reasons = [
    counts.any > 0 && `"any value" spelled as a typed shape at ${counts.any} place${counts.any === 1 ? '' : 's'} (clients send an untyped value as JSON text)`,
    counts.wrapped > 0 && `${counts.wrapped} optional key${counts.wrapped === 1 ? '' : 's'} that take${counts.wrapped === 1 ? 's' : ''} null wrapped as {"value": ...} (a strict model must tell null from a left-out key)`,
    counts.text > 0 && `${counts.text} place${counts.text === 1 ? '' : 's'} advertised as JSON text with a note saying so`,
    counts.hints > 0 && `per-variant hints on ${counts.hints} key${counts.hints === 1 ? '' : 's'} a union merged`,
    counts.classes > 0 && `${counts.classes} pattern${counts.classes === 1 ? '' : 's'} whose escapes are spelled out as the parser's regex engine reads them`,
    strict && 'every key required and every object closed, as strict mode wants',
  ].filter((reason): reason is string => typeof reason === 'string')
  return `the ${profile} schema is ${Math.round((size / originalSize - 1) * 100)}% larger than the original (${originalSize} → ${size} characters of JSON): ${reasons.length > 0 ? reasons.join('; ') : 'the shape the profile needs'}`
}
