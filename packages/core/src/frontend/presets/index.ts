// The parsers a generated JSON Schema may be written for, by name, and how a schema says which one.
import type { JsonSchemaObject, PresetName } from '../../types'
import type { Preset } from './preset'
import { ownValue } from '../../json'
import { PRESET_NAMES } from '../../profiles/names'
import { dotnetPreset } from './dotnet'
import { goPreset } from './go'
import { jsonSchemaPreset } from './json-schema'
import { pydanticPreset } from './pydantic'
import { serdePreset } from './serde'

export type { Preset } from './preset'

export const PRESETS: Record<PresetName, Preset> = {
  'json-schema': jsonSchemaPreset,
  'pydantic': pydanticPreset,
  'go': goPreset,
  'serde': serdePreset,
  'dotnet': dotnetPreset,
}

export { PRESET_NAMES } from '../../profiles/names'

/** A preset and why it was chosen. */
export interface PresetChoice {
  preset: Preset
  /** `option` when named by the caller; otherwise the fingerprints found (none: plain JSON Schema). */
  evidence: 'option' | string[]
}

/**
 * The preset a schema's (or a list of schemas') fingerprints point to: the generator with the
 * most, when no other has as many. A TypeScript generator's marks count for `json-schema`, which
 * is also what an unsure reading is.
 */
export function detectPreset(schema: JsonSchemaObject | readonly JsonSchemaObject[]): PresetChoice {
  // Over a server's whole list, each tool adds its fingerprints: a tool with none follows the rest.
  const schemas = Array.isArray(schema) ? schema : [schema]
  const scored = PRESET_NAMES.map(name => ({ preset: PRESETS[name], evidence: schemas.flatMap(one => PRESETS[name].fingerprints(one)) }))
  scored.sort((a, b) => b.evidence.length - a.evidence.length)
  const [best, next] = scored
  if (best && best.evidence.length > 0 && best.evidence.length > (next?.evidence.length ?? 0))
    return best
  return { preset: jsonSchemaPreset, evidence: scored.find(one => one.preset === jsonSchemaPreset)!.evidence }
}

/**
 * Why a preset was chosen, short enough for a log line: each kind of fingerprint once, with the
 * number of schemas it was found in (`22 schemas: root $schema with no title, …`).
 */
export function presetReason(choice: PresetChoice): string {
  if (choice.evidence === 'option')
    return 'as asked'
  if (choice.evidence.length === 0)
    return 'no generator\'s fingerprints found'
  // Each kind once: as found where one schema shows it, else with the number of schemas.
  const kinds = new Map<string, { n: number, found: string }>()
  for (const found of choice.evidence) {
    const kind = found.replace(/^\d+ /, '')
    kinds.set(kind, { n: (kinds.get(kind)?.n ?? 0) + 1, found })
  }
  return [...kinds].map(([kind, { n, found }]) => n === 1 ? found : `${n} schemas: ${kind}`).join('; ')
}

/** A preset by name, or detected (`auto`); an unknown name is an error that lists the known ones. */
export function choosePreset(schema: JsonSchemaObject, name: PresetName | 'auto' = 'auto'): PresetChoice {
  if (name === 'auto')
    return detectPreset(schema)
  const preset = ownValue(PRESETS, name)
  if (!preset)
    throw new TypeError(`unknown preset "${String(name)}"; expected "auto" or one of ${PRESET_NAMES.map(n => `"${n}"`).join(', ')}`)
  return { preset, evidence: 'option' }
}
