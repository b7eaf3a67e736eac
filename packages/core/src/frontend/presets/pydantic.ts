// pydantic v2, as the official Python SDK (`MCPServer`, `{func}Arguments` models) and FastMCP use it.
// - Unknown keys are ignored unless `extra="forbid"` (which writes `additionalProperties: false`):
//   pydantic docs, "Models > Extra data".
// - A missing key takes its default, so `x: str | None = None` reads a left-out key and `null` alike.
// - A discriminated union needs its tag even where the tag has a default (PrefectHQ/fastmcp #4280).
// - A union without a tag ("smart mode") picks the branch with the most fields set, and a field
//   sent as `null` is set: there, `null` and a left-out key may choose different branches (pydantic
//   docs, "Unions > Smart mode").
// - Patterns run on the Rust `regex` crate, where `\d`, `\w`, `\s` are Unicode classes and `.` is
//   anything but `\n` (pydantic docs, "regex_engine"); lengths count code points (Python's `len`).
// - Formats are checked by pydantic's own parsers (an `EmailStr`, a `UUID` without hyphens, a
//   datetime with a space), looser than format-asserting validators: none is vouched for.
import type { Preset } from './preset'
import { countNodes, noneDefaults, restatesKey } from './preset'

export const pydanticPreset: Preset = {
  name: 'pydantic',
  generators: 'pydantic v2 (the official Python MCP SDK, FastMCP)',
  semantics: { patternFlags: 'u', lengthUnit: 'codepoint', multipleOf: 'library', trustedFormats: [], unknownKeys: 'strip', objectKeys: 'own', nullAsAbsent: 'default-null' },
  regex: 'rust',
  tagRequired: true,
  smartUnions: true,
  fingerprints(schema) {
    const found: string[] = []
    if (typeof schema.title === 'string' && /Arguments$/.test(schema.title))
      found.push(`root title "${schema.title}" (pydantic's {func}Arguments model)`)
    const titled = countNodes(schema, (node, key) => key !== undefined && restatesKey(node.title, key))
    if (titled >= 2)
      found.push(`${titled} properties titled after their keys`)
    const nones = noneDefaults(schema)
    if (nones >= 1)
      found.push(`${nones} anyOf [T, null] with default null (X | None = None)`)
    const mapped = countNodes(schema, node => typeof node.discriminator === 'object' && node.discriminator !== null && 'mapping' in node.discriminator)
    if (mapped >= 1)
      found.push(`${mapped} OpenAPI discriminator with a mapping`)
    return found
  },
}
