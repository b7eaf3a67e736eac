import type { Diagnostic, FlattenOptions, FlattenResult, JsonSchema, SchemaNote, SchemaNotes } from '../types'
import type { FlattenContext, SiteDiagnostic } from '../flatten/context'
import { isSchemaObject, resolvePointer } from '../json'
import { flatSite, NODE_BUDGET } from '../flatten/context'
import { resolveProfile } from '../profiles/registry'
import { untypedInheritedKeys, VALIDATOR_SEMANTICS } from '../flatten/semantics'
import { rewrite } from '../flatten/walk'

function notesByNode(schema: JsonSchema, notes: SchemaNotes | undefined): Map<object, SchemaNote> {
  const map = new Map<object, SchemaNote>()
  for (const [pointer, note] of Object.entries(notes ?? {})) {
    const node = resolvePointer(schema, pointer)
    if (isSchemaObject(node))
      map.set(node, note)
  }
  return map
}

/**
 * Rewrites a JSON Schema so every union of objects becomes one flat object (and, with the `portable`
 * profile, so no combinator, `$ref` or untyped leaf is left). The result accepts every value the
 * input accepts. Never throws for a schema it cannot improve: it reports a diagnostic instead.
 */
export function flattenSchema(schema: JsonSchema, options: FlattenOptions = {}): FlattenResult {
  const ctx: FlattenContext = {
    profile: resolveProfile(options.profile ?? 'portable'),
    root: schema,
    semantics: { ...VALIDATOR_SEMANTICS, ...options.semantics },
    notes: notesByNode(schema, options.notes),
    diagnostics: [],
    frames: [],
    origins: new Map(),
    hints: new Map(),
    repeatedTags: repeatedDiscriminators(options.notes),
    budget: NODE_BUDGET,
    joinedTargets: new Map(),
  }
  const rewritten = rewrite(ctx, schema, '', 0)
  const out = untypedInheritedKeys(ctx, ctx.profile.finishDocument ? ctx.profile.finishDocument(rewritten, '', ctx) : rewritten)
  return { schema: out, diagnostics: dedupe(ctx.diagnostics.map(d => located(d, schema, out))) }
}

/**
 * A diagnostic as the caller sees it: `path` resolves in the original (the nearest node that does,
 * should a rewrite have lost the exact one), `flatPath` in the output where the place survived.
 */
function located({ site, ...diagnostic }: SiteDiagnostic, original: JsonSchema, flat: JsonSchema): Diagnostic {
  let path = diagnostic.path
  while (path !== '' && resolvePointer(original, path) === undefined)
    path = path.slice(0, path.lastIndexOf('/'))
  const flatPath = [flatSite(site), site].find(candidate => resolvePointer(flat, candidate) !== undefined)
  return { ...diagnostic, path, ...(flatPath === undefined ? {} : { flatPath }) }
}

/** Discriminator names that more than one union declares: hints then name theirs by path. */
function repeatedDiscriminators(notes: SchemaNotes | undefined): Set<string> {
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const note of Object.values(notes ?? {})) {
    if (note.discriminator !== undefined && seen.has(note.discriminator))
      repeated.add(note.discriminator)
    if (note.discriminator !== undefined)
      seen.add(note.discriminator)
  }
  return repeated
}

/** A node inlined in several places reports once per path and message. */
function dedupe<T extends { path: string, message: string, code: string }>(diagnostics: T[]): T[] {
  const seen = new Set<string>()
  return diagnostics.filter((d) => {
    const key = `${d.code}\u0000${d.path}\u0000${d.message}`
    if (seen.has(key))
      return false
    seen.add(key)
    return true
  })
}
