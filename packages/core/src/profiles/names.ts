// Every built-in profile's and preset's name, once: the two profiles that shape the flattening, the
// three target profiles over `portable`, and the parsers a generated schema may be written for. A leaf
// with no imports (`@flatmcp/core/names`), so what needs only the names (the command reading its
// flags, a proxy compiling every target) loads nothing of the compiler with them.

/** The profiles that shape the flattening: how far it flattens. */
export const FLATTEN_PROFILE_NAMES = ['portable', 'minimal'] as const

/** The target profiles: rules over `portable` for one vendor's strict or restricted schemas. */
export const TARGET_NAMES = ['openai-strict', 'anthropic-strict', 'gemini'] as const

/** Every built-in profile, the flattening ones first. */
export const PROFILE_NAMES: ProfileName[] = [...FLATTEN_PROFILE_NAMES, ...TARGET_NAMES]

export type FlattenProfileName = typeof FLATTEN_PROFILE_NAMES[number]
export type TargetName = typeof TARGET_NAMES[number]
/** `portable` and `minimal` shape the flattening; the others are target profiles over `portable`. */
export type ProfileName = FlattenProfileName | TargetName

/**
 * What a client of a profile takes of an object: keys its schema does not name (`openObjects`: else
 * such an object is sent as JSON text), and the `additionalProperties` keyword (Gemini's API takes
 * none). Each built-in profile's, once: the target profiles carry theirs as `objects`, and the runtime
 * reads the table where it writes schemas of its own (the search surface's tools) without the compiler.
 */
export interface ObjectFacts { openObjects: boolean, additionalProperties: boolean }

export const PROFILE_OBJECTS: Readonly<Record<ProfileName, ObjectFacts>> = {
  'portable': { openObjects: true, additionalProperties: true },
  'minimal': { openObjects: true, additionalProperties: true },
  'openai-strict': { openObjects: false, additionalProperties: true },
  'anthropic-strict': { openObjects: false, additionalProperties: true },
  'gemini': { openObjects: false, additionalProperties: false },
}

const PRESETS_NAMED = ['json-schema', 'pydantic', 'go', 'serde', 'dotnet'] as const

/** A parser a generated JSON Schema may be written for (each a preset of `frontend/presets/`). */
export type PresetName = typeof PRESETS_NAMED[number]

/** Every preset, `json-schema` (no generator's parser) first. */
export const PRESET_NAMES: PresetName[] = [...PRESETS_NAMED]
