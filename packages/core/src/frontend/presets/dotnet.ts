// System.Text.Json behind the C# MCP SDK's schema exporter.
// - Unknown keys are ignored (JsonSerializerOptions' default `UnmappedMemberHandling.Skip`).
// - A nullable parameter with a default is `["T", "null"]` with `default: null`: left out or
//   `null`, the method gets null (modelcontextprotocol/csharp-sdk #1426).
// - Patterns run on .NET's Regex: `\d`, `\w` and `\s` are Unicode classes.
import type { Preset } from './preset'
import { countNodes } from './preset'

export const dotnetPreset: Preset = {
  name: 'dotnet',
  generators: 'the C# MCP SDK (System.Text.Json\'s JsonSchemaExporter)',
  semantics: { patternFlags: 'u', lengthUnit: 'utf16', multipleOf: 'library', trustedFormats: [], unknownKeys: 'strip', objectKeys: 'own', nullAsAbsent: 'default-null' },
  regex: 'dotnet',
  tagRequired: false,
  smartUnions: false,
  fingerprints(schema) {
    const found: string[] = []
    const nullDefaults = countNodes(schema, node => node.default === null && Array.isArray(node.type) && node.type[1] === 'null')
    if (nullDefaults >= 1 && typeof schema.$schema !== 'string')
      found.push(`${nullDefaults} [T, "null"] type arrays with default null (nullable parameters)`)
    return found
  },
}
