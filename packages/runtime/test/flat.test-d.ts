import { flat } from '@flatmcp/runtime'
import { McpServer } from '@modelcontextprotocol/server'
import { expectTypeOf, it } from 'vitest'
import { z } from 'zod'

const Send = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('media'), urls: z.array(z.string()) }),
])

it('keeps the original types, so SDK 2.x registerTool hands the handler the union', () => {
  const input = flat(Send)
  expectTypeOf(input.schema).toEqualTypeOf<typeof Send>()
  const server = new McpServer({ name: 't', version: '1' })
  server.registerTool('send', { inputSchema: input }, (value) => {
    expectTypeOf(value).toEqualTypeOf<{ kind: 'text', text: string } | { kind: 'media', urls: string[] }>()
    // @ts-expect-error `text` exists on one variant only
    void value.text
    return { content: [] }
  })
})
