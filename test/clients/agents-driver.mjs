// Runs one turn of an `@openai/agents` Agent with the example server as its MCP server, against the
// mock model at MOCK_URL: copied into the client's install folder and run there, so its imports
// resolve to the pinned packages. Prints the final output. With STRICT=1 the agent converts MCP
// schemas to strict mode (`mcpConfig.convertSchemasToStrict`): a schema strict mode takes is sent
// with `strict: true`, any other without.
import { Agent, MCPServerStdio, run, setDefaultOpenAIClient, setTracingDisabled } from '@openai/agents'
import OpenAI from 'openai'

const [prompt, command, ...args] = process.argv.slice(2)
setTracingDisabled(true)
setDefaultOpenAIClient(new OpenAI({ baseURL: `${process.env.MOCK_URL}/v1`, apiKey: 'mock' }))
const server = new MCPServerStdio({ name: 'chat', command, args })
await server.connect()
try {
  const strict = process.env.STRICT === '1' ? { mcpConfig: { convertSchemasToStrict: true } } : {}
  const agent = new Agent({ name: 'chat-agent', instructions: 'Use the tools.', mcpServers: [server], model: 'gpt-5', ...strict })
  const result = await run(agent, prompt)
  console.log(result.finalOutput)
}
finally {
  await server.close()
}
