// The front end for a tool whose input is a JSON Schema: a plain object, or a Standard Schema whose
// validator is a JSON Schema validator (vendor `json-schema`). Its parser is that validator, or, for
// a schema a generator wrote for another language, that language's parser, as its preset says.
import type { JsonPointer, JsonSchemaObject, PresetName, SchemaNote } from '../types'
import type { OriginalSchema } from './interface'
import type { PresetChoice } from './presets'
import type { Preset } from './presets/preset'
import { childPointer, isSchemaObject, resolveRef } from '../json'
import { withSentence } from '../keywords'
import { mark, noteOf, takeMarks } from './marks'
import { choosePreset } from './presets'
import { eachNode, restatesKey } from './presets/preset'
import { readLegacyKeywords } from './legacy-keywords'
import { ecmascriptPattern } from './regex-dialect'

/** The Standard Schema vendor name of a JSON Schema validator behind `~standard`. */
export const JSON_SCHEMA_VENDOR = 'json-schema'

/** A JSON Schema handed over as data: a plain object that is no schema library's. */
export function isJsonSchemaDocument(value: unknown): value is JsonSchemaObject {
  if (!isSchemaObject(value) || '~standard' in value || '_zod' in value)
    return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

export interface JsonSchemaOriginal extends OriginalSchema {
  /** The parser the schema was read for, and why. */
  preset: PresetChoice
  /** What reading the generator's output changed, by pointer into the schema as given. */
  readings: Reading[]
}

/** One change the generator reading made: `cut` (noise removed) or `read` (a keyword read for its parser). */
export interface Reading {
  /** `cut`: noise left out; `read`: read as the parser means it; `default`: a default left out of the listed schema (a warning). */
  kind: 'cut' | 'read' | 'default'
  path: JsonPointer
  message: string
}

/**
 * A JSON Schema as its parser reads it: copied (the caller's object is never changed), its
 * generator's output read right (an OpenAPI `discriminator` becomes the union's tag, titles that
 * restate their key go, patterns say what the parser's regex engine means), with the preset's
 * semantics and the dialect's reading of `$ref` siblings.
 */
export function jsonSchemaOriginal(document: JsonSchemaObject, presetName: PresetName | 'auto' = 'auto'): JsonSchemaOriginal {
  let schema: JsonSchemaObject
  try {
    schema = JSON.parse(JSON.stringify(document)) as JsonSchemaObject
  }
  catch (error) {
    throw new TypeError(`the JSON Schema is not JSON data (${(error as Error).message})`, { cause: error })
  }
  const choice = choosePreset(schema, presetName)
  // Before 2019-09, keywords beside a `$ref` are ignored; MCP's default dialect is 2020-12.
  const refSiblings = typeof schema.$schema === 'string' && /draft-0[3-7]\b/.test(schema.$schema) ? 'ignored' : 'and'
  const readings = readGeneratorOutput(schema, choice.preset, refSiblings)
  return { schema, notes: takeMarks(schema), semantics: { ...choice.preset.semantics, refSiblings }, preset: choice, readings }
}

const BRANCH_KEYWORDS = ['oneOf', 'anyOf'] as const

interface ReadContext {
  root: JsonSchemaObject
  preset: Preset
  refSiblings: 'and' | 'ignored'
  /** A 2019-09 or later dialect, where `unevaluated*` exist (validators of older ones ignore them). */
  unevaluated: boolean
  readings: Reading[]
}

function readGeneratorOutput(root: JsonSchemaObject, preset: Preset, refSiblings: 'and' | 'ignored'): Reading[] {
  const ctx: ReadContext = { root, preset, refSiblings, unevaluated: refSiblings === 'and', readings: [] }
  let titles = 0
  eachNode(root, (node, { pointer, name }) => {
    ctx.readings.push(...readLegacyKeywords(node, pointer))
    readDiscriminator(ctx, node, pointer)
    if (preset.smartUnions)
      readSmartUnion(ctx, node)
    if (readTitle(ctx, node, pointer, name, node === root))
      titles++
    readPattern(ctx, node, pointer)
    readUnevaluated(ctx, node, pointer)
  })
  if (titles > 0)
    ctx.readings.unshift({ kind: 'cut', path: '', message: `${titles} title${titles === 1 ? '' : 's'} that restate${titles === 1 ? 's' : ''} a key, name${titles === 1 ? 's' : ''} a type or title${titles === 1 ? 's' : ''} the arguments dropped: ${titles === 1 ? 'it tells' : 'they tell'} a model nothing` })
  return ctx.readings
}

/**
 * An OpenAPI `discriminator` names the union's tag; its `mapping` points into `$defs` that inlining
 * removes, so the keyword goes and the tag becomes the union's note. Where the parser requires the
 * tag (pydantic, though its JSON gives the tag a default), each branch requires it.
 */
function readDiscriminator(ctx: ReadContext, node: JsonSchemaObject, path: JsonPointer): void {
  if (!('discriminator' in node))
    return
  const { discriminator } = node
  delete node.discriminator
  const tag = isSchemaObject(discriminator) ? discriminator.propertyName : undefined
  const keyword = BRANCH_KEYWORDS.find(k => Array.isArray(node[k]))
  const at = childPointer(path, 'discriminator')
  if (typeof tag !== 'string' || !keyword) {
    ctx.readings.push({ kind: 'cut', path: at, message: 'OpenAPI discriminator without a union or a propertyName dropped' })
    return
  }
  mark(node, { discriminator: tag })
  ctx.readings.push({ kind: 'read', path: at, message: `OpenAPI discriminator read as the union's tag "${tag}", then dropped (its mapping points into $defs that inlining removes)` })
  if (!ctx.preset.tagRequired)
    return
  ctx.readings.push({ kind: 'read', path: childPointer(path, keyword), message: `"${tag}" required in every branch: ${ctx.preset.name}'s parser needs the tag, though its JSON gives it a default` })
  node[keyword] = (node[keyword] as unknown[]).map((branch) => {
    if (!isSchemaObject(branch))
      return branch
    if (typeof branch.$ref === 'string' && ctx.refSiblings === 'ignored')
      return { allOf: [branch, { required: [tag] }] }
    return { ...branch, required: [...new Set([...asStrings(branch.required), tag])] }
  })
}

/**
 * In a union without a tag that the parser resolves by counting the keys set, a key's `default:
 * null` does not make `null` mean a left-out key (the null counts as set), so it is not said there:
 * a strict profile then wraps the key instead of forwarding its null.
 */
function readSmartUnion(ctx: ReadContext, node: JsonSchemaObject): void {
  const keyword = BRANCH_KEYWORDS.find(k => Array.isArray(node[k]))
  if (!keyword || noteOf(node)?.discriminator !== undefined)
    return
  for (const branch of node[keyword] as unknown[]) {
    const target = isSchemaObject(branch) && typeof branch.$ref === 'string' ? resolveRef(ctx.root, branch.$ref) : branch
    if (!isSchemaObject(target) || !isSchemaObject(target.properties))
      continue
    for (const child of Object.values(target.properties)) {
      if (isSchemaObject(child) && child.default === null)
        delete child.default
    }
  }
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

/** A type's name rather than words (`MySchema`, `HasBillingAddress`): capitalised humps, no spaces. */
const TYPE_NAME = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$/

/**
 * A generated `title` that restates its key or definition name (pydantic's "Max Results" on
 * `max_results`), names a type, or titles the root (the arguments' model: the tool's own name and
 * description say what it is) tells a model nothing and goes (true); one that says more joins the
 * description.
 */
function readTitle(ctx: ReadContext, node: JsonSchemaObject, path: JsonPointer, name: string | undefined, isRoot: boolean): boolean {
  if (typeof node.title !== 'string')
    return false
  const title = node.title.trim()
  delete node.title
  if (title === '' || isRoot || TYPE_NAME.test(title) || (name !== undefined && restatesKey(title, name)))
    return true
  const description = typeof node.description === 'string' ? node.description : ''
  if (!description.toLowerCase().includes(title.toLowerCase()))
    node.description = description === '' ? title : withSentence(title, description)
  ctx.readings.push({ kind: 'read', path: childPointer(path, 'title'), message: `title ${JSON.stringify(title)} joined the description` })
  return false
}

/** Keywords that apply subschemas to the node's own value, whose evaluated keys and items `unevaluated*` counts. */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', '$ref', '$dynamicRef', '$recursiveRef', 'dependentSchemas']

/**
 * `unevaluatedProperties: false` beside local keywords only is `additionalProperties: false` (and
 * `unevaluatedItems: false` past local `prefixItems` is `items: false`): the same values, in the
 * form every profile carries. Where a local keyword already covers every key or item, it says nothing.
 */
function readUnevaluated(ctx: ReadContext, node: JsonSchemaObject, path: JsonPointer): void {
  if (!ctx.unevaluated || IN_PLACE.some(keyword => keyword in node))
    return
  if (node.unevaluatedProperties === false) {
    delete node.unevaluatedProperties
    node.additionalProperties ??= false
    ctx.readings.push({ kind: 'read', path: childPointer(path, 'unevaluatedProperties'), message: 'unevaluatedProperties: false beside local keywords only: read as additionalProperties: false, the same keys' })
  }
  if (node.unevaluatedItems === false && !('contains' in node)) {
    delete node.unevaluatedItems
    // 2019-09's tuple is an `items` array, whose rest is `additionalItems`.
    if (Array.isArray(node.items))
      node.additionalItems ??= false
    else
      node.items ??= false
    ctx.readings.push({ kind: 'read', path: childPointer(path, 'unevaluatedItems'), message: 'unevaluatedItems: false beside local keywords only: read as items: false past prefixItems, the same items' })
  }
}

/** A pattern in the parser's regex dialect, spelled for validators, or marked as only approximate. */
function readPattern(ctx: ReadContext, node: JsonSchemaObject, path: JsonPointer): void {
  if (typeof node.pattern !== 'string')
    return
  const { regex } = ctx.preset
  const translated = ecmascriptPattern(node.pattern, regex)
  const at = childPointer(path, 'pattern')
  if ('pattern' in translated) {
    if (translated.pattern !== node.pattern)
      ctx.readings.push({ kind: 'read', path: at, message: `pattern ${JSON.stringify(node.pattern)} spelled for validators as ${regex} regex reads it: ${JSON.stringify(translated.pattern)}` })
    node.pattern = translated.pattern
    return
  }
  ctx.readings.push({ kind: 'read', path: at, message: `pattern ${JSON.stringify(node.pattern)} has no exact ECMAScript spelling (${translated.untranslatable}); dropped, its text kept in the description` })
  const note: SchemaNote = { patternInexact: true, patternInWords: `Pattern (${regex} regex): ${node.pattern}` }
  mark(node, note)
}
