// src/flat-v2.ts: that server over stdio (`src/flat-http-v2.ts` serves it over Streamable HTTP).
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { createFlatServer } from './flat-server'

await createFlatServer().connect(new StdioServerTransport())
