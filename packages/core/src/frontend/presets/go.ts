// encoding/json behind google/jsonschema-go (the Go MCP SDK, mcp-go's `WithInputSchema[T]`).
// - Structs are written closed (`additionalProperties: false`), maps open: the JSON says it.
// - A slice, map or pointer is `["null", T]`: `null` and a left-out key both leave it nil
//   (encoding/json docs, "Unmarshal": null sets an interface, map, pointer or slice to nil).
// - Patterns are RE2 (Go's regexp): `\s` is `[\t\n\f\r ]` and `.` is anything but `\n`.
// - jsonschema-go treats `format` as an annotation: no format is checked.
import type { Preset } from './preset'
import { countNodes, nullTypeArrays } from './preset'

export const goPreset: Preset = {
  name: 'go',
  generators: 'google/jsonschema-go (the Go MCP SDK, mcp-go)',
  semantics: { patternFlags: 'u', lengthUnit: 'codepoint', multipleOf: 'library', trustedFormats: [], unknownKeys: 'keep', objectKeys: 'own', nullAsAbsent: 'nullable' },
  regex: 're2',
  tagRequired: false,
  smartUnions: false,
  fingerprints(schema) {
    const found: string[] = []
    const nullFirst = nullTypeArrays(schema, true)
    if (nullFirst >= 1)
      found.push(`${nullFirst} ["null", T] type arrays (slices and pointers)`)
    const objects = countNodes(schema, node => node.type === 'object' && typeof node.properties === 'object')
    const closed = countNodes(schema, node => node.type === 'object' && typeof node.properties === 'object' && node.additionalProperties === false)
    if (objects > 0 && closed === objects && nullFirst >= 1)
      found.push(`every struct closed (${closed})`)
    return found
  },
}
