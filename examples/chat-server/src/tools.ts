import { isToolDefinition } from '@flatmcp/runtime'
import * as chat from './chat.tools'

/** Every tool the example server serves. */
export const tools = Object.values(chat).filter(isToolDefinition)
