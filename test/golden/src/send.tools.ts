// A union tool as most servers write one: a tag, variants with keys of their own and in common, an
// object output. No import of flatmcp: its artifact covers this file alone.
import { z } from 'zod'

const Media = z.object({ id: z.string().describe('The file id.'), caption: z.string().max(200).optional() })

export const send = {
  name: 'send_message',
  title: 'Send a message',
  description: 'Sends a message, or an album of media, to a chat.',
  annotations: { destructiveHint: false },
  input: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('message').describe('one message'), chat: z.string(), text: z.string().min(1), silent: z.boolean().default(false) }),
    z.object({ kind: z.literal('album').describe('an album of media'), chat: z.string(), media: z.array(Media).min(2).max(10) }),
  ]),
  output: z.object({ id: z.string(), sentAt: z.iso.datetime() }),
  handler: () => ({ id: 'm1', sentAt: '2026-01-01T00:00:00Z' }),
}
