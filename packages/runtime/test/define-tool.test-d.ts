import * as OpenTelemetry from '@opentelemetry/api'
import { defineTool } from '@flatmcp/runtime'
import { expectTypeOf, it } from 'vitest'
import { z } from 'zod'

it('gives the handler the original union type and typed params', () => {
  defineTool({
    name: 'send',
    params: z.object({ chatId: z.string() }),
    input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('message'), text: z.string() }),
      z.object({ kind: z.literal('mediaGroup'), media: z.array(z.string()) }),
    ]),
    handler: (input, { params }) => {
      expectTypeOf(input).toEqualTypeOf<{ kind: 'message', text: string } | { kind: 'mediaGroup', media: string[] }>()
      expectTypeOf(params).toEqualTypeOf<{ chatId: string }>()
      if (input.kind === 'mediaGroup')
        expectTypeOf(input.media).toEqualTypeOf<string[]>()
      return 'ok'
    },
  })
})

it('checks the result against the output schema', () => {
  defineTool({
    name: 'count',
    input: z.object({ q: z.string() }),
    output: z.object({ n: z.number() }),
    handler: () => ({ n: 1 }),
  })
  defineTool({
    name: 'count',
    input: z.object({ q: z.string() }),
    output: z.object({ n: z.number() }),
    // @ts-expect-error the output schema wants a number
    handler: () => ({ n: 'one' }),
  })
})

it('hands the handler a `trace` that OpenTelemetry\'s tracer takes as a span\'s parent, as the docs write it', () => {
  defineTool({
    name: 'lookup',
    input: z.object({ q: z.string() }),
    handler: ({ q }, { trace }) => {
      expectTypeOf(trace).toExtend<OpenTelemetry.Context | undefined>()
      OpenTelemetry.trace.getTracer('handler').startSpan('lookup', {}, trace).end()
      return q
    },
  })
})
