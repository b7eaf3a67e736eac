// src/tools.ts: every tool the server serves.
import { isToolDefinition } from '@flatmcp/runtime'
import * as chat from './chat.tools'

export const tools = Object.values(chat).filter(isToolDefinition)
