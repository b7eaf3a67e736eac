// The build pipeline the `flatmcp` command shares with the plugin. Not a public API: it follows the
// plugin's version, without its own compatibility promise.
export { createModuleCompiler, describeFailure } from './core/compile/module-compiler'
export type { FreshModule, ModuleCompiler } from './core/compile/module-compiler'
export { noToolsWarning } from './core/compile/compile-module'
export { createToolOwners } from './core/compile/tool-owners'
export { writeFileAtomic } from './core/emit/write-atomic'
export type { CachedModule } from './core/load/module-cache'
export { modulePath } from './core/load/module-path'
export { resolveOptions } from './core/options'
export { checkSuperset, toolParts } from './core/check/superset'
export type { SupersetOptions, SupersetResult } from './core/check/superset'
export { CLIENT_VALIDATORS, clientCheck } from './core/check/validators'
export type { ClientValidator } from './core/check/validators'
