// The rest of a tool's surface. Outputs: what an output schema costs a model's context, as flatmcp
// lists it beside what the SDK 2.x `McpServer` lists for the same zod output (to a 2025 client, which
// is where it rewrites a non-object root), in o200k_base tokens of compact JSON. Elicitation: the
// rounds and fields a schema's forms ask, and what their requests cost.
import type { CompiledTool } from '@flatmcp/core'
import { compileForm, compileTool } from '@flatmcp/core'
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

/** Schemas written to be asked for: a flat one, a nested one with optional parts, a union of three. */
export const FORM_SCHEMAS: [string, z.ZodType][] = [
  ['contact (flat)', z.object({ name: z.string(), email: z.email(), newsletter: z.boolean().default(false) })],
  ['booking (nested, optional parts)', z.object({ name: z.string(), when: z.iso.date(), seats: z.number().int().min(1).max(8), address: z.object({ city: z.string(), zip: z.string().optional() }), billing: z.object({ city: z.string(), zip: z.string().optional() }).optional(), tags: z.array(z.enum(['window', 'quiet'])).optional() })],
  ['payment (a union of three)', z.discriminatedUnion('method', [z.object({ method: z.literal('card'), card: z.object({ number: z.string(), holder: z.string() }) }), z.object({ method: z.literal('invoice'), address: z.object({ city: z.string() }) }), z.object({ method: z.literal('cash') })])],
]

export interface FormRow { schema: string, rounds: number, fields: number, tokens: number }

/** Rounds a form takes to ask (the longest path through a union), the fields asked, and the tokens of its requests. */
export async function runForms(log: (line: string) => void): Promise<FormRow[]> {
  await loadTokenizer()
  return FORM_SCHEMAS.map(([name, schema]) => {
    log(`forms: ${name}`)
    const form = compileForm(schema)
    const variants = Object.values(form.union?.rounds ?? {})
    const longest = variants.reduce((most, round) => Math.max(most, round.fields.length), 0)
    const requests = [form.first, ...variants].map(round => tokensOf(JSON.stringify(round.requestedSchema))).reduce((sum, n) => sum + n, 0)
    return { schema: name, rounds: variants.length > 0 ? 2 : 1, fields: form.first.fields.length + longest, tokens: requests }
  })
}
