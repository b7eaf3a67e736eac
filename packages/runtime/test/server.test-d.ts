import { defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { createMcpServer as createMcpServerV1 } from '@flatmcp/runtime/sdk'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'

const tool = defineTool({ name: 't', input: z.object({ q: z.string() }), handler: input => input.q })

describe('createMcpServer options', () => {
  it('an inline extend.resolve gets its fields typed by the extend schema, on either SDK major', () => {
    createMcpServer([tool], { name: 's', version: '1' }, {
      extend: {
        schema: z.object({ tenant: z.string(), limit: z.number().optional() }),
        resolve: ({ tenant, limit }, request) => {
          expectTypeOf(tenant).toEqualTypeOf<string>()
          expectTypeOf(limit).toEqualTypeOf<number | undefined>()
          expectTypeOf(request.signal).toEqualTypeOf<AbortSignal>()
          return { tenant }
        },
      },
    })
    createMcpServerV1([tool], { name: 's', version: '1' }, {
      extend: { schema: z.object({ tenant: z.string() }), resolve: ({ tenant }) => tenant.toUpperCase() },
    })
  })
})
