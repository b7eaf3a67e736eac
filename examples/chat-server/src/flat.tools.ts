// src/flat.tools.ts: a flat() input schema in a tool module, so the plugin precomputes it.
import { flat } from '@flatmcp/runtime'
import { z } from 'zod'

export const Send = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('mediaGroup'), media: z.array(z.object({ url: z.string() })).min(1) }),
])
export const sendInput = flat(Send, { name: 'send' })
