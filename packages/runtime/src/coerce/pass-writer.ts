// The text of a compiled pass, written from a plan's shape alone: a function per planned place,
// object and array, each calling its sub-places by name. Every key, case name, kind, bound and step
// it needs is handed in as a constant (`C`), so no text of any plan is ever source text; the
// functions' names and numbers are the writer's own. `generated-pass.ts` makes it code.
import type { CoercionPlan } from '@flatmcp/core'
import type { ScalarReader } from './scalars'
import { MAX_DEPTH } from './coerce-args'

type Json = unknown
type Obj = Record<string, Json>
/** A compiled place: the value read back, itself when nothing changed. */
export type Place = (value: Json, depth: number) => Json


/** What the written code calls and charges: the call's work left, a string's parse, a planned object's step. */
export interface PassParts {
  budget: { work: number }
  parse: (text: string, kind: NonNullable<CoercionPlan['parse']>) => Json | undefined
  step: (plan: CoercionPlan) => ((value: Obj) => Obj) | undefined
  scalars?: ScalarReader
}

/**
 * Past this many functions, keys, cases and tuple positions written, a plan is walked by the closures:
 * its code would cost more to compile than it saves (and a function past V8's size for optimizing
 * runs no faster than they do).
 */
const MAX_WRITTEN = 2048
/** Past this many keys or cases at one object, a `Map` finds the function, not a chain of comparisons. */
const CHAIN = 8


/** The code written for `plan` and the constants it is handed; `undefined` past `MAX_WRITTEN`. */
export function writtenCode(plan: CoercionPlan, parts: PassParts): { body: string, constants: unknown[], units: number } | undefined {
  const writer = new Writer(parts)
  const body = writer.body(writer.place(plan))
  return body === undefined ? undefined : { body, constants: writer.constants, units: writer.units }
}

/** Writes one plan's functions: a place, an object and an array function per plan, each written once. */
class Writer {
  readonly constants: unknown[] = []
  private readonly names = [new Map<CoercionPlan, string>(), new Map<CoercionPlan, string>(), new Map<CoercionPlan, string>()]
  private readonly pending: (() => string)[] = []
  private readonly maps: string[] = []
  private count = 0
  /** Functions, keys, cases and tuple positions written so far. */
  private written = 0

  constructor(private readonly parts: PassParts) {}

  /** The name of a constant handed in (a key, a kind, a bound, a step). */
  private constant(value: unknown): string {
    this.written++
    this.constants.push(value)
    return `c${this.constants.length - 1}`
  }

  private named(kind: 0 | 1 | 2, plan: CoercionPlan, write: (name: string) => string): string {
    let name = this.names[kind]!.get(plan)
    if (name === undefined) {
      name = `${'poa'[kind]}${this.count++}`
      this.names[kind]!.set(plan, name)
      const fixed = name
      this.pending.push(() => write(fixed))
    }
    return name
  }

  /** Functions, keys, cases and tuple positions written. */
  get units(): number {
    return this.count + this.written
  }

  /**
   * Whether `more` units (keys or cases about to be written, each at least one) pass `MAX_WRITTEN`:
   * then they are counted unwritten, so `body` refuses the code, and no text is made to be thrown away.
   */
  private over(more: number): boolean {
    if (this.units + more <= MAX_WRITTEN)
      return false
    this.written += more
    return true
  }

  /** The code's text, the root place returned; `undefined` past `MAX_WRITTEN`. */
  body(root: string): string | undefined {
    const functions: string[] = []
    for (let i = 0; i < this.pending.length; i++) {
      if (this.units > MAX_WRITTEN)
        return undefined
      functions.push(this.pending[i]!())
    }
    if (this.units > MAX_WRITTEN)
      return undefined
    const constants = this.constants.map((_, i) => `const c${i} = C[${i}]`)
    return ['\'use strict\'', ...constants, ...functions, ...this.maps, `return ${root}`].join('\n')
  }

  /** A call of a sub-place on `x`, or `x` itself where nothing is planned. */
  private sub(plan: CoercionPlan | null | undefined): string {
    return plan ? `${this.place(plan)}(x, d + 1)` : 'x'
  }

  place(plan: CoercionPlan): string {
    return this.named(0, plan, name => this.placeText(name, plan))
  }

  private placeText(name: string, plan: CoercionPlan): string {
    const scalars = this.parts.scalars && plan.scalars ? `const s = R(v, ${this.constant(plan.scalars)})\n    if (s) return s.value\n    ` : ''
    const read = plan.parse ? `parse(v, d ? ${this.constant(plan.parse)} : 'object')` : `d ? undefined : parse(v, 'object')`
    const array = plan.items || plan.prefix ? `${this.named(2, plan, arrayName => this.arrayText(arrayName, plan))}(v, d)` : 'v'
    const objectWork = Boolean(plan.properties || plan.additional || plan.discriminator || this.parts.step(plan))
    const object = objectWork ? `return ${this.object(plan)}(v, d)` : 'B.work--\n  return v'
    return `function ${name}(v, d) {
  if (d > ${MAX_DEPTH} || B.work <= 0) return v
  B.work--
  if (typeof v === 'string') {
    ${scalars}const r = ${read}
    if (r === undefined) return v
    v = r
  }
  if (isArray(v)) return ${array}
  if (typeof v !== 'object' || v === null) return v
  ${object}
}`
  }

  private object(plan: CoercionPlan): string {
    return this.named(1, plan, name => this.objectText(name, plan))
  }

  private objectText(name: string, plan: CoercionPlan): string {
    const step = this.parts.step(plan)
    const keys = plan.additional ? this.everyKey(plan) : this.plannedKeys(plan)
    return `function ${name}(v, d) {
  if (B.work <= 0) return v
  B.work--
  ${step ? `v = ${this.constant(step)}(v)` : ''}
  let out = v
${keys}
${this.cases(plan)}
  return out
}`
  }

  /** Without `additional`, only the planned keys are visited. */
  private plannedKeys(plan: CoercionPlan): string {
    const properties = plan.properties ?? {}
    const keys = Object.keys(properties).filter(key => properties[key])
    if (this.over(keys.length))
      return ''
    return keys.map((key) => {
      const k = this.constant(key)
      return `  if (own(v, ${k})) {
    const x = v[${k}]
    const y = ${this.sub(properties[key])}
    if (y !== x) {
      if (out === v) out = { ...v }
      set(out, ${k}, y)
    }
  }`
    }).join('\n')
  }

  /** With `additional`, every key of the value: a named key's plan (none where it names none), else `additional`'s. */
  private everyKey(plan: CoercionPlan): string {
    const properties = plan.properties ?? {}
    const named = Object.keys(properties)
    if (this.over(named.length))
      return ''
    const rest = this.sub(plan.additional)
    let choose: string
    if (named.length <= CHAIN) {
      const chain = named.map(key => `k === ${this.constant(key)} ? ${this.sub(properties[key])} : `).join('')
      choose = `const y = ${chain}${rest}`
    }
    else {
      const map = this.map(named.map(key => [key, properties[key] ? this.place(properties[key]) : 'null']))
      choose = `const f = ${map}.get(k)
    const y = f === undefined ? ${rest} : f === null ? x : f(x, d + 1)`
    }
    return `  const ks = Object.keys(v)
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]
    const x = v[k]
    ${choose}
    if (y !== x) {
      if (out === v) out = { ...v }
      set(out, k, y)
    }
  }`
  }

  /** A discriminator's case the selected value names (its own, planned cases only) is the object's pass from there. */
  private cases(plan: CoercionPlan): string {
    const tag = plan.discriminator
    if (!tag)
      return ''
    const cases = Object.keys(tag.cases).filter(name => tag.cases[name])
    if (this.over(cases.length))
      return ''
    const choose = cases.length <= CHAIN
      ? cases.map(name => `    if (sel === ${this.constant(name)}) return ${this.object(tag.cases[name]!)}(out, d)`).join('\n')
      : `    const f = ${this.map(cases.map(name => [name, this.object(tag.cases[name]!)]))}.get(sel)\n    if (f !== undefined) return f(out, d)`
    return `  const sel = out[${this.constant(tag.key)}]
  if (typeof sel === 'string') {
${choose}
  }`
  }

  /** A `Map` from keys handed in as constants to functions by name, built once the functions are. */
  private map(entries: [string, string][]): string {
    const name = `m${this.maps.length}`
    this.maps.push(`const ${name} = new Map([${entries.map(([key, fn]) => `[${this.constant(key)}, ${fn}]`).join(', ')}])`)
    return name
  }

  private arrayText(name: string, plan: CoercionPlan): string {
    const prefix = plan.prefix ?? []
    const bound = plan.maxItems === undefined ? '' : ` || v.length > ${this.constant(plan.maxItems)}`
    const header = `function ${name}(v, d) {
  if (v.length > B.work${bound}) return v
  B.work -= v.length`
    if (!plan.items && prefix.every(sub => !sub))
      return `${header}\n  return v\n}`
    // Each tuple position is written, planned or not (a `case` of its own), so each is counted.
    if (this.over(prefix.length))
      return ''
    this.written += prefix.length
    const items = this.sub(plan.items)
    const choose = prefix.length === 0
      ? `const y = ${items}`
      : `let y\n    switch (i) {\n${prefix.map((sub, i) => `      case ${i}: y = ${this.sub(sub)}; break`).join('\n')}\n      default: y = ${items}\n    }`
    return `${header}
  let out = v
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    ${choose}
    if (y !== x) {
      if (out === v) out = v.slice()
      set(out, i, y)
    }
  }
  return out
}`
  }
}
