#!/usr/bin/env node
// The flatmcp command's entry: Node's compile cache first (where the running Node has it), then the
// dispatcher (main.ts), imported after it so that every module the command loads is cached.
import { startCompileCache } from './compile-cache'

startCompileCache()
const { runCommandLine } = await import('./main')
runCommandLine(process.argv.slice(2))
