// Every built-in profile's name, once: the two that shape the flattening and the three target
// profiles over `portable`. A leaf with no imports, so a runtime that needs only the names (a proxy
// compiling every target) bundles nothing of the compiler with them.

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
