// An MCP server on the SDK 1.x's low-level `Server`, as most servers published on npm are, listing
// raw JSON Schema as such servers do: what an operator's proxy meets beyond inputs. Its output
// schemas carry a draft-07 `$schema` with `definitions` and a union, or a draft-03 one whose result
// misses it; it reads its environment (`MEMORY_FILE_PATH` and the like);
// it asks the client for its roots once initialized; and it lists the tools that need sampling or
// elicitation only to a client that offers them, as the reference "everything" server does.
// `tsx test/support/upstream-outputs.ts`, over stdio.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListRootsResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const server = new Server({ name: 'upstream-outputs', version: '1.0.0' }, { capabilities: { tools: {} } })

const object = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) })

/** What the server learnt of its client's roots, by `roots/list` once initialized. */
let roots: unknown = 'never asked'

const TOOLS = [
  {
    name: 'forecast',
    description: 'A forecast for a city.',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...object({ city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, ['city']) },
    outputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'array', items: { $ref: '#/definitions/Day' } } },
      required: ['city', 'days'],
      definitions: { Day: { anyOf: [object({ kind: { const: 'sun' }, high: { type: 'number' } }, ['kind']), object({ kind: { const: 'rain' }, mm: { type: 'number' } }, ['kind'])] } },
    },
  },
  {
    name: 'echo',
    description: 'Says a word back (its result misses its own output schema: echo is a number).',
    inputSchema: object({ word: { type: 'string' } }, ['word']),
    outputSchema: { $schema: 'http://json-schema.org/draft-03/schema#', ...object({ echo: { type: 'string' } }) },
  },
  {
    name: 'search',
    description: 'Searches, with thirty optional filters (more than Anthropic\'s strict mode takes).',
    // Closed, as zod-to-json-schema writes it: its one fallback is Anthropic's limit.
    inputSchema: { ...object({ query: { type: 'string' }, ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`filter${i}`, { type: 'string' }])) }, ['query']), additionalProperties: false },
  },
  {
    name: 'big',
    description: 'Says a long text: a result of the size asked, in megabytes.',
    inputSchema: object({ megabytes: { type: 'number' } }, ['megabytes']),
  },
  {
    name: 'env',
    description: 'Says what the environment holds for a name.',
    inputSchema: object({ name: { type: 'string' } }, ['name']),
  },
  {
    name: 'roots',
    description: 'Says the roots the client gave the server.',
    inputSchema: object({}),
  },
]

/** Tools a client may be offered only when it can do what they ask of it. */
const ASKING = [
  { name: 'sample', needs: 'sampling', description: 'Asks the client to sample a message.', inputSchema: object({ prompt: { type: 'string' } }) },
  { name: 'elicit', needs: 'elicitation', description: 'Asks the user a question.', inputSchema: object({ question: { type: 'string' } }) },
]

server.setRequestHandler(ListToolsRequestSchema, async () => {
  const capabilities = server.getClientCapabilities() ?? {}
  return { tools: [...TOOLS, ...ASKING.filter(tool => tool.needs in capabilities).map(({ needs: _needs, ...tool }) => tool)] }
})

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = (request.params.arguments ?? {}) as Record<string, unknown>
  const text = (value: unknown): { type: 'text', text: string } => ({ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) })
  switch (request.params.name) {
    case 'forecast': {
      const days = Array.from({ length: Number(args.days ?? 1) }, (_, i) => i % 2 === 0 ? { kind: 'sun', high: 20 + i } : { kind: 'rain', mm: i })
      const value = { city: args.city, days }
      return { content: [text(value)], structuredContent: value }
    }
    case 'echo':
      return { content: [text(`echo: ${String(args.word)}`)], structuredContent: { echo: 5 } }
    case 'search':
      return { content: [text(args)] }
    case 'big':
      return { content: [text('x'.repeat(Math.round(Number(args.megabytes) * 1024 * 1024)))] }
    case 'env':
      return { content: [text(process.env[String(args.name)] ?? '(unset)')] }
    case 'roots':
      return { content: [text(roots)] }
    default:
      return { isError: true, content: [text(`no tool ${request.params.name}`)] }
  }
})

server.oninitialized = () => {
  if (server.getClientCapabilities()?.roots) {
    server.request({ method: 'roots/list' }, ListRootsResultSchema).then((result) => {
      roots = result.roots
    }, (error: Error) => {
      roots = `refused: ${error.message}`
    })
  }
}

await server.connect(new StdioServerTransport())
