// `anthropic-strict`: what Anthropic's strict tool use accepts, and its per-request budget.
import type { JsonSchema } from '../types'
import type { TargetProfile } from './apply'
import type { TargetRule } from './rules'
import { childPointer, isSchemaObject } from '../json'
import { closeObjects } from './strict-objects'
import { encodeOpenObjects, scalarEnums } from './json-text-rules'
import { keepKeywords } from './keep-keywords'
import { splitKinds, visitNodes } from './rules'
import { annotatedFormats } from './formats'
import { withoutSharedDefinitions } from './shared-definitions'
import { PROFILE_OBJECTS } from './names'

/** Anthropic's limits on the strict tools of one request. */
export const ANTHROPIC_LIMITS = { tools: 20, optional: 24, unions: 16 }

/** Keywords Anthropic's strict mode keeps as they are (its SDK moves the rest into descriptions). */
const ANTHROPIC_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'title', 'description', 'format', 'minItems'])

/** What one tool spends of Anthropic's per-request budget of strict parameters. */
export function anthropicCost(schema: JsonSchema): { optional: number, unions: number } {
  let optional = 0
  let unions = 0
  // Counted as the definitions expand: each use of a shared shape spends the budget again.
  visitNodes(withoutSharedDefinitions(schema), (node) => {
    if (isSchemaObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : [])
      optional += Object.keys(node.properties).filter(key => !required.has(key)).length
    }
    if (Array.isArray(node.anyOf) || Array.isArray(node.type))
      unions++
  })
  return { optional, unions }
}

export const anthropicShape: TargetRule = {
  name: 'anthropic-shape',
  node(node, path, ctx) {
    const out = { ...node }
    // Only 0 and 1 are taken; a larger bound is dropped (wider).
    if (typeof out.minItems === 'number' && out.minItems > 1) {
      delete out.minItems
      ctx.report('keyword-dropped', 'info', childPointer(path, 'minItems'), 'Anthropic strict takes minItems 0 or 1 only; dropped (the schema only gets wider)')
    }
    // Its SDK reads an enum without its `type` (and drops the `type`).
    if (Array.isArray(out.enum))
      delete out.type
    return out
  },
}

export const anthropicLimits: TargetRule = {
  name: 'anthropic-limits',
  document(schema, ctx) {
    const cost = anthropicCost(schema)
    if (cost.optional > ANTHROPIC_LIMITS.optional)
      ctx.fallback('', `${cost.optional} optional parameters (Anthropic takes ${ANTHROPIC_LIMITS.optional} per request)`)
    if (cost.unions > ANTHROPIC_LIMITS.unions)
      ctx.fallback('', `${cost.unions} union parameters (Anthropic takes ${ANTHROPIC_LIMITS.unions} per request)`)
  },
}

export const keepAnthropicKeywords = keepKeywords('anthropic-keywords', ANTHROPIC_KEYWORDS)

export const anthropicStrict: TargetProfile = {
  name: 'anthropic-strict',
  strict: true,
  rules: [keepAnthropicKeywords, annotatedFormats, scalarEnums, encodeOpenObjects, closeObjects, splitKinds(true), anthropicShape, anthropicLimits],
  vendor: 'Anthropic',
  objects: PROFILE_OBJECTS['anthropic-strict'],
  definitions: 'shared',
  requestBudget: {
    limits: ANTHROPIC_LIMITS,
    cost: schema => ({ tools: 1, ...anthropicCost(schema) }),
    words: { tools: 'strict tools', optional: 'optional parameters', unions: 'union parameters' },
  },
}
