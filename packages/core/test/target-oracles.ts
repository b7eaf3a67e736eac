// Checkers for what each target accepts, written from TARGETS.md (Gemini has no oracle library),
// and the validators VS Code and Anthropic judge schemas with.
import AjvDraft7 from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'

/** VS Code compiles tool schemas with ajv against draft-07, so configured (toolSchemaNormalizer.ts). */
export const vscodeAjv = new AjvDraft7({ coerceTypes: true, strictTypes: true, allowUnionTypes: true, strict: false, logger: false })
/** Anthropic and Windsurf check against the 2020-12 meta-schema. */
export const ajv2020 = new Ajv2020({ strict: false, logger: false })

export function metaValid(schema: object): string[] {
  const found: string[] = []
  if (!vscodeAjv.validateSchema(schema))
    found.push(`draft-07: ${vscodeAjv.errorsText(vscodeAjv.errors)}`)
  try {
    vscodeAjv.compile(schema)
  }
  catch (error) {
    found.push(`VS Code's ajv cannot compile it: ${(error as Error).message}`)
  }
  if (!ajv2020.validateSchema(schema))
    found.push(`2020-12: ${ajv2020.errorsText(ajv2020.errors)}`)
  return found
}

const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object'])
const GEMINI_KEYWORDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minProperties', 'maxProperties', 'anyOf', 'default', 'example', 'propertyOrdering'])
const GEMINI_FORMATS: Record<string, string[]> = { string: ['date-time', 'enum'], number: ['float', 'double'], integer: ['int32', 'int64'] }
const GEMINI_NAME = /^[A-Z_]\w{0,63}$/i

/**
 * Where a schema breaks Gemini's OpenAPI `parameters` rules: one `type` per node (no arrays, no
 * `"null"`), no `anyOf` beside `type`, only the OpenAPI keywords, string-only `enum`, its formats,
 * `items` on arrays, non-empty `properties` on nested objects, and (with `names`) parameter names.
 */
export function geminiViolations(schema: unknown, options: { names: boolean } = { names: true }, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return [`${path || '/'}: not a schema object`]
  const node = schema as Record<string, any>
  const found: string[] = []
  const at = path || '/'
  for (const keyword of Object.keys(node)) {
    if (!GEMINI_KEYWORDS.has(keyword))
      found.push(`${at}: "${keyword}" is not in the OpenAPI subset`)
  }
  if (node.anyOf !== undefined && node.type !== undefined)
    found.push(`${at}: anyOf beside type`)
  if (node.anyOf === undefined && (typeof node.type !== 'string' || !GEMINI_TYPES.has(node.type)))
    found.push(`${at}: type ${JSON.stringify(node.type)} is not one OpenAPI type`)
  if (node.enum !== undefined && (node.type !== 'string' || !node.enum.every((v: unknown) => typeof v === 'string')))
    found.push(`${at}: enum on a non-string`)
  if (node.format !== undefined && !(GEMINI_FORMATS[node.type] ?? []).includes(node.format))
    found.push(`${at}: format "${node.format}" on ${node.type}`)
  if (node.type === 'array' && node.items === undefined)
    found.push(`${at}: array without items`)
  if (node.type === 'object' && path !== '' && Object.keys(node.properties ?? {}).length === 0)
    found.push(`${at}: object without properties`)
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    if (options.names && !GEMINI_NAME.test(key))
      found.push(`${at}: parameter name "${key}"`)
    found.push(...geminiViolations(child, options, `${path}/properties/${key}`))
  }
  if (node.items !== undefined)
    found.push(...geminiViolations(node.items, options, `${path}/items`))
  for (const [i, branch] of (node.anyOf ?? []).entries())
    found.push(...geminiViolations(branch, options, `${path}/anyOf/${i}`))
  return found
}
