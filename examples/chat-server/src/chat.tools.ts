import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'

const Media = z.object({
  url: z.string().url().describe('Where the file is'),
  caption: z.string().max(1024).optional(),
})

/** (a) A union whose variants disagree on `media`: one object vs an array of them. */
export const sendMessage = defineTool({
  name: 'send_message',
  description: 'Send a message or a media group to a chat.',
  input: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('message'),
      text: z.string().min(1).describe('Message text'),
      media: Media.optional().describe('One attachment'),
    }).describe('send one message'),
    z.object({
      kind: z.literal('mediaGroup'),
      media: z.array(Media).min(2).max(10).describe('Two to ten attachments'),
    }).describe('send an album'),
  ]),
  handler: input => input.kind === 'message' ? `sent "${input.text}"` : `sent ${input.media.length} files`,
})

/** (b) Path-like params beside a union input. */
export const updateChat = defineTool({
  name: 'update_chat',
  params: z.object({ chatId: z.string().describe('The chat to change') }),
  input: z.discriminatedUnion('action', [
    z.object({ action: z.literal('rename'), title: z.string().min(1).max(128) }),
    z.object({ action: z.enum(['mute', 'unmute']), until: z.iso.datetime().optional() }),
  ]),
  handler: (input, { params }) => `${input.action} ${params.chatId}`,
})

/** (c) A plain object tool: nothing to flatten. */
export const getChat = defineTool({
  name: 'get_chat',
  annotations: { readOnlyHint: true },
  input: z.object({ chatId: z.string(), limit: z.number().int().min(1).max(100).default(20) }),
  handler: input => ({ chatId: input.chatId, messages: [] as string[] }),
})

/** (d) A union nested inside an array. */
export const sendBatch = defineTool({
  name: 'send_batch',
  input: z.object({
    items: z.array(z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), body: z.string() }),
      z.object({ type: z.literal('poll'), question: z.string(), options: z.array(z.string()).min(2) }),
    ])).min(1),
  }),
  handler: input => `${input.items.length} sent`,
})
