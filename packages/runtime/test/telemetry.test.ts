// A server built with the plugin, traced: `createMcpServer(…, { telemetry })` with OpenTelemetry's
// own Node SDK started (spans kept in memory), on either SDK major: a SERVER span per tools/call as
// the semantic conventions for MCP name it, under the caller's traceparent, with flatmcp's repair
// and profile, and `onCall` beside it hearing the same call.
import type { ObservedCall } from '@flatmcp/runtime/server'
import type { TracedSdk } from '../../../test/support/traced-sdk'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer as createMcpServerV1 } from '@flatmcp/runtime/sdk'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { tracedSdk } from '../../../test/support/traced-sdk'
import { callTelemetry } from '../src/telemetry/call-telemetry'
import { ATTRIBUTES } from '../src/telemetry/conventions'

let sdk: TracedSdk
let exporter: TracedSdk['exporter']
let api: TracedSdk['api']

beforeAll(async () => {
  sdk = await tracedSdk()
  ;({ exporter, api } = sdk)
})
afterAll(async () => {
  await sdk.shutdown()
})

const add = defineTool({ name: 'add', input: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => String(a + b) })
const TRACE = '0af7651916cd43dd8448eb211c80319c'
const CALLER = 'b7ad6b7169203331'

describe('createMcpServer with telemetry', () => {
  it.each(['1.x', '2.x'] as const)('SDK %s: a tools/call is a SERVER span under the caller\'s traceparent, with the repair\'s paths; onCall hears the same call', async (major) => {
    exporter.reset()
    const heard: ObservedCall[] = []
    const options = { telemetry: api, onCall: (call: ObservedCall) => heard.push(call) }
    let result: unknown
    const before = Date.now()
    if (major === '2.x') {
      const client = new ClientV2({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
      await Promise.all([createMcpServer([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      result = await client.callTool({ name: 'add', arguments: { a: '2', b: 3 }, _meta: { traceparent: `00-${TRACE}-${CALLER}-01` } })
      await client.close()
    }
    else {
      const client = new Client({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await Promise.all([createMcpServerV1([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      result = await client.callTool({ name: 'add', arguments: { a: '2', b: 3 }, _meta: { traceparent: `00-${TRACE}-${CALLER}-01` } })
      await client.close()
    }
    expect((result as { content: { text: string }[] }).content[0]!.text).toBe('5')
    // Exported once the span's resource is read (a tick or two).
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(1)
    const [span] = exporter.getFinishedSpans()
    expect(span!.name).toBe('tools/call add')
    expect(span!.kind).toBe(api.SpanKind.SERVER)
    expect(span!.spanContext().traceId).toBe(TRACE)
    expect(span!.parentSpanContext?.spanId).toBe(CALLER)
    expect(span!.attributes).toMatchObject({ [ATTRIBUTES.method.key]: 'tools/call', [ATTRIBUTES.tool.key]: 'add', [ATTRIBUTES.transport.key]: 'pipe', [ATTRIBUTES.repair.key]: ['/a'] })
    expect(heard).toEqual([expect.objectContaining({ tool: 'add', outcome: 'ok', repaired: ['/a'] })])
    // Its time is when the call came, however late it is read, and goes wherever the record is copied or written.
    const [call] = heard
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(Date.parse(call!.time)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(call!.time)).toBeLessThanOrEqual(Date.now() - 20)
    expect(call!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect({ ...call }.time).toBe(call!.time)
    expect((JSON.parse(JSON.stringify(call)) as ObservedCall).time).toBe(call!.time)
  })
})

describe('a request other than a call', () => {
  it('tools/list is a SERVER span of its method under the caller\'s _meta.traceparent', async () => {
    exporter.reset()
    const client = new ClientV2({ name: 't', version: '1' })
    const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
    await Promise.all([createMcpServer([add], { name: 's', version: '1' }, { telemetry: api }).connect(serverSide), client.connect(clientSide)])
    await client.request({ method: 'tools/list', params: { _meta: { traceparent: `00-${TRACE}-${CALLER}-01` } } })
    await client.close()
    await expect.poll(() => exporter.getFinishedSpans().some(span => span.name === 'tools/list')).toBe(true)
    const span = exporter.getFinishedSpans().find(span => span.name === 'tools/list')!
    expect(span.kind).toBe(api.SpanKind.SERVER)
    expect(span.spanContext().traceId).toBe(TRACE)
    expect(span.parentSpanContext?.spanId).toBe(CALLER)
  })
})

describe('a call through a view (issue 69)', () => {
  const views = { triage: { tools: ['add'], profile: 'openai-strict' }, plain: { tools: ['add'] } }
  const served = async (choice: string | undefined): Promise<{ span: Record<string, unknown>, heard: ObservedCall }> => {
    exporter.reset()
    const heard: ObservedCall[] = []
    const client = new ClientV2({ name: 't', version: '1' })
    const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
    const server = createMcpServer([add], { name: 's', version: '1' }, { telemetry: api, views, onCall: call => heard.push(call), ...(choice === undefined ? {} : { profile: () => choice }) })
    await Promise.all([server.connect(serverSide), client.connect(clientSide)])
    await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
    await client.close()
    await expect.poll(() => exporter.getFinishedSpans().some(span => span.name === 'tools/call add')).toBe(true)
    return { span: exporter.getFinishedSpans().find(span => span.name === 'tools/call add')!.attributes, heard: heard[0]! }
  }
  const PROFILE = ATTRIBUTES.profile.key
  const VIEW = ATTRIBUTES.view.key

  it('reports the profile it was read in and the view apart, on its span and to onCall', async () => {
    const { span, heard } = await served('view:triage')
    expect({ profile: span[PROFILE], view: span[VIEW] }).toEqual({ profile: 'openai-strict', view: 'triage' })
    expect(heard).toMatchObject({ profile: 'openai-strict', view: 'triage' })
  })

  it('a view with no profile of its own is read in the base profile: no profile is said, the view is', async () => {
    const { span, heard } = await served('view:plain')
    expect({ profile: span[PROFILE], view: span[VIEW] }).toEqual({ profile: undefined, view: 'plain' })
    expect(heard.profile).toBeUndefined()
    expect(heard.view).toBe('plain')
  })

  it('a plain profile says no view; a view no one has is no view, and no profile either', async () => {
    const plain = await served('gemini')
    expect({ profile: plain.span[PROFILE], view: plain.span[VIEW] }).toEqual({ profile: 'gemini', view: undefined })
    expect(plain.heard).toMatchObject({ profile: 'gemini' })
    expect(plain.heard.view).toBeUndefined()
    const nobody = await served('view:nobody')
    expect({ profile: nobody.span[PROFILE], view: nobody.span[VIEW] }).toEqual({ profile: undefined, view: undefined })
  })
})

describe('a span the sampler dropped', () => {
  it('is given nothing past its start (no name, no attribute), and the call is still counted', async () => {
    const told: string[] = []
    const span = { isRecording: () => false, setAttribute: (key: string) => told.push(`attribute ${key}`), setStatus: () => told.push('status'), updateName: (name: string) => told.push(`name ${name}`), end: () => told.push('end') }
    const counted: Record<string, string>[] = []
    const instrument = { record: () => {}, add: (_: number, attributes?: Record<string, string>) => counted.push(attributes ?? {}) }
    const fake = {
      trace: { getTracer: () => ({ startSpan: () => span }), setSpan: () => ({}), getActiveSpan: () => span, getSpan: () => span },
      context: { active: () => ({}), with: <T>(_: unknown, fn: () => T): T => fn() },
      propagation: { inject: () => {}, extract: () => ({}) },
      metrics: { getMeter: () => ({ createHistogram: () => instrument, createCounter: () => instrument }) },
    }
    const telemetry = callTelemetry(fake, () => 'graph')
    await telemetry.serve({ method: 'tools/call', tool: 'add', requestId: 1, transport: 'pipe' }, async () => {
      telemetry.finish({ tool: 'add', profile: 'gemini', outcome: 'ok', repaired: ['/a'] })
    })
    expect(told).toEqual(['end'])
    expect(counted).toEqual([
      { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'flatmcp.upstream': 'graph', 'flatmcp.outcome': 'ok' },
      { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool', 'flatmcp.upstream': 'graph' },
    ])
  })
})

describe('an API object made by hand without trace.getSpan', () => {
  it('still records a call and its upstream call under the active span, and nothing throws', async () => {
    const named: string[] = []
    const span = { isRecording: () => true, setAttribute: (key: string) => named.push(key), setStatus: () => {}, updateName: () => {}, end: () => {} }
    const instrument = { record: () => {}, add: () => {} }
    const fake = {
      trace: { getTracer: () => ({ startSpan: () => span }), setSpan: () => ({}), getActiveSpan: () => span },
      context: { active: () => ({}), with: <T>(_: unknown, fn: () => T): T => fn() },
      propagation: { inject: () => {}, extract: () => ({}) },
      metrics: { getMeter: () => ({ createHistogram: () => instrument, createCounter: () => instrument }) },
    }
    const telemetry = callTelemetry(fake as unknown as Parameters<typeof callTelemetry>[0])
    await telemetry.serve({ method: 'tools/call', tool: 'add', requestId: 1, transport: 'pipe' }, async (trace) => {
      telemetry.upstream('add', undefined, {}, trace).end()
      telemetry.finish({ tool: 'add', profile: 'gemini', outcome: 'ok', repaired: [] }, true, undefined, trace)
    })
    expect(named).toContain(ATTRIBUTES.profile.key)
  })
})

describe('a tool whose upstream changes (issue 70)', () => {
  it('is said on its span and measured with the upstream known when its call ends, as each call learns it', async () => {
    const named: Record<string, unknown>[] = []
    const counted: Record<string, string>[] = []
    const span = () => {
      const attributes: Record<string, unknown> = {}
      named.push(attributes)
      return { isRecording: () => true, setAttribute: (key: string, value: unknown) => attributes[key] = value, setStatus: () => {}, updateName: () => {}, end: () => {} }
    }
    let current: ReturnType<typeof span> | undefined
    const instrument = { record: () => {}, add: (_: number, attributes?: Record<string, string>) => counted.push(attributes ?? {}) }
    const fake = {
      trace: { getTracer: () => ({ startSpan: (_: string, options: { attributes?: Record<string, unknown> }) => {
        current = span()
        Object.assign(named.at(-1)!, options.attributes)
        return current
      } }), setSpan: () => ({}), getActiveSpan: () => current, getSpan: () => current },
      context: { active: () => ({}), with: <T>(_: unknown, fn: () => T): T => fn() },
      propagation: { inject: () => {}, extract: () => ({}) },
      metrics: { getMeter: () => ({ createHistogram: () => instrument, createCounter: () => instrument }) },
    }
    // As a gateway's: the fallback until the tool's server has listed it, then that server.
    let upstream = 'gateway'
    const telemetry = callTelemetry(fake, () => upstream)
    await telemetry.serve({ method: 'tools/call', tool: 'add', requestId: 1, transport: 'pipe' }, async () => {
      upstream = 'graph'
      telemetry.finish({ tool: 'add', outcome: 'ok', repaired: [] })
    })
    await telemetry.serve({ method: 'tools/call', tool: 'add', requestId: 2, transport: 'pipe' }, async () => {
      telemetry.finish({ tool: 'add', outcome: 'ok', repaired: [] })
    })
    expect(named.map(attributes => attributes['flatmcp.upstream'])).toEqual(['graph', 'graph'])
    expect(counted.map(attributes => attributes['flatmcp.upstream'])).toEqual(['graph', 'graph'])
  })
})

describe('a metric\'s attributes (issue 70)', () => {
  // A fake API whose counter keeps each attribute set it is handed; no span is active.
  const counting = (upstreamOf: (tool: string) => string | undefined) => {
    const counted: Record<string, string>[] = []
    const instrument = { record: () => {}, add: (_: number, attributes?: Record<string, string>) => counted.push(attributes ?? {}) }
    const fake = {
      trace: { getTracer: () => ({ startSpan: () => ({}) }), setSpan: () => ({}), getActiveSpan: () => undefined, getSpan: () => undefined },
      context: { active: () => ({}), with: <T>(_: unknown, fn: () => T): T => fn() },
      propagation: { inject: () => {}, extract: () => ({}) },
      metrics: { getMeter: () => ({ createHistogram: () => instrument, createCounter: () => instrument }) },
    }
    return { counted, telemetry: callTelemetry(fake as unknown as Parameters<typeof callTelemetry>[0], upstreamOf) }
  }
  // Texts made of the attributes' own names and values, lengths and separators: the likeliest to make two calls' attributes one.
  const pieces = [...Object.values(ATTRIBUTES).map(({ key }) => key), 'execute_tool', 'tools/call', 'tool_error', '_OTHER', 'ok', 'a', '1', '2', ':', '"', ',']
  const text = fc.array(fc.constantFrom('', ...pieces.flatMap(piece => [piece, `${piece}:`, `${piece.length}:${piece}`])), { maxLength: 8 }).map(parts => parts.join(''))

  it('are each call\'s own, whatever the tool, upstream and outcome are named', () => {
    // Two calls whose texts hold what a key made of the attributes would put between its values,
    // shifted by one value: a set kept under such a key would hand one call the other's.
    const [operation, upstream] = [ATTRIBUTES.operation.key, ATTRIBUTES.upstream.key]
    const middles = [`${operation}:execute_tool${upstream}:`, `${operation}execute_tool${upstream}`, `${operation.length}:${operation}12:execute_tool${upstream.length}:${upstream}`, '"', '","']
    const shifted = fc.tuple(text, text, text, fc.constantFrom(...middles), fc.nat(3)).map(([a, b, c, middle, digits]) => {
      const between = `${middle}${'1'.repeat(digits)}`
      return [{ tool: a, upstream: `${b}${between}${c}` }, { tool: `${a}${between}${b}`, upstream: c }]
    })
    const calls = fc.array(fc.oneof(shifted, fc.record({ tool: text, upstream: fc.option(text, { nil: undefined }) }).map(call => [call])), { minLength: 1, maxLength: 20 })
      .chain(groups => fc.tuple(fc.constant(groups.flat()), fc.array(text, { minLength: groups.flat().length, maxLength: groups.flat().length })))
    fc.assert(fc.property(calls, ([made, outcomes]) => {
      const upstreams = new Map<string, string | undefined>()
      const { counted, telemetry } = counting(tool => upstreams.get(tool))
      for (const [index, call] of made.entries()) {
        const outcome = outcomes[index]!
        counted.length = 0
        upstreams.set(call.tool, call.upstream)
        telemetry.finish({ tool: call.tool, outcome: outcome as ObservedCall['outcome'], repaired: [] })
        expect({ ...counted[0] }).toStrictEqual({
          [ATTRIBUTES.method.key]: 'tools/call',
          [ATTRIBUTES.tool.key]: call.tool,
          [ATTRIBUTES.operation.key]: 'execute_tool',
          ...(call.upstream === undefined ? {} : { [ATTRIBUTES.upstream.key]: call.upstream }),
          ...(outcome === 'ok' ? {} : { [ATTRIBUTES.errorType.key]: outcome === 'tool-error' ? 'tool_error' : '_OTHER' }),
          [ATTRIBUTES.outcome.key]: outcome,
        })
      }
    }), { numRuns: 300, seed: 70 })
  })

})

describe('the _meta a call sends upstream (issue 70)', () => {
  it('keeps every key of the caller\'s own but its trace context, which is the CLIENT span\'s', async () => {
    // As a transport hands it on: parsed from JSON text, so `__proto__` may be a key of its own.
    const sent = JSON.parse(`{"progressToken":7,"traceparent":"00-${TRACE}-${CALLER}-01","tracestate":"vendor=1","__proto__":{"polluted":true},"note":{"a":[1]}}`) as Record<string, unknown>
    const telemetry = callTelemetry(api)
    const carried = await telemetry.serve({ method: 'tools/call', tool: 'add', requestId: 1, transport: 'pipe' }, async (trace) => {
      const upstream = telemetry.upstream('add', sent, {}, trace)
      upstream.end()
      return upstream.meta
    })
    expect(Object.getPrototypeOf(carried)).toBe(Object.prototype)
    expect((carried as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.keys(carried).sort()).toEqual(['__proto__', 'note', 'progressToken', 'traceparent'])
    expect(JSON.parse(JSON.stringify(carried))).toMatchObject({ progressToken: 7, note: { a: [1] } })
    expect(Object.getOwnPropertyDescriptor(carried, '__proto__')?.value).toEqual({ polluted: true })
    // The caller's span is not the parent's: the CLIENT span's context replaces what the caller sent.
    const [, trace, span] = String(carried.traceparent).split('-')
    expect(span).not.toBe(CALLER)
    expect(trace).toHaveLength(32)
    expect(sent.traceparent).toBe(`00-${TRACE}-${CALLER}-01`)
  })
})
