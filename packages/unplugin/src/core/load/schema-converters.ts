import type { SchemaConverters } from '@flatmcp/core'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { manifestOf } from './package-version'

type Exports = Record<string, string | { import?: unknown } | undefined>

/** A package's ESM entry for `subpath`, as the project resolves it, imported: the instance its tool modules import. */
async function importFromProject(root: string, name: string, subpath: string): Promise<Record<string, unknown> | undefined> {
  try {
    const manifestPath = manifestOf(root, name)
    const exports = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Exports }).exports
    const target = exports?.[subpath]
    const entry = typeof target === 'string' ? target : target?.import
    const file = typeof entry === 'string' ? entry : isConditions(entry) ? entry.default : undefined
    if (typeof file !== 'string')
      return undefined
    return await import(pathToFileURL(path.join(path.dirname(manifestPath), file)).href) as Record<string, unknown>
  }
  catch {
    return undefined
  }
}

function isConditions(entry: unknown): entry is { default?: unknown } {
  return typeof entry === 'object' && entry !== null
}

/**
 * The converters schema libraries keep outside their schemas, from the project's own copy of each
 * library: zod's `toJSONSchema` (for `zod/mini` schemas) and `@valibot/to-json-schema`'s
 * `toJsonSchema` (for plain valibot schemas). A library the project does not have is left out.
 */
export async function loadConverters(root: string, libraryOptions: SchemaConverters['libraryOptions'] = {}): Promise<SchemaConverters> {
  const [zodCore, valibotJson] = await Promise.all([
    importFromProject(root, 'zod', './v4/core'),
    importFromProject(root, '@valibot/to-json-schema', '.'),
  ])
  const converters: SchemaConverters = { libraryOptions }
  if (typeof zodCore?.toJSONSchema === 'function')
    converters.zodToJSONSchema = zodCore.toJSONSchema as SchemaConverters['zodToJSONSchema']
  if (typeof valibotJson?.toJsonSchema === 'function')
    converters.valibotToJsonSchema = valibotJson.toJsonSchema as SchemaConverters['valibotToJsonSchema']
  return converters
}
