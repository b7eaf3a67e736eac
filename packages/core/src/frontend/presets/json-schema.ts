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
  // What TypeScript generators write and the others do not: zod's `toJSONSchema` and
  // zod-to-json-schema name the dialect at the root with no title (the TypeScript SDK lists both);
  // pydantic, Go's and .NET's exporters name no dialect, and schemars titles its root.
  fingerprints(schema) {
    if (typeof schema.$schema === 'string' && schema.title === undefined)
      return [`root $schema with no title, as zod writes it for the TypeScript SDK`]
    return []
  },
}
