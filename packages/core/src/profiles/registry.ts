// Every profile by name: the two flattening profiles, the three target profiles, the built-in rules
// for a user's own profile, and the check that a schema is in a profile's form.
import type { JsonPointer, JsonSchema } from '../types'
import type { FlattenProfileName, ProfileName, TargetName } from './names'
import type { FlatteningProfile } from '../flatten/context'
import type { TargetProfile } from './apply'
import type { JsonSchemaObject } from '../types'
import { childPointer, hasOwn, isSchemaObject, jsonEqual, ownValue } from '../json'
import { anthropicLimits, anthropicShape, anthropicStrict, keepAnthropicKeywords } from './anthropic-strict'
import { applyTarget } from './apply'
import { misplacedHeaders } from './headers'
import { gemini, geminiNames, geminiTypes, keepGeminiKeywords } from './gemini'
import { annotatedFormats } from './formats'
import { minimal } from './minimal'
import { keepOpenAIKeywords, openaiLimits, openaiStrict } from './openai-strict'
import { FLATTEN_PROFILE_NAMES, PROFILE_NAMES } from './names'
import { portable, portableViolations } from './portable'
import { withoutSharedDefinitions } from './shared-definitions'
import { draftViolations } from './client-rules'
import { closeObjects, omitAbsentNulls, requireEveryKey } from './strict-objects'
import { encodeOpenObjects } from './json-text-rules'
import { keepKeywords } from './keep-keywords'
import { splitKinds } from './rules'

const FLATTENING: Record<FlattenProfileName, FlatteningProfile> = { portable, minimal }

/** A flattening profile by name (what `flattenSchema` takes). */
export function resolveProfile(name: FlattenProfileName): FlatteningProfile {
  const profile = ownValue(FLATTENING, name)
  if (!profile)
    throw new TypeError(`unknown flattening profile "${String(name)}"; expected one of ${FLATTEN_PROFILE_NAMES.map(n => `"${n}"`).join(', ')} (target profiles apply to whole tools: use compileTool)`)
  return profile
}

/** The built-in rules, for users who compose their own profile. */
export const targetRules = {
  annotatedFormats,
  closeObjects,
  encodeOpenObjects,
  omitAbsentNulls,
  requireEveryKey,
  splitKinds,
  keepKeywords,
  openaiLimits,
  anthropicShape,
  anthropicLimits,
  geminiTypes,
  geminiNames,
  keepOpenAIKeywords,
  keepAnthropicKeywords,
  keepGeminiKeywords,
}

export const TARGET_PROFILES: Record<TargetName, TargetProfile> = {
  'openai-strict': openaiStrict,
  'anthropic-strict': anthropicStrict,
  'gemini': gemini,
}

/** How a profile compiles: the flattening it starts from, and the target rules after it. */
export interface ResolvedProfile {
  flatten: FlattenProfileName
  profile?: TargetProfile
}

/** A profile by name or a user's own, checked once; an unknown name is an error that lists the known ones. */
export function resolveTarget(profile: ProfileName | TargetProfile): ResolvedProfile {
  if (typeof profile === 'object' && profile !== null) {
    if (typeof profile.name !== 'string' || !Array.isArray(profile.rules))
      throw new TypeError('a flatmcp target profile needs a string `name` and a `rules` array')
    return { flatten: 'portable', profile }
  }
  if ((FLATTEN_PROFILE_NAMES as readonly string[]).includes(profile))
    return { flatten: profile as FlattenProfileName }
  if (hasOwn(TARGET_PROFILES, profile))
    return { flatten: 'portable', profile: TARGET_PROFILES[profile as keyof typeof TARGET_PROFILES] }
  throw new TypeError(`unknown flatmcp profile "${String(profile)}"; expected one of ${PROFILE_NAMES.map(n => `"${n}"`).join(', ')}, or a profile object`)
}

/** The first pointer where two schemas differ, for a readable violation. */
function firstDifference(a: unknown, b: unknown, path: JsonPointer = ''): JsonPointer {
  const both = (Array.isArray(a) && Array.isArray(b)) || (isSchemaObject(a) && isSchemaObject(b))
  if (both) {
    const x = a as Record<string, unknown>
    const y = b as Record<string, unknown>
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!jsonEqual(x[key], y[key]))
        return firstDifference(x[key], y[key], childPointer(path, key))
    }
  }
  return path
}

/**
 * Where a schema breaks a profile's rules, as `pointer: rule` lines (empty when it holds). The
 * ship-time probe runs this on what ships. `minimal` promises no shape beyond flat object unions and
 * 2020-12's `required` and bounds (as every profile does). A target profile's output is a fixed point
 * of its rules: applied again, they change nothing.
 */
export function profileViolations(schema: JsonSchema, profile: ProfileName | TargetProfile = 'portable'): string[] {
  const headers = misplacedHeaders(schema).map(([path, rule]) => `${path || '/'}: ${rule}`)
  const leftovers = draftViolations(schema)
  return headers.length > 0 || leftovers.length > 0 ? [...headers, ...leftovers] : shapeViolations(schema, profile)
}

function shapeViolations(schema: JsonSchema, profile: ProfileName | TargetProfile): string[] {
  const resolved = resolveTarget(profile)
  if (!resolved.profile)
    return resolved.flatten === 'portable' ? portableViolations(schema) : []
  if (!isSchemaObject(schema))
    return ['/: not an object schema']
  // A target that reads `$defs` sees each shared definition where it is referenced.
  const read = resolved.profile.definitions === 'shared' ? withoutSharedDefinitions(schema) as JsonSchemaObject : schema
  const own = resolved.profile.violations?.(read) ?? []
  const again = applyTarget(read, resolved.profile)
  if (again.strict === false)
    return [...own, ...again.diagnostics.map(d => `${d.path || '/'}: ${d.message}`)]
  return jsonEqual(again.schema, read) && !again.decode ? own : [...own, `${firstDifference(read, again.schema) || '/'}: not in ${resolved.profile.name} form (its rules would still change it)`]
}
