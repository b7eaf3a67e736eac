// A strict JSON Schema validator is the parser: every keyword means what validators read. The
// default whenever no generator's fingerprints are clear.
import type { Preset } from './preset'

export const jsonSchemaPreset: Preset = {
  name: 'json-schema',
  generators: 'hand-written JSON Schema, or any generator whose server validates arguments with a JSON Schema validator',
  semantics: { patternFlags: 'u', lengthUnit: 'codepoint', multipleOf: 'validator', trustedFormats: 'all', unknownKeys: 'keep', objectKeys: 'own', nullAsAbsent: 'never' },
  regex: 'ecmascript',
  tagRequired: false,
  smartUnions: false,
  fingerprints: () => [],
}
