// What a section measured, checked against what it meant before a figure of it is printed: a list
// that should hold every tool holds every one, a surface served is the surface named, the inputs a
// section reads are at hand. Pure: each check says in one line what was off.
import { SURFACE_TOOLS } from '../packages/runtime/src/search/surface'

export interface SetupCheck {
  /** What was meant, e.g. "the gateway's full list". */
  what: string
  ok: boolean
  /** What was found, said so a reader of one line knows what was off. */
  found: string
}

/** The surface a served list is: every tool meant, the search surface's three tools, or neither. */
export type Served = 'full' | 'search' | 'neither'

const SEARCH = Object.values(SURFACE_TOOLS) as string[]

/** Which surface `served` is, where `meant` tools were to be listed in full. */
export function surfaceOf(served: readonly string[], meant: number): Served {
  const names = new Set(served)
  if (names.size === meant && served.length === meant && meant > 0)
    return 'full'
  if (SEARCH.every(name => names.has(name)))
    return 'search'
  return 'neither'
}

/** A list meant to hold every one of `meant` tools, once each. */
export function everyTool(what: string, served: readonly string[], meant: number): SetupCheck {
  const distinct = new Set(served).size
  return { what, ok: meant > 0 && distinct === meant && served.length === meant, found: `${distinct} of ${meant} tools${served.length !== distinct ? ` (${served.length - distinct} listed twice)` : ''}` }
}

/** A list meant to be `surface` (of `meant` tools, where full). */
export function servesSurface(what: string, served: readonly string[], meant: number, surface: Exclude<Served, 'neither'>): SetupCheck {
  const is = surfaceOf(served, meant)
  return { what, ok: is === surface, found: is === surface ? `--surface ${surface}` : `${is === 'neither' ? `neither surface: ${served.length} tools` : `the ${is} surface`}, not ${surface}` }
}

/** A list meant to hold tools at all (a server that did not start lists none). */
export function someTools(what: string, count: number): SetupCheck {
  return { what, ok: count > 0, found: `${count} tools` }
}

/** Names a measurement relies on, each listed. */
export function listed(what: string, served: readonly string[], needed: readonly string[]): SetupCheck {
  const names = new Set(served)
  const missing = needed.filter(name => !names.has(name))
  return { what, ok: missing.length === 0, found: missing.length === 0 ? `all ${needed.length} listed` : `not listed: ${missing.join(', ')}` }
}

/** An input a section reads, at hand or not (`absent` says where it was looked for). */
export function atHand(what: string, value: unknown, absent: string): SetupCheck {
  return { what, ok: value !== undefined && value !== null, found: value === undefined || value === null ? absent : 'at hand' }
}

/** The lines a run prints for a section whose setup is off: one per check that failed, naming the section. */
export function setupOff(section: string, checks: readonly SetupCheck[]): string[] {
  return checks.filter(check => !check.ok).map(check => `setup off in ${section}: ${check.what}: ${check.found}`)
}
