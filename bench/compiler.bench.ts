// Compiler scaling: how compile time grows with union width and nesting depth; plan and schema
// sizes of recursive and bomb-shaped schemas.
import type { JsonSchema } from '@flatmcp/core'
import { compileTool, flattenSchema, planCoercion, toOriginalSchema } from '@flatmcp/core'
import { z } from 'zod'
import { measure } from './measure'

const KEYS_PER_VARIANT = 20

/** Variant `v` has 20 keys from a pool of 40, with kinds that differ across variants (collisions). */
function variant(v: number, nested?: z.ZodType): z.ZodObject {
  const shape: Record<string, z.ZodType> = { kind: z.literal(`v${v}`) }
  for (let i = 0; i < KEYS_PER_VARIANT - 1; i++) {
    const key = `k${(v * 7 + i) % 40}`
    switch ((v + i) % 5) {
      case 0: shape[key] = z.string().min(1).describe(`text for ${v}`); break
      case 1: shape[key] = z.number().int().min(0); break
      case 2: shape[key] = z.array(z.string()); break
      case 3: shape[key] = z.object({ id: z.string(), n: z.number().optional() }); break
      default: shape[key] = z.enum([`a${v % 3}`, `b${v % 4}`]).optional()
    }
  }
  if (nested)
    shape.child = nested
  return z.object(shape)
}

function union(width: number, nested?: z.ZodType): z.ZodType {
  return z.discriminatedUnion('kind', Array.from({ length: width }, (_, v) => variant(v, v === 0 ? nested : undefined)) as [z.ZodObject, z.ZodObject])
}

/** A union whose variants each have a key of their own (and share one): as many keys as variants. */
function ownKeysUnion(width: number): z.ZodType {
  return z.discriminatedUnion('kind', Array.from({ length: width }, (_, v) => z.object({ kind: z.literal(`v${v}`), [`f${v}`]: z.string(), shared: z.number().optional() })) as unknown as [z.ZodObject, z.ZodObject])
}

/** The same as JSON Schema given as data: objects keep unknown keys, so each key meets every other variant's catch-all. */
function ownKeysJson(width: number): JsonSchema {
  return { type: 'object', properties: { u: { anyOf: Array.from({ length: width }, (_, v) => ({ type: 'object', properties: { kind: { const: `v${v}` }, [`f${v}`]: { type: 'string' } }, required: ['kind'] })) } } }
}

/** A union whose first variant holds a union, `depth` levels down. */
function nestedUnion(depth: number, width = 8): z.ZodType {
  let schema: z.ZodType | undefined
  for (let level = 0; level < depth; level++)
    schema = union(width, schema)
  return schema!
}

function countNodes(value: unknown): number {
  if (typeof value !== 'object' || value === null)
    return 0
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + countNodes(child), 0)
}

export interface Row { case: string, nodes: number, toJsonMs: number, flattenMs: number, compileMs: number }

async function run(label: string, schema: z.ZodType): Promise<Row> {
  const original = toOriginalSchema(schema)
  const nodes = countNodes(original.schema)
  // Large cases take seconds a run: fewer samples keep the whole benchmark within minutes.
  const samples = nodes > 50_000 ? { min: 3, max: 3 } : {}
  return {
    case: label,
    nodes,
    toJsonMs: await measure(() => toOriginalSchema(schema), samples),
    flattenMs: await measure(() => flattenSchema(original.schema, { notes: original.notes }), samples),
    compileMs: await measure(() => compileTool({ name: 'bench', input: schema }), samples),
  }
}

export interface SizeRow { case: string, originalBytes: number, flatBytes: number, planBytes: number, planMs: number, compileMs: number }

type TreeNode = { v: string, left: TreeNode | null, right: TreeNode | null }

/** Recursive and bomb-shaped inputs: what each costs to plan, and how large the plan and schema get. */
function recursiveCases(): [string, z.ZodType][] {
  const tree: z.ZodType<TreeNode> = z.object({ v: z.string(), left: z.lazy(() => tree).nullable(), right: z.lazy(() => tree).nullable() })
  const mutual: z.ZodType[] = []
  for (let i = 0; i < 4; i++)
    mutual.push(z.object({ [`n${i}`]: z.lazy(() => mutual[(i + 1) % 4]!).nullable(), [`m${i}`]: z.array(z.lazy(() => mutual[(i + 3) % 4]!)) }))
  let bomb: z.ZodType = z.object({ x: z.array(z.string()) }).meta({ id: 'L0' })
  for (let i = 1; i <= 20; i++)
    bomb = z.object({ a: bomb, b: bomb }).meta({ id: `L${i}` })
  return [
    ['binary tree (z.lazy)', z.object({ tree })],
    ['z.json()', z.object({ data: z.json() })],
    ['4 mutually recursive types', z.object({ root: mutual[0]! })],
    ['meta-id bomb, 20 levels', z.object({ root: bomb })],
  ]
}

/** A $ref bomb written as JSON: each of `levels` definitions uses the one below twice. */
function refBomb(levels = 30): JsonSchema {
  const $defs: Record<string, unknown> = { d0: { type: 'object', properties: { x: { type: 'array', items: { type: 'string' } } } } }
  for (let i = 1; i <= levels; i++)
    $defs[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } } }
  return { type: 'object', properties: { root: { $ref: `#/$defs/d${levels}` } }, $defs }
}

async function sizes(): Promise<SizeRow[]> {
  const bytes = (value: unknown): number => JSON.stringify(value).length
  const rows: SizeRow[] = []
  for (const [label, schema] of recursiveCases()) {
    const original = toOriginalSchema(schema)
    const compiled = compileTool({ name: 'bench', input: schema })
    rows.push({
      case: label,
      originalBytes: bytes(original.schema),
      flatBytes: bytes(compiled.inputSchema),
      planBytes: bytes(compiled.coercion),
      planMs: await measure(() => planCoercion(original.schema, { notes: original.notes }), { min: 3, budgetMs: 500 }),
      compileMs: await measure(() => compileTool({ name: 'bench', input: schema }), { min: 3, budgetMs: 500 }),
    })
  }
  const bomb = refBomb()
  rows.push({
    case: '$ref bomb (JSON), 30 levels',
    originalBytes: bytes(bomb),
    flatBytes: bytes(flattenSchema(bomb).schema),
    planBytes: bytes(planCoercion(bomb)),
    planMs: await measure(() => planCoercion(bomb), { min: 3, budgetMs: 500 }),
    compileMs: await measure(() => flattenSchema(bomb), { min: 3, budgetMs: 500 }),
  })
  // A strict profile closes each of the 2^12 objects its rules meet (each open by omission) with a rest key.
  const strictBomb = refBomb(12)
  const strict = (): ReturnType<typeof compileTool> => compileTool({ name: 'bench', input: strictBomb }, { profile: 'openai-strict', preset: 'json-schema' })
  const strictTool = strict()
  rows.push({
    case: '$ref bomb (JSON), 12 levels, openai-strict',
    originalBytes: bytes(strictBomb),
    flatBytes: bytes(strictTool.inputSchema),
    planBytes: bytes(strictTool.coercion),
    planMs: await measure(() => planCoercion(strictBomb, { nullsMeanAbsent: true }), { min: 3, budgetMs: 500 }),
    compileMs: await measure(strict, { min: 3, budgetMs: 500 }),
  })
  return rows
}

/** Least-squares slope of log(time) on log(size): 1 means linear. */
function growthExponent(rows: Row[], pick: (row: Row) => number): number {
  const xs = rows.map(r => Math.log(r.nodes))
  const ys = rows.map(r => Math.log(pick(r)))
  const mx = xs.reduce((a, b) => a + b) / xs.length
  const my = ys.reduce((a, b) => a + b) / ys.length
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0)
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0)
  return num / den
}

export interface CompilerResults { widths: Row[], depths: Row[], ownKeys: Row[], sizes: SizeRow[], widthExponent: { flatten: number, compileTool: number }, depthExponent: { flatten: number, compileTool: number }, ownKeysExponent: { zod: number, json: number } }

/** Widths of the unions with a key per variant. */
export const OWN_KEY_WIDTHS = [1000, 2000, 5000, 10_000]

/** Union widths measured; the growth exponent is fitted over 500 to 10,000 variants. */
export const WIDTHS = [10, 100, 200, 500, 1000, 2000, 5000, 10_000]

export async function runCompiler(log: (line: string) => void): Promise<CompilerResults> {
  log('compiler scaling')
  const widths: Row[] = []
  for (const width of WIDTHS) {
    log(`  union of ${width}`)
    widths.push(await run(`union ${width}×${KEYS_PER_VARIANT} keys`, union(width)))
  }
  const scaling = widths.filter(r => Number(r.case.split(/[ ×]/)[1]) >= 500)
  const depths: Row[] = []
  for (let depth = 1; depth <= 8; depth++)
    depths.push(await run(`nesting depth ${depth}`, nestedUnion(depth)))
  const ownKeys: Row[] = []
  for (const width of OWN_KEY_WIDTHS) {
    log(`  union of ${width}, a key each`)
    const json = ownKeysJson(width)
    const samples = { min: 2, max: 2 }
    ownKeys.push({ ...await run(`union ${width}, a key each (zod)`, ownKeysUnion(width)), case: `union ${width}, a key each (zod)` })
    ownKeys.push({ case: `union ${width}, a key each (JSON)`, nodes: countNodes(json), toJsonMs: 0, flattenMs: await measure(() => flattenSchema(json), samples), compileMs: await measure(() => compileTool({ name: 'bench', input: json }), samples) })
  }
  log('plan and schema sizes of recursive schemas')
  return {
    widths,
    depths,
    ownKeys,
    ownKeysExponent: { zod: growthExponent(ownKeys.filter(r => r.case.endsWith('(zod)')), r => r.compileMs), json: growthExponent(ownKeys.filter(r => r.case.endsWith('(JSON)')), r => r.compileMs) },
    sizes: await sizes(),
    widthExponent: { flatten: growthExponent(scaling, r => r.flattenMs), compileTool: growthExponent(scaling, r => r.compileMs) },
    depthExponent: { flatten: growthExponent(depths, r => r.flattenMs), compileTool: growthExponent(depths, r => r.compileMs) },
  }
}
