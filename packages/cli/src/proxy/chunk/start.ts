// The proxy command's first load (the build bundles it, with serve.ts, into dist/proxy: one copy of
// the runtime they share): the upstream started before the rest of the proxy's code is compiled, and
// where a list is to be compiled, the compiler's thread.
export { startCommand, warmCompilerThread } from '@flatmcp/runtime/proxy/spawn'
