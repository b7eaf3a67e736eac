import type { JsonSchemaObject } from '../types'
import type { ResolvedProfile } from '../profiles/registry'
import type { ToolDiagnostic } from './tool-types'
import { resolvePointer } from '../json'
import { withLoosenedCopies } from '../profiles/loosened-copies'
import { withSharedDefinitions } from '../profiles/shared-definitions'

/**
 * What the flattening wrote out more than once, bounded: said once in `$defs` where the profile's
 * clients read them, else (`portable`) loosened past its first place while the schema is larger than the original.
 */
export function boundedCopies(schema: JsonSchemaObject, target: ResolvedProfile, strict: boolean | undefined, originalSize: number, tool: string, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  const bounded = boundedSchema(schema, target, strict, originalSize, tool, diagnostics)
  if (bounded === schema)
    return schema
  // A place now behind a `$ref` or inside a loosened copy is named by the nearest one still there.
  for (const diagnostic of diagnostics) {
    if (diagnostic.schema === 'output' || diagnostic.flatPath === undefined || resolvePointer(schema, diagnostic.flatPath) === undefined)
      continue
    while (diagnostic.flatPath !== '' && resolvePointer(bounded, diagnostic.flatPath) === undefined)
      diagnostic.flatPath = diagnostic.flatPath.slice(0, diagnostic.flatPath.lastIndexOf('/'))
  }
  return bounded
}

function boundedSchema(schema: JsonSchemaObject, target: ResolvedProfile, strict: boolean | undefined, originalSize: number, tool: string, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  if (target.profile?.definitions === 'shared' && strict === true)
    return withSharedDefinitions(schema)
  // What is served as `portable`: that profile, or a strict one's fallback.
  const portable = target.profile ? strict === false : target.flatten === 'portable'
  if (!portable || originalSize === 0)
    return schema
  const { schema: bounded, kept } = withLoosenedCopies(schema, originalSize)
  if (kept.length > 0)
    diagnostics.push({ tool, schema: 'input', code: 'size-limit', severity: 'info', path: '', message: `inlining the original's $refs made the schema larger than the original; ${kept.length === 1 ? 'a shape' : `${kept.length} shapes`} written out more than once ${kept.length === 1 ? 'keeps its' : 'keep their'} keys at the first place only (${kept.slice(0, 3).map(at => `\`${at}\``).join(', ')}${kept.length > 3 ? ', …' : ''}), and the other copies say where` })
  return bounded
}
