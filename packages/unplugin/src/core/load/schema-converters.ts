import type { SchemaConverters } from '@flatmcp/core'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The converters schema libraries keep outside their schemas, from the project's own copy of each
 * library (the copy its tool modules import): zod's `toJSONSchema`, for `zod/mini` schemas. A library
 * the project does not have is left out.
 */
export async function loadConverters(root: string): Promise<SchemaConverters> {
  try {
    const manifestPath = createRequire(path.join(root, 'package.json')).resolve('zod/package.json')
    const exports = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, { import?: unknown }> }).exports
    const entry = exports?.['./v4/core']?.import
    if (typeof entry !== 'string')
      return {}
    // The ESM entry, as tool modules import zod: the same module instance as theirs.
    const core = await import(pathToFileURL(path.join(path.dirname(manifestPath), entry)).href) as { toJSONSchema?: unknown }
    return typeof core.toJSONSchema === 'function' ? { zodToJSONSchema: core.toJSONSchema as SchemaConverters['zodToJSONSchema'] } : {}
  }
  catch {
    return {}
  }
}
