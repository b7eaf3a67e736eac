// What the `flatmcp` command's proxy and snapshot share with the plugin without loading the build
// pipeline (esbuild, the module loader, the samplers): atomic file writes and the ajv set-ups, each
// loaded when first used. Not a public API, as `./internal`.
export { writeFileAtomic } from './core/write-atomic'
export { ajvCompile } from './core/check/ajv'
export type { AjvSetup } from './core/check/ajv'
