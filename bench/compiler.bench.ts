// Compiler benchmark: how compile time grows with union width and nesting depth.
// Run with `npm run bench`. Prints medians side by side; writes raw figures to bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { compileTool, flattenSchema, toOriginalSchema } from '@flatmcp/core'
import { z } from 'zod'

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

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Median wall time of `fn`, repeated until ~1.5 s or 40 samples (at least 5). */
function measure(fn: () => void): number {
  fn()
  const samples: number[] = []
  const start = performance.now()
  while (samples.length < 5 || (samples.length < 40 && performance.now() - start < 1500)) {
    const t0 = performance.now()
    fn()
    samples.push(performance.now() - t0)
  }
  return median(samples)
}

interface Row { case: string, nodes: number, toJsonMs: number, flattenMs: number, compileMs: number }

function run(label: string, schema: z.ZodType): Row {
  const original = toOriginalSchema(schema)
  const row: Row = {
    case: label,
    nodes: countNodes(original.schema),
    toJsonMs: measure(() => toOriginalSchema(schema)),
    flattenMs: measure(() => flattenSchema(original.schema, { notes: original.notes })),
    compileMs: measure(() => compileTool({ name: 'bench', input: schema })),
  }
  return row
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

const fmt = (ms: number): string => ms < 10 ? ms.toFixed(2) : ms.toFixed(1)

function table(rows: Row[]): void {
  console.log(`${'case'.padEnd(22)}${'nodes'.padStart(8)}${'zod→JSON ms'.padStart(13)}${'flatten ms'.padStart(12)}${'compileTool ms'.padStart(16)}${'flatten µs/node'.padStart(17)}`)
  for (const r of rows)
    console.log(`${r.case.padEnd(22)}${String(r.nodes).padStart(8)}${fmt(r.toJsonMs).padStart(13)}${fmt(r.flattenMs).padStart(12)}${fmt(r.compileMs).padStart(16)}${(r.flattenMs * 1000 / r.nodes).toFixed(2).padStart(17)}`)
}

console.log(`flatmcp compiler benchmark — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}\n`)

const widths = [10, 100, 200, 1000].map(width => run(`union ${width}×${KEYS_PER_VARIANT} keys`, union(width)))
table(widths)
const scaling = widths.filter(r => !r.case.includes('200'))
console.log(`\ngrowth exponent (time ∝ size^k, 10→1000 variants): flatten k=${growthExponent(scaling, r => r.flattenMs).toFixed(2)}, compileTool k=${growthExponent(scaling, r => r.compileMs).toFixed(2)}`)
const w200 = widths.find(r => r.case.includes('200'))!
const verdict = (ms: number): string => ms < 50 ? 'met' : 'MISSED'
console.log(`200-variant union, target < 50 ms: flatten ${fmt(w200.flattenMs)} ms (${verdict(w200.flattenMs)}); compileTool, zod's own toJSONSchema included, ${fmt(w200.compileMs)} ms (${verdict(w200.compileMs)})\n`)

const depths = Array.from({ length: 8 }, (_, i) => run(`nesting depth ${i + 1}`, nestedUnion(i + 1)))
table(depths)
console.log(`\ngrowth exponent over depth 1→8: flatten k=${growthExponent(depths, r => r.flattenMs).toFixed(2)}, compileTool k=${growthExponent(depths, r => r.compileMs).toFixed(2)}`)

mkdirSync(new URL('results/', import.meta.url), { recursive: true })
const file = new URL('results/compiler.json', import.meta.url)
writeFileSync(file, `${JSON.stringify({ node: process.version, cpus: os.cpus().length, widths, depths }, null, 2)}\n`)
console.log(`\nraw figures: ${file.pathname}`)
