// Shared timing helpers: medians of repeated runs, and a plain table printer.
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Median milliseconds of `fn`, after a warm-up, repeated until `budgetMs` or `max` samples (at least `min`). */
export async function measure(fn: () => unknown, { budgetMs = 1500, min = 5, max = 40, batch = 1 } = {}): Promise<number> {
  await fn()
  const samples: number[] = []
  const start = performance.now()
  while (samples.length < min || (samples.length < max && performance.now() - start < budgetMs)) {
    const t0 = performance.now()
    for (let i = 0; i < batch; i++) {
      const result = fn()
      // Await only real promises: awaiting a plain value would time the microtask queue.
      if (result instanceof Promise)
        await result
    }
    samples.push((performance.now() - t0) / batch)
  }
  return median(samples)
}

export function fmt(ms: number): string {
  if (ms < 0.01)
    return `${(ms * 1000).toFixed(2)}µs`
  return ms < 10 ? ms.toFixed(3) : ms.toFixed(1)
}

export function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(a / b < 10 ? 2 : 1)}×`
}

/** Prints rows as aligned columns: the first column left, the others right. */
export function table(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map(row => row.map(String))]
  const widths = header.map((_, i) => Math.max(...cells.map(row => row[i]!.length)))
  for (const row of cells)
    console.log(row.map((cell, i) => i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)).join('  '))
}

/**
 * Medians of several synchronous functions measured in alternation (A, B, A, B…), so drift in the
 * machine's speed (JIT, GC, the other core) affects all of them alike: for small differences. With
 * `collect` (for functions that each make megabytes of garbage), the heap is collected before each.
 */
export function interleaved<K extends string>(fns: Record<K, () => unknown>, { batch = 2000, rounds = 41, collect = false } = {}): Record<K, number> {
  const names = Object.keys(fns) as K[]
  const samples = Object.fromEntries(names.map(name => [name, [] as number[]])) as Record<K, number[]>
  const gc = collect ? collector() : undefined
  for (let round = -3; round < rounds; round++) {
    for (const name of round % 2 ? names : [...names].reverse()) {
      const fn = fns[name]
      // With `collect`, each sample starts on a collected heap: the garbage of the one before is not its to pay.
      gc?.()
      const t0 = performance.now()
      for (let i = 0; i < batch; i++)
        fn()
      if (round >= 0)
        samples[name].push((performance.now() - t0) / batch)
    }
  }
  return Object.fromEntries(names.map(name => [name, median(samples[name])])) as Record<K, number>
}

/** The garbage collector as a function (Node exposes it to a context made after the flag is set). */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}
