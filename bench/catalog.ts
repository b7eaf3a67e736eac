// A generated, realistic tool catalogue for the benchmarks: a third discriminated unions at the root,
// a third objects that hold unions (some with params), a third plain objects.
import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'

const Media = z.object({ url: z.string().url(), caption: z.string().max(200).optional() })

export function toolAt(i: number) {
  const kind = i % 3
  if (kind === 0) {
    return defineTool({
      name: `send_${i}`,
      description: `Send something to channel ${i}.`,
      input: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('message'), text: z.string().min(1), media: Media.optional() }).describe('one message'),
        z.object({ kind: z.literal('mediaGroup'), media: z.array(Media).min(2).max(10) }).describe('an album'),
        z.object({ kind: z.literal('poll'), question: z.string(), options: z.array(z.string()).min(2), anonymous: z.boolean().default(true) }).describe('a poll'),
      ]),
      handler: input => input.kind,
    })
  }
  if (kind === 1) {
    return defineTool({
      name: `update_${i}`,
      description: `Update record ${i}.`,
      params: z.object({ id: z.string().describe('Record id') }),
      input: z.object({
        patch: z.discriminatedUnion('op', [
          z.object({ op: z.literal('set'), path: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) }),
          z.object({ op: z.literal('remove'), path: z.string() }),
          z.object({ op: z.enum(['append', 'prepend']), path: z.string(), items: z.array(z.string()) }),
        ]),
        dryRun: z.boolean().optional(),
      }),
      handler: (input, { params }) => `${params.id}:${input.patch.op}`,
    })
  }
  return defineTool({
    name: `search_${i}`,
    description: `Search index ${i}.`,
    annotations: { readOnlyHint: true },
    input: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(100).default(20),
      filters: z.object({ from: z.iso.datetime().optional(), tags: z.array(z.string()).optional() }).optional(),
    }),
    handler: input => `${input.query}:${input.limit}`,
  })
}

/** Source of a tool module exporting tools 0 … n-1, for bundlers and the plugin. */
export function catalogModule(n: number, catalogImport: string): string {
  const lines = [`import { toolAt } from '${catalogImport}'`]
  for (let i = 0; i < n; i++)
    lines.push(`export const tool${i} = toolAt(${i})`)
  return `${lines.join('\n')}\n`
}
