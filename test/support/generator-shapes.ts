// Rewrites a JSON Schema into the shapes other languages' generators write: pydantic's titles,
// `anyOf [T, null]` with `default: null`, models moved into `$defs` behind a `$ref` with siblings,
// OpenAPI `discriminator` with a `mapping`; jsonschema-go's `["null", T]` and closed structs. Each
// rewrite makes a new original (a validator is its parser), for the property tests to flatten.
import type { JsonSchemaObject } from '@flatmcp/core'

type Node = Record<string, any>

/** Choices drawn by the caller's seeded generator (fast-check's `fc.context`-free random). */
export type Random = () => number

const titled = (key: string): string => key.replace(/_/g, ' ').replace(/\b\w/g, c => c.toUpperCase())

function constTag(branch: Node, key: string): string | undefined {
  const child = branch?.properties?.[key]
  if (child === undefined || !Array.isArray(branch.required) || !branch.required.includes(key))
    return undefined
  if (typeof child.const === 'string')
    return child.const
  return Array.isArray(child.enum) && child.enum.length === 1 && typeof child.enum[0] === 'string' ? child.enum[0] : undefined
}

/** The key every branch requires with a distinct string constant, if there is one. */
function tagOfBranches(branches: Node[]): string | undefined {
  const first = branches[0]
  for (const key of Object.keys(first?.properties ?? {})) {
    const tags = branches.map(branch => constTag(branch, key))
    if (tags.every(tag => tag !== undefined) && new Set(tags).size === tags.length)
      return key
  }
  return undefined
}

/**
 * The schema as a generator would write it. `style` picks the generator: `pydantic` (titles,
 * nullable optionals with null defaults, `$defs` with `$ref` siblings, discriminators) or `go`
 * (`["null", T]` on optional keys). A `$ref` sibling may constrain (2020-12 reads it).
 */
export function asGenerated(schema: JsonSchemaObject, style: 'pydantic' | 'go', random: Random): JsonSchemaObject {
  const defs: Record<string, unknown> = {}
  let models = 0
  const visit = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node))
      return node.map(child => visit(child, depth))
    if (typeof node !== 'object' || node === null)
      return node
    const out: Node = {}
    for (const [keyword, value] of Object.entries(node as Node)) {
      if (keyword === 'properties' && typeof value === 'object' && value !== null) {
        const required = new Set<string>(Array.isArray((node as Node).required) ? (node as Node).required : [])
        out.properties = Object.fromEntries(Object.entries(value as Node).map(([key, child]) => {
          let written = visit(child, depth + 1) as Node
          if (!required.has(key) && typeof written === 'object' && written !== null && random() < 0.5) {
            if (style === 'pydantic' && !('default' in written))
              written = { anyOf: [written, { type: 'null' }], default: null }
            else if (style === 'go' && typeof written.type === 'string')
              written = { ...written, type: ['null', written.type], ...(Array.isArray(written.enum) ? { enum: [...written.enum, null] } : {}) }
          }
          if (style === 'pydantic' && typeof written === 'object' && written !== null && random() < 0.7)
            written = { ...written, title: titled(key) }
          return [key, written]
        }))
      }
      else if (['enum', 'const', 'default', 'examples', 'required'].includes(keyword)) {
        out[keyword] = value
      }
      else {
        out[keyword] = visit(value, depth + 1)
      }
    }
    const branches = [out.oneOf, out.anyOf].find(Array.isArray) as Node[] | undefined
    if (style === 'pydantic' && branches && branches.every(branch => branch?.type === 'object')) {
      const tag = tagOfBranches(branches)
      if (tag !== undefined) {
        const refs = branches.map((branch) => {
          const name = `Model${models++}`
          // pydantic gives a Literal tag its value as default when the model declares one.
          const tagged = random() < 0.5 ? { ...branch, properties: { ...branch.properties, [tag]: { ...branch.properties[tag], default: constTag(branch, tag) } }, required: branch.required.filter((key: string) => key !== tag) } : branch
          defs[name] = { ...tagged, title: name }
          return { $ref: `#/$defs/${name}` }
        })
        const keyword = Array.isArray(out.oneOf) ? 'oneOf' : 'anyOf'
        out[keyword] = refs
        out.discriminator = { propertyName: tag, mapping: Object.fromEntries(refs.map((ref, i) => [constTag(branches[i]!, tag), ref.$ref])) }
        return out
      }
    }
    // A model (or an enum) of its own, referenced, with an annotation or a constraint beside the reference.
    const referable = out.type === 'object' || (Array.isArray(out.enum) && random() < 0.5) || (out.type === 'string' && random() < 0.2)
    if (style === 'pydantic' && depth > 0 && referable && random() < 0.4) {
      const name = `Model${models++}`
      defs[name] = { ...out, title: name }
      const siblings: Node = random() < 0.5 ? { description: `A ${name}.` } : {}
      if (random() < 0.3)
        siblings[out.type === 'object' ? 'minProperties' : out.type === 'string' ? 'maxLength' : 'default'] = out.type === 'object' ? 0 : out.type === 'string' ? 6 : Array.isArray(out.enum) ? out.enum[0] : null
      if (random() < 0.2 && typeof out.type === 'string')
        siblings.type = out.type
      // Older generators wrap a described reference in a one-member allOf.
      if (random() < 0.2)
        return { allOf: [{ $ref: `#/$defs/${name}` }], ...siblings }
      return { $ref: `#/$defs/${name}`, ...siblings }
    }
    if (style === 'go' && depth > 0 && out.type === 'object' && random() < 0.3)
      return { ...out, type: ['null', 'object'] }
    return out
  }
  const written = visit(schema, 0) as Node
  if (style === 'pydantic') {
    written.title = 'generatedArguments'
    if (Object.keys(defs).length > 0)
      written.$defs = { ...written.$defs, ...defs }
    // Now and then a draft-07 document, whose validators ignore what stands beside a `$ref`.
    if (random() < 0.15)
      written.$schema = 'http://json-schema.org/draft-07/schema#'
  }
  return written
}
