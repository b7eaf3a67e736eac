// `npm run build`: every package's dist, with tsdown's API (its command warns about Node 20 on every
// run, which the README supports). The compiler first: the runtime's declarations take the compiler
// types they name from its built declarations; the proxy's chunk last, from the runtime as built.
import { build } from 'tsdown'

const config = new URL('../tsdown.config.ts', import.meta.url).pathname
await build({ config, filter: ['packages/core'], logLevel: 'warn' })
await build({ config, filter: ['packages/runtime', 'packages/unplugin', 'flatmcp'], logLevel: 'warn' })
// The proxy's chunk inlines the runtime as built.
await build({ config, filter: ['flatmcp proxy chunk'], logLevel: 'warn' })
