// The proxy command's path, bundled with the runtime, the MCP SDK and zod into one chunk (dist/proxy):
// V8 compiles one file instead of about 180 modules. The build pipeline, the compiler, ajv, parsers
// of files and OpenTelemetry stay imports, loaded only where a run needs them.
export { runProxy } from '../run-proxy'
export { needsCallerCredential, ProxySetupError } from '@flatmcp/runtime/proxy'
