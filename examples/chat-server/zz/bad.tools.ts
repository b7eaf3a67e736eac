import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'
export const t = defineTool({ name: 't', input: z.object({ at: z.date() }), handler: () => 1 })
