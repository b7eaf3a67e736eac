// An upstream command started before the MCP SDK is loaded (which takes a few hundred milliseconds):
// `createProxy(target, { started: startCommand(target) })` connects over it; `signalCommand` signals it
// and what it started. `warmCompilerThread` boots the compiler's thread ahead of a list to compile.
export { keepCommandsOnSignals, signalCommand, startCommand } from './proxy/upstream/command-process'
export type { StartedCommand } from './proxy/upstream/command-process'
export { warmCompilerThread } from './proxy/compile/compiler-thread'
