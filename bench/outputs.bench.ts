// What a tool's output schema costs a model's context, as flatmcp lists it beside what the SDK 2.x
// `McpServer` lists for the same zod output (to a 2025 client, which is where it rewrites a
// non-object root): o200k_base tokens of the output schema as compact JSON.
import type { CompiledTool } from '@flatmcp/core'
import { compileTool } from '@flatmcp/core'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server'
import { z } from 'zod'
import { loadTokenizer, tokensOf } from '../packages/unplugin/src/core/compile/tokens'

const Media = z.object({ url: z.url(), caption: z.string().max(200).optional() })
const Message = z.object({ id: z.string(), at: z.iso.datetime(), text: z.string().optional(), media: z.array(Media).optional() })

/** Outputs in the shapes tools return: an object, a union of objects, an array of objects, a scalar. */
export const OUTPUTS: [string, z.ZodType][] = [
  ['object', Message],
  ['union of objects', z.discriminatedUnion('status', [z.object({ status: z.literal('sent'), message: Message }), z.object({ status: z.literal('queued'), position: z.number().int() }), z.object({ status: z.literal('failed'), reason: z.string() })])],
  ['array of objects', z.array(Message)],
  ['scalar', z.number().int().nonnegative()],
]

export interface OutputRow { shape: string, sdk: number, flat: number, wrapped: boolean }

export async function runOutputs(log: (line: string) => void): Promise<OutputRow[]> {
  await loadTokenizer()
  const server = new McpServer({ name: 'outputs', version: '1' })
  for (const [shape, output] of OUTPUTS)
    server.registerTool(shape.replace(/ /g, '_'), { inputSchema: z.object({}), outputSchema: output }, async () => ({ content: [] }) as never)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } })
  await client.connect(clientSide)
  const listed = (await client.listTools()).tools
  await client.close()
  return OUTPUTS.map(([shape, output]) => {
    log(`outputs: ${shape}`)
    const compiled: CompiledTool = compileTool({ name: shape, input: z.object({}), output })
    const sdk = listed.find(tool => tool.name === shape.replace(/ /g, '_'))!.outputSchema
    return { shape, sdk: tokensOf(JSON.stringify(sdk)), flat: tokensOf(JSON.stringify(compiled.outputSchema)), wrapped: compiled.outputWrap !== undefined }
  })
}
