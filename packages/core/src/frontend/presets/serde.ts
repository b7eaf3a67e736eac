// serde behind schemars 1.x (Rust's rmcp `Parameters<T>`).
// - Structs ignore unknown keys unless `#[serde(deny_unknown_fields)]` (which schemars writes as
//   `additionalProperties: false`): serde docs, "Container attributes".
// - `Option<T>` is `["T", "null"]` and not required: a left-out key and `null` are both `None`.
// - Patterns (from `#[schemars(regex)]`) run on the Rust `regex` crate: Unicode `\d`, `\w`, `\s`.
// - Integer widths are `format: uint32`, `int64`…: serde rejects what does not fit, as validators
//   do with the bounds schemars writes beside them.
import type { Preset } from './preset'
import { countNodes, nullTypeArrays } from './preset'

/** Widths only schemars writes; OpenAPI's `int32`, `int64`, `float` and `double` are in TypeScript servers' lists too. */
const SCHEMARS_WIDTHS = new Set(['int8', 'int16', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uint128', 'int128'])
const OPENAPI_WIDTHS = new Set(['int32', 'int64', 'float', 'double'])

export const serdePreset: Preset = {
  name: 'serde',
  generators: 'schemars 1.x (the Rust MCP SDK, rmcp)',
  semantics: { patternFlags: 'u', lengthUnit: 'codepoint', multipleOf: 'library', trustedFormats: [], unknownKeys: 'strip', objectKeys: 'own', nullAsAbsent: 'nullable' },
  regex: 'rust',
  tagRequired: false,
  smartUnions: false,
  fingerprints(schema) {
    const found: string[] = []
    // OpenAPI's widths count where the root names schemars's dialect (2020-12).
    const dialect = schema.$schema === 'https://json-schema.org/draft/2020-12/schema'
    const widths = countNodes(schema, node => typeof node.format === 'string' && (SCHEMARS_WIDTHS.has(node.format) || (dialect && OPENAPI_WIDTHS.has(node.format))))
    if (widths >= 1)
      found.push(`${widths} integer-width formats (format: uint32, int64…)`)
    if (widths >= 1 && nullTypeArrays(schema, false) >= 1)
      found.push('[T, "null"] type arrays (Option<T>)')
    return found
  },
}
