import type { PresetName, SchemaConverters } from '@flatmcp/core'
import type { ModuleFlat, ModuleTool } from '../compile/compile-module'
import { ToolCompileError } from '../compile/compile-module'
import { checkSuperset, toolParts } from './superset'
import { rejectionPaths } from './validators'

/** Values generated per tool: enough to bend every string and number past its JSON a few times. */
const CROSS_CHECK_SAMPLES = 200

/** zod's front end reads what its JSON cannot show from zod itself; other libraries are checked by their own `validate`. */
function needsCrossCheck(schemas: unknown[]): boolean {
  return schemas.some(schema => (schema as { '~standard'?: { vendor?: unknown } } | undefined)?.['~standard']?.vendor !== 'zod')
}

/** An argument path (`/code`, `/items/0`) as the schema path a build error points at. */
function schemaPath(instancePath: string): string {
  return instancePath.split('/').slice(1).map(token => /^\d+$/.test(token) ? '/items' : `/properties/${token}`).join('')
}

/**
 * The build-time cross-check, for schema libraries whose JSON may leave out what their parser does
 * (a regex flag, a fallback, a check): values the library's own `validate` accepts, generated past
 * the JSON, must pass the flat schema under every client validator. A miss fails the build with the
 * counterexample.
 */
export async function crossCheck(tools: ModuleTool[], flats: ModuleFlat[], extendSchema: unknown, converters: SchemaConverters, preset: PresetName | 'auto' = 'auto'): Promise<void> {
  const entries = [
    ...tools.map(t => ({ exportName: t.exportName, tool: t.compiled.name as string | undefined, advertised: t.compiled.inputSchema, parts: toolParts(t.definition, extendSchema) })),
    ...flats.map(f => ({ exportName: f.exportName, tool: undefined, advertised: f.data.inputSchema, parts: [f.schema] })),
  ]
  for (const entry of entries) {
    if (entry.parts.length === 0 || !needsCrossCheck(entry.parts))
      continue
    const { counterexample } = await checkSuperset(entry.advertised, entry.parts, { samples: CROSS_CHECK_SAMPLES, seed: 1, relax: true, converters, preset })
    if (counterexample) {
      const value = JSON.stringify(counterexample.value)
      const at = rejectionPaths(entry.advertised as object, counterexample.value)[0] ?? ''
      throw new ToolCompileError(entry.exportName, entry.tool, 'input', schemaPath(at), `the flat schema rejects ${value}, which the schema library's own validate accepts (under ${counterexample.rejectedBy.join(', ')}): its JSON Schema leaves out what its parser accepts there; loosen that part of the schema (a regex flag, a fallback, a transform) or write it so its JSON says what it accepts`)
    }
  }
}
