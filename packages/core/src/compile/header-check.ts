import type { JsonPointer, JsonSchemaObject } from '../types'
import type { OriginalSchema } from '../frontend/original-schema'
import type { ToolDiagnostic } from './tool-types'
import { isSchemaObject, resolvePointer } from '../json'
import { declaredHeaders, HEADER_KEYWORD, headerViolations, misplacedHeaders } from '../profiles/headers'

/**
 * The header rule (`x-mcp-header`) on the advertised input: each place the originals declare a
 * header must stay primitive and reachable through `properties`; where it does not, the annotation
 * is dropped (a client would drop the whole tool) and the place is an error.
 */
export function checkHeaders(tool: string, originals: OriginalSchema[], advertised: JsonSchemaObject): ToolDiagnostic[] {
  const declared = new Map(originals.flatMap(original => [...declaredHeaders(original.schema)]))
  const lost = declared.size > 0 ? headerViolations(declared, advertised) : []
  const placed = new Set(lost.map(([path]) => path))
  const misplaced = misplacedHeaders(advertised).filter(([path]) => !placed.has(path)).map(([path, rule]): [JsonPointer, string] => [path, `${rule} (a client would drop the tool)`])
  return [...lost, ...misplaced].map(([path, message]) => {
    const node = resolvePointer(advertised, path)
    if (isSchemaObject(node))
      delete node[HEADER_KEYWORD]
    return { tool, schema: 'input', code: 'header-lost', severity: 'error', path, flatPath: path, message: `${message}; declare it with the same primitive type in every variant, or leave the header out (the annotation is dropped)` }
  })
}
