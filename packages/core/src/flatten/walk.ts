import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext } from './context'
import type { Kind } from '../keywords'
import { childPointer, isSchema, isSchemaObject, refPointer, resolveRef, withoutKeyword } from '../json'
import { carryNote, MAX_DEPTH, noteOf, originalOf, RECURSION_BOUND, report } from './context'
import { assembleFacets, splitByKind } from './facets'
import { joinSchemas } from './join'
import { ANNOTATIONS, sortKinds, SUBSCHEMA_KEYWORDS, typesOf } from '../keywords'
import { faithfulKeywords, keysAsJavaScriptSees } from './semantics'
import { isWellFormed } from './well-formed'
import { foldAll, foldIntersection } from './fold-all'
import { adjustForInvisible, annotationsOf } from './invisible'

/**
 * Rewrites a schema bottom-up: children first, then `allOf`, then unions, then the profile's own
 * rules for the node. Every step widens or keeps what the node accepts, never narrows it.
 */
export function rewrite(ctx: FlattenContext, node: unknown, path: JsonPointer, depth: number): JsonSchema {
  if (node === true)
    return ctx.profile.anyValue() !== true ? rewrite(ctx, {}, path, depth) : true
  if (node === false)
    return false
  if (!isSchemaObject(node)) {
    report(ctx, 'malformed-schema', 'error', path, `expected a schema (an object or a boolean), found ${describeValue(node)}; it accepts anything in the output`)
    return ctx.profile.anyValue()
  }
  if (depth > MAX_DEPTH) {
    report(ctx, 'depth-limit', 'warning', path, `nesting deeper than ${MAX_DEPTH} levels is not walked; kept as its bare kinds`)
    return looseKinds(ctx, node, path)
  }
  ctx.budget -= 1
  if (typeof node.$ref === 'string' && isWellFormed('$ref', node.$ref)) {
    // What the parser does beyond the JSON may be noted on the reference itself (a fallback around a lazy schema).
    const resolved = rewriteRef(ctx, node as JsonSchemaObject & { $ref: string }, path, depth)
    return located(ctx, path, carryNote(ctx, node, isSchemaObject(resolved) ? adjustForInvisible(ctx, node, resolved, path) : resolved))
  }

  const children = rewriteChildren(ctx, node, path, depth)
  faithfulKeywords(ctx, node, children, path)
  carryNote(ctx, node, children)
  let out: JsonSchema = children
  // A root intersection is folded in every profile: clients refuse a root `allOf`.
  if (Array.isArray(children.allOf) && (ctx.profile.foldAllOf || path === ''))
    out = foldIntersection(withoutKeyword(children, 'allOf'), children.allOf as JsonSchema[])
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (isSchemaObject(out) && Array.isArray(out[keyword]))
      out = flattenUnion(ctx, node, out, keyword, path, depth)
  }
  if (!isSchemaObject(out))
    return out
  out = keysAsJavaScriptSees(ctx, adjustForInvisible(ctx, node, out, path), path)
  return located(ctx, path, carryNote(ctx, node, ctx.profile.finishNode ? ctx.profile.finishNode(out, path, ctx) : out))
}

/** Remembers where in the original a rewritten node came from (a union may report on it later). */
function located<T extends JsonSchema>(ctx: FlattenContext, site: JsonPointer, node: T): T {
  if (typeof node === 'object' && !ctx.origins.has(node))
    ctx.origins.set(node, originalOf(ctx, site))
  return node
}

function describeValue(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

function rewriteChildren(ctx: FlattenContext, node: JsonSchemaObject, path: JsonPointer, depth: number): JsonSchemaObject {
  const out: JsonSchemaObject = {}
  const down = (child: unknown, ...tokens: (string | number)[]): JsonSchema => rewrite(ctx, child, childPointer(path, ...tokens), depth + 1)
  for (const [keyword, value] of Object.entries(node)) {
    if ((keyword === '$defs' || keyword === 'definitions') && ctx.profile.inlineRefs)
      continue
    // A pattern string is read with the parser's flags by `faithfulKeywords`.
    if (!isWellFormed(keyword, value) && !(keyword === 'pattern' && typeof value === 'string')) {
      report(ctx, 'malformed-schema', 'error', childPointer(path, keyword), `"${keyword}" has a value of the wrong shape (${describeValue(value)}); dropped`)
      continue
    }
    if (keyword === 'anyOf' || keyword === 'oneOf') {
      out[keyword] = Array.isArray(value) ? unionBranches(ctx, value, childPointer(path, keyword), depth + 1) : value
    }
    else if ((SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword) && isSchema(value)) {
      // A boolean says all or nothing of extra keys or items; only a real schema needs walking.
      out[keyword] = typeof value === 'boolean' && keyword !== 'not' && keyword !== 'contains' ? value : down(value, keyword)
    }
    else if (((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword) || keyword === 'items') && Array.isArray(value)) {
      out[keyword] = value.map((child, i) => down(child, keyword, i))
    }
    else if ((SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword) && isSchemaObject(value)) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, down(child, keyword, key)]))
    }
    else {
      out[keyword] = value
    }
  }
  return out
}

/** A union's branches, rewritten; a branch that is itself a bare union contributes its own branches. */
function unionBranches(ctx: FlattenContext, branches: unknown[], path: JsonPointer, depth: number): unknown[] {
  return branches.flatMap((branch, i) => {
    // Past the depth limit a nested union is not spread: `rewrite` cuts it to its bare kinds.
    if (isSchemaObject(branch) && isBareUnion(branch) && depth <= MAX_DEPTH) {
      const keyword = Array.isArray(branch.anyOf) ? 'anyOf' : 'oneOf'
      return unionBranches(ctx, branch[keyword] as unknown[], childPointer(path, i, keyword), depth + 1)
    }
    return [rewrite(ctx, branch, childPointer(path, i), depth)]
  })
}

function isBareUnion(schema: JsonSchemaObject): boolean {
  const keys = Object.keys(schema)
  const unions = keys.filter(key => (key === 'anyOf' || key === 'oneOf') && Array.isArray(schema[key]))
  return unions.length === 1 && keys.every(key => unions.includes(key) || (ANNOTATIONS.has(key) && key !== 'default'))
}

function isObjectSchema(schema: JsonSchema): boolean {
  return isSchemaObject(schema) && (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'object'))
}

/**
 * A union becomes one schema: objects merge into one flat object (with discriminator hints where
 * there is one); with a profile that joins every union, other branches join into a `type` array.
 * Siblings of the union keyword (a description, a default) apply on top.
 */
function flattenUnion(ctx: FlattenContext, original: JsonSchemaObject, node: JsonSchemaObject, keyword: 'anyOf' | 'oneOf', path: JsonPointer, depth: number): JsonSchema {
  const branches = node[keyword] as unknown[]
  const unionPath = childPointer(path, keyword)
  // A branch a profile keeps as a `$ref` joins as its definition rewritten, never as the raw original.
  const resolved = branches.map((branch) => {
    if (!isSchemaObject(branch) || typeof branch.$ref !== 'string')
      return branch
    const { $ref: ref, ...siblings } = branch
    const target = rewrittenTarget(ctx, ref, depth)
    return isSchema(target) ? withRefSiblings(ctx, siblings, target, path, depth) : target
  })
  if (!resolved.every(isSchema)) {
    report(ctx, 'union-left-alone', 'warning', unionPath, 'a branch is not a schema or its $ref cannot be resolved; the union is left as it is')
    return node
  }
  const objects = resolved.every(branch => branch === false || isObjectSchema(branch))
  if (!objects && !ctx.profile.joinEveryUnion) {
    report(ctx, 'union-left-alone', 'info', unionPath, `the ${ctx.profile.name} profile flattens unions of objects only; this one has other branches`)
    return node
  }
  const joined = joinSchemas(resolved, ctx, path, noteOf(ctx, original)?.discriminator)
  if (!joined.exact && !objects)
    report(ctx, 'union-widened', 'info', unionPath, 'the branches cannot be told apart in one schema; the flat schema keeps what they share (it accepts every branch)')
  return foldAll([withoutKeyword(node, keyword), joined.schema])
}

/**
 * A `$ref`'s definition rewritten where it stands, once per definition. A definition that reaches
 * itself through its own unions joins there as its loose kinds: wider, and the work stays linear.
 */
function rewrittenTarget(ctx: FlattenContext, ref: string, depth: number): unknown {
  const target = resolveRef(ctx.root, ref)
  const pointer = refPointer(ctx.root, ref)
  if (target === undefined || pointer === undefined || !isSchema(target))
    return target
  const known = ctx.joinedTargets.get(ref)
  if (known === null)
    return looseKinds(ctx, target, pointer)
  if (known !== undefined)
    return known
  ctx.joinedTargets.set(ref, null)
  const rewritten = rewrite(ctx, target, pointer, depth + 1)
  ctx.joinedTargets.set(ref, rewritten)
  return rewritten
}


function rewriteRef(ctx: FlattenContext, node: JsonSchemaObject & { $ref: string }, path: JsonPointer, depth: number): JsonSchema {
  const { $ref: ref, ...siblings } = node
  const target = resolveRef(ctx.root, ref)
  if (!ctx.profile.inlineRefs && target !== undefined)
    return { $ref: ref, ...rewriteChildren(ctx, siblings, path, depth) }
  if (target === undefined || !isSchema(target)) {
    report(ctx, 'ref-unresolved', 'warning', path, `cannot resolve $ref "${ref}" inside the document; it accepts anything in the output`)
    return ctx.profile.inlineRefs ? ctx.profile.anyValue() : node
  }
  let resolved: JsonSchema
  if (ctx.frames.filter(frame => frame.ref === ref).length >= RECURSION_BOUND || ctx.budget <= 0) {
    report(ctx, ctx.budget <= 0 ? 'size-limit' : 'recursion-truncated', 'info', path, ctx.budget <= 0
      ? `inlining "${ref}" would make the schema too large; kept as its bare kinds`
      : `recursive "${ref}" is inlined inside itself ${RECURSION_BOUND === 1 ? 'once' : `${RECURSION_BOUND} times`}, then kept as its bare kinds`)
    resolved = looseKinds(ctx, target, path)
  }
  else {
    ctx.frames.push({ ref, site: path, target: refPointer(ctx.root, ref)! })
    resolved = rewrite(ctx, target, path, depth + 1)
    ctx.frames.pop()
  }
  return withRefSiblings(ctx, siblings, resolved, path, depth)
}

/**
 * A `$ref` beside other keywords. Annotations (pydantic's `default` on an enum's `$ref`) annotate
 * the definition. Constraints apply too in 2020-12 (a conjunction: the definition's kinds bound
 * theirs), and not at all before 2019-09, where validators ignore them.
 */
function withRefSiblings(ctx: FlattenContext, siblings: JsonSchemaObject, resolved: JsonSchema, path: JsonPointer, depth: number): JsonSchema {
  const keywords = Object.keys(siblings)
  if (keywords.length === 0)
    return resolved
  const annotations = annotationsOf(siblings)
  if ('default' in siblings)
    annotations.default = siblings.default
  const constraints = keywords.filter(keyword => !ANNOTATIONS.has(keyword))
  const annotated = isSchemaObject(resolved) ? { ...resolved, ...annotations } : resolved
  if (constraints.length === 0 || ctx.semantics.refSiblings === 'ignored')
    return annotated
  const kinds = isSchemaObject(resolved) && siblings.type === undefined ? typesOf(resolved) : undefined
  return foldAll([annotated, rewrite(ctx, kinds ? { type: kinds, ...siblings } : siblings, path, depth)])
}

/** Nodes `looseKinds` looks through before it gives up on finding the kinds. */
const LOOSE_LOOKUP = 1000

/** The kinds a schema may accept, found without walking into it deeply: the loosest typed stand-in. */
function looseKinds(ctx: FlattenContext, schema: JsonSchema, path: JsonPointer): JsonSchema {
  const seen = new Set<unknown>()
  const kinds = new Set<Kind>()
  let cut = false
  const collect = (node: unknown): void => {
    if (seen.has(node))
      return
    // Too large to look through: what it may accept is not known, so it accepts anything.
    if (seen.size >= LOOSE_LOOKUP) {
      cut = true
      return
    }
    seen.add(node)
    if (isSchemaObject(node) && typeof node.$ref === 'string')
      return collect(resolveRef(ctx.root, node.$ref) ?? true)
    const branches = isSchemaObject(node) ? [node.anyOf, node.oneOf].find(Array.isArray) : undefined
    if (branches && isSchemaObject(node) && node.type === undefined)
      return branches.forEach(collect)
    for (const kind of splitByKind(isSchema(node) ? node : true).kinds.keys())
      kinds.add(kind)
  }
  collect(schema)
  if (cut)
    return ctx.profile.anyValue()
  const description = isSchemaObject(schema) && typeof schema.description === 'string' ? { description: schema.description } : {}
  const loose = assembleFacets(sortKinds(kinds).map(kind => ({ type: kind })), description)
  return isSchemaObject(loose) && ctx.profile.finishNode ? ctx.profile.finishNode(loose, path, ctx) : loose
}
