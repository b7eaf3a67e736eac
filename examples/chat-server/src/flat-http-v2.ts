// The SDK 2.x McpServer with a flat() schema over Streamable HTTP: `tsx src/flat-http-v2.ts [port]`.
import { createMcpHandler } from '@modelcontextprotocol/server'
import { createFlatServer } from './flat-server'
import { listenFetch } from './listen'

const handler = createMcpHandler(() => createFlatServer())
listenFetch('chat-v2 flat() (SDK 2.x)', request => handler.fetch(request))
