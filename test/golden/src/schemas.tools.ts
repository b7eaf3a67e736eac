// A flat() schema and an elicitation form: both need the runtime, whose linked workspace files the
// artifact's hash covers (the golden test leaves those out: see test/golden.test.ts).
import { elicitForm, flat } from '@flatmcp/runtime'
import { z } from 'zod'

export const searchInput = flat(z.union([
  z.object({ by: z.literal('name'), name: z.string() }),
  z.object({ by: z.literal('id'), id: z.number().int() }),
]), { name: 'search' })

export const contact = elicitForm(z.object({
  email: z.email().describe('Where we write to you'),
  plan: z.enum(['free', 'team']),
  address: z.object({ city: z.string(), zip: z.string().optional() }).optional(),
}), { name: 'contact' })
