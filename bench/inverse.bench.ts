// The server's reading path (each try of the inverse map, then the original's parse, as
// `createMcpServer` reads a tools/call) beside zod's own parse: on clean model-shaped arguments, on
// arguments that need scalar repair, and on a hostile body of about 4 MiB per profile, which the
// reading path must not spend more on than zod spends rejecting it.
import type { CompiledTool, ProfileName } from '@flatmcp/core'
import { compileTool } from '@flatmcp/core'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { inverseArgs, triesOf } from '@flatmcp/runtime/coerce'
import { readArguments, readingPlan } from '../packages/runtime/src/read/readings'
import { toolAt } from './catalog'
import { interleaved, measure } from './measure'
import { PROFILES } from './profiles.bench'
import { z } from 'zod'

export interface InverseRow {
  profile: ProfileName
  case: string
  /** zod parse alone on the value the model meant (clean) or on the body as it arrived (hostile), ms. */
  zod: number
  /** The reading path on what the model wrote: each try until the original accepts one, ms. */
  read: number
  /** The inverse map alone, every try, on a hostile body (its share of the reading path); on clean arguments, the first try and zod's parse, ms. */
  inverse?: number
  /** The transport's JSON.parse of a hostile body: what every request of that size costs anyway, ms. */
  transport?: number
  /** JSON.parse of the JSON text the profile asked for in a hostile body (gemini's album), ms: a parse no reading of it can skip, printed beside. */
  text?: number
  /** The whole call through `createMcpServer` (an in-memory SDK 2.x client), answered, ms: on clean arguments, what the reading path's cost is a share of. */
  served?: number
  /** Clean arguments beside the least a server does to read what this profile's model writes (`zod` is that least): the row the clean target judges. */
  least?: true
}

/** A tools/call of `tool` through `createMcpServer` serving `profile`, over an in-memory SDK 2.x client: what one costs, answered. */
async function servedCall(tool: ReturnType<typeof defineTool>, profile: ProfileName): Promise<(args: Record<string, unknown>) => Promise<unknown>> {
  const server = createMcpServer([tool], { name: 'bench', version: '1' }, { profile })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(clientSide)
  await client.listTools()
  return args => client.callTool({ name: tool.name, arguments: args })
}

/**
 * A tool's reading as the server holds it: its reading plan and check made once per tool and profile
 * (the server keeps them on the tool's form), so a call pays only for reading its arguments.
 */
function serverReader(schema: z.ZodType, compiled: CompiledTool): (args: unknown) => boolean {
  const reading = readingPlan(compiled, true)
  const check = (value: unknown): { success: boolean } => schema.safeParse(value)
  const accepted = (result: { success: boolean }): boolean => result.success
  return args => (readArguments(args, reading, check, accepted) as { result: { success: boolean } }).result.success
}

/**
 * Bodies of about 4 MiB as a model following the profile might write them, both rejected by the
 * original (and, after them, a body of a million elements zod reports one by one): an album of 40,000 elements (the tool allows 10; zod stops at the length), and a poll
 * of 200,000 options without its question (zod reads every option first).
 */
function hostileBodies(profile: ProfileName): [string, Record<string, unknown>][] {
  const element = { url: `https://a.example/${'p'.repeat(60)}.png`, caption: 'c'.repeat(20) }
  const media = Array.from({ length: 40_000 }, () => profile === 'openai-strict' ? { ...element } : element)
  const options = Array.from({ length: 200_000 }, (_, i) => `option ${i}`.padEnd(18, '.'))
  const nulls = profile === 'openai-strict' ? { text: null, media: null, anonymous: null } : {}
  return [
    ['album of 40,000', { kind: 'mediaGroup', media: profile === 'gemini' ? JSON.stringify(media) : media }],
    ['poll of 200,000 options', { kind: 'poll', options, ...nulls }],
  ]
}

/** The top-level values a profile's decoding parses as the JSON text it asked for (gemini's album). */
function askedTexts(args: Record<string, unknown>, compiled: CompiledTool): string[] {
  const asked = compiled.decode?.properties ?? {}
  return Object.keys(asked).filter(key => asked[key]!.parse === 'json' && typeof args[key] === 'string').map(key => args[key] as string)
}

/** `send_0`'s album as each profile's model writes it (as the profiles section does): clean arguments. */
function cleanAlbum(profile: ProfileName): { meant: Record<string, unknown>, written: Record<string, unknown> } {
  const media = [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png', caption: 'two' }]
  const meant = { kind: 'mediaGroup', media }
  if (profile === 'openai-strict')
    return { meant, written: { kind: 'mediaGroup', text: null, question: null, options: null, anonymous: null, media: media.map(m => ({ caption: null, ...m })) } }
  return { meant, written: profile === 'gemini' ? { kind: 'mediaGroup', media: JSON.stringify(media) } : meant }
}

/**
 * The least a server does before zod to read what a profile's model writes, where zod alone is not
 * it: gemini's advertised JSON text parsed; openai-strict's nulls dropped (a hand-written copy of each
 * object without its null keys). None for portable and anthropic-strict: zod alone.
 */
function fairBase(profile: ProfileName, written: Record<string, unknown>): { name: string, read: (args: Record<string, unknown>) => unknown } | undefined {
  if (profile === 'gemini')
    return { name: 'zod + JSON.parse of the advertised text', read: args => ({ ...args, media: JSON.parse(written.media as string) as unknown }) }
  if (profile === 'openai-strict')
    return { name: 'zod on the arguments with their nulls dropped', read: withoutNulls }
  return undefined
}

/** A copy without null-valued keys, at any depth. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map(withoutNulls)
  if (typeof value !== 'object' || value === null)
    return value
  const kept: Record<string, unknown> = {}
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (item !== null)
      kept[key] = withoutNulls(item)
  }
  return kept
}

const TAG = defineTool({ name: 'tag', input: z.object({ items: z.array(z.object({ meta: z.record(z.string(), z.string()), note: z.string().optional() })) }), handler: () => 1 })
export const NOT_JSON = '4,000 JSON texts that do not parse'

export async function runInverse(log: (line: string) => void): Promise<InverseRow[]> {
  const rows: InverseRow[] = []
  // Every clean figure first: the bodies' rounds collect the heap, and a full collection may drop
  // the code and feedback the clean rounds' sub-microsecond figures rest on.
  for (const profile of PROFILES)
    rows.push(...await cleanRows(profile, log))
  for (const profile of PROFILES)
    rows.push(...await bodyRows(profile, log))
  return rows.sort((a, b) => PROFILES.indexOf(a.profile) - PROFILES.indexOf(b.profile))
}

/** Scalar repair and clean arguments under one profile: sub-microsecond figures, timed in turns. */
async function cleanRows(profile: ProfileName, log: (line: string) => void): Promise<InverseRow[]> {
  const rows: InverseRow[] = []
  const send = toolAt(0)
  const search = toolAt(2)
  log(`inverse ${profile}: clean`)
  const sendCompiled = compileTool(send, { profile })
  const sendRead = serverReader(send.input, sendCompiled)
  const searchCompiled = compileTool(search, { profile })
  const searchRead = serverReader(search.input, searchCompiled)
  const strict = profile === 'openai-strict'
  // Scalar repair: a number and a nested object sent as text; zod alone rejects the number.
  const meant = { query: 'cats', limit: 5, filters: { tags: ['a'] } }
  const repaired = { query: 'cats', limit: '5', filters: JSON.stringify({ ...(strict ? { from: null } : {}), tags: ['a'] }) }
  if (!searchRead(repaired))
    throw new Error(`${profile}: the repaired search arguments do not parse`)
  const repair = interleaved({
    zod: () => search.input.safeParse(meant),
    read: () => searchRead(repaired),
  }, { batch: 500 })
  rows.push({ profile, case: 'scalar repair (search)', zod: repair.zod, read: repair.read })
  // Clean arguments: the server's reading path, and the first try of the inverse map then zod, beside zod on the value meant.
  const { meant: album, written } = cleanAlbum(profile)
  if (!sendRead(written))
    throw new Error(`${profile}: the clean album does not parse`)
  // Beside zod alone, the least a server does where the profile's form costs work of its own.
  const fair = fairBase(profile, written)
  const clean = interleaved({
    zod: () => send.input.safeParse(album),
    read: () => sendRead({ ...written }),
    inverse: () => send.input.safeParse(inverseArgs({ ...written }, sendCompiled)),
    copy: () => ({ ...written }),
    fair: () => send.input.safeParse(fair ? fair.read({ ...written }) : { ...written }),
  })
  // The whole call a client waits for, on the same arguments: what the reading path's cost is a share of.
  const call = await servedCall(send, profile)
  const served = await measure(() => call({ ...written }), { budgetMs: 1500, min: 20, max: 400, batch: 20 })
  rows.push({ profile, case: 'clean album', zod: clean.zod, read: clean.read - clean.copy, inverse: clean.inverse - clean.copy, served, ...(fair ? {} : { least: true as const }) })
  log(`inverse ${profile}: clean arguments, the reading path ${(rows.at(-1)!.read / clean.zod).toFixed(2)}× zod alone, inverse + zod ${(rows.at(-1)!.inverse! / clean.zod).toFixed(2)}×`)
  if (fair) {
    const base = clean.fair - clean.copy
    rows.push({ profile, case: `clean album beside ${fair.name}`, zod: base, read: clean.read - clean.copy, inverse: clean.inverse - clean.copy, served, least: true })
    log(`inverse ${profile}: clean arguments beside ${fair.name}, the reading path ${(rows.at(-1)!.read / base).toFixed(2)}×, inverse + zod ${(rows.at(-1)!.inverse! / base).toFixed(2)}×`)
  }
  return rows
}

/** Hostile bodies under one profile: megabytes each, timed on a collected heap. */
async function bodyRows(profile: ProfileName, log: (line: string) => void): Promise<InverseRow[]> {
  const rows: InverseRow[] = []
  const send = toolAt(0)
  const strict = profile === 'openai-strict'
  log(`inverse ${profile}: bodies`)
  const sendCompiled = compileTool(send, { profile })
  const sendRead = serverReader(send.input, sendCompiled)
  for (const [name, written] of hostileBodies(profile)) {
    const body = JSON.stringify(written)
    const arrived = JSON.parse(body) as Record<string, unknown>
    if (sendRead(arrived))
      throw new Error(`${profile}: the hostile body ${name} parses`)
    // A shallow copy per call: a new request's arguments (the decode memo is per arguments object).
    // In alternation, each on a collected heap: a body this size leaves garbage whichever one runs
    // next would pay for, and timed one after another the same build gave gemini's album 0.97× and
    // 1.88× the transport's parse.
    const texts = askedTexts(arrived, sendCompiled)
    const { zod, read, inverse, transport, text } = interleaved({
      zod: () => send.input.safeParse(arrived),
      read: () => sendRead({ ...arrived }),
      inverse: () => {
        const fresh = { ...arrived }
        for (const [reading, scalars] of triesOf(sendCompiled))
          inverseArgs(fresh, sendCompiled, reading, scalars)
      },
      transport: () => JSON.parse(body),
      text: () => texts.map(item => JSON.parse(item) as unknown),
    }, { batch: 1, rounds: 15, collect: true })
    rows.push({ profile, case: `${name} (${(body.length / 2 ** 20).toFixed(1)} MiB)`, zod, read, inverse, transport, ...(texts.length > 0 ? { text } : {}) })
    log(`inverse ${profile}: hostile ${name}, the inverse map ${(inverse / transport).toFixed(2)}× the transport's parse${texts.length > 0 ? `, ${(inverse / text).toFixed(2)}× its JSON text's` : ''} (target ≤ 1.5× the transport's)`)
  }
  // JSON text at 4,000 places, none of which parses (each fails at its end): a strict profile reads
  // the body three times, and a text fails to parse once, not once per reading.
  const tagRead = serverReader(TAG.input, compileTool(TAG, { profile }))
  const notJson = { items: Array.from({ length: 4000 }, (_, i) => ({ meta: `{"k":"${i}${'x'.repeat(1000)}}`, ...(strict ? { note: null } : {}) })) }
  const notJsonBody = JSON.stringify(notJson)
  const notJsonArrived = JSON.parse(notJsonBody) as Record<string, unknown>
  const notJsonTiming = { budgetMs: 3000, min: 5, max: 15 }
  rows.push({
    profile,
    case: `${NOT_JSON} (${(notJsonBody.length / 2 ** 20).toFixed(1)} MiB)`,
    zod: await measure(() => TAG.input.safeParse(notJsonArrived), notJsonTiming),
    read: await measure(() => tagRead({ ...notJsonArrived }), notJsonTiming),
    transport: await measure(() => JSON.parse(notJsonBody), notJsonTiming),
    served: await measure(await servedCall(TAG, profile).then(call => () => call(notJsonArrived)), notJsonTiming),
  })
  // A body each of whose million elements zod reports (about 2 s to reject): once, not once per reading.
  const update = toolAt(1)
  const updateRead = serverReader(update.input, compileTool(update, { profile }))
  const million = { patch: { op: 'append', path: 'p', items: Array.from({ length: 1_000_000 }, () => 0) } }
  const slow = { budgetMs: 1, min: 2, max: 2 }
  rows.push({
    profile,
    case: '1,000,000 numbers where strings go (1.9 MiB)',
    zod: await measure(() => update.input.safeParse(million), slow),
    read: await measure(() => updateRead({ ...million }), slow),
  })
  return rows
}
