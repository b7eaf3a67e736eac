// src/flat-tmcp.ts: the same flat() schema served by tmcp, another Standard Schema MCP framework.
import { StdioTransport } from '@tmcp/transport-stdio'
import { McpServer } from 'tmcp'
import { JsonSchemaAdapter } from 'tmcp/adapter'
import { sendInput } from './flat.tools'

/** tmcp asks an adapter for JSON Schema: a flat() schema gives its own, precomputed. */
class StandardJsonSchemaAdapter extends JsonSchemaAdapter<typeof sendInput> {
  override async toJsonSchema(schema: typeof sendInput) {
    return schema['~standard'].jsonSchema.input({ target: 'draft-07' })
  }
}

const server = new McpServer({ name: 'chat-tmcp', version: '0.1.0', description: 'flat() on tmcp' }, { adapter: new StandardJsonSchemaAdapter(), capabilities: { tools: {} } })
server.tool({ name: 'send', description: 'Send a message', schema: sendInput }, async input => ({
  content: [{ type: 'text', text: input.kind === 'text' ? input.text : `sent ${input.media.length} files` }],
}))
new StdioTransport(server).listen()
