// The rule that keeps only the keywords a target reads, saying which it dropped: dropping only widens.
import type { JsonSchemaObject } from '../types'
import type { TargetRule } from './rules'
import { ANNOTATIONS } from '../keywords'
import { childPointer, isSchemaObject } from '../json'

/** Drops every keyword not in `kept` (annotations aside), saying which, as `info`: dropping only widens. */
export function keepKeywords(name: string, kept: ReadonlySet<string>, annotations: ReadonlySet<string> = ANNOTATIONS): TargetRule {
  return {
    name,
    options: { kept: [...kept].sort(), annotations: [...annotations].sort() },
    node(node, path, ctx) {
      const dropped = Object.keys(node).filter(keyword => !kept.has(keyword))
      if (dropped.length === 0)
        return node
      const out = { ...node }
      for (const keyword of dropped) {
        delete out[keyword]
        if (!annotations.has(keyword))
          ctx.report('keyword-dropped', 'info', childPointer(path, keyword), `"${keyword}" is not accepted by ${ctx.profile}; dropped (the schema only gets wider)`)
      }
      // Keys the dropped keyword let in would be refused by a closed object: it is open now, so it
      // gets wider as said (and a strict profile advertises it as JSON text).
      if (admitsKeys(node, dropped) && out.additionalProperties !== true)
        out.additionalProperties = true
      return out
    },
  }
}

/** Whether one of the `dropped` keywords let in keys that `additionalProperties` does not: pattern keys, or unevaluated keys. */
export function admitsKeys(node: JsonSchemaObject, dropped: readonly string[]): boolean {
  const patterns = dropped.includes('patternProperties') && isSchemaObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0
  const unevaluated = dropped.includes('unevaluatedProperties') && node.unevaluatedProperties !== false && node.unevaluatedProperties !== undefined
  return patterns || unevaluated
}
