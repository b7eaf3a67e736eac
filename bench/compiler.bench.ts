// Compiler scaling: how compile time grows with union width and nesting depth.
import { compileTool, flattenSchema, toOriginalSchema } from '@flatmcp/core'
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
  return {
    case: label,
    nodes: countNodes(original.schema),
    toJsonMs: await measure(() => toOriginalSchema(schema)),
    flattenMs: await measure(() => flattenSchema(original.schema, { notes: original.notes })),
    compileMs: await measure(() => compileTool({ name: 'bench', input: schema })),
  }
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

export interface CompilerResults { widths: Row[], depths: Row[], widthExponent: { flatten: number, compileTool: number }, depthExponent: { flatten: number, compileTool: number } }

export async function runCompiler(log: (line: string) => void): Promise<CompilerResults> {
  log('compiler scaling')
  const widths: Row[] = []
  for (const width of [10, 100, 200, 1000])
    widths.push(await run(`union ${width}×${KEYS_PER_VARIANT} keys`, union(width)))
  const scaling = widths.filter(r => !r.case.includes('200'))
  const depths: Row[] = []
  for (let depth = 1; depth <= 8; depth++)
    depths.push(await run(`nesting depth ${depth}`, nestedUnion(depth)))
  return {
    widths,
    depths,
    widthExponent: { flatten: growthExponent(scaling, r => r.flattenMs), compileTool: growthExponent(scaling, r => r.compileMs) },
    depthExponent: { flatten: growthExponent(depths, r => r.flattenMs), compileTool: growthExponent(depths, r => r.compileMs) },
  }
}
