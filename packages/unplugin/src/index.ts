import { createUnplugin } from 'unplugin'
import { unpluginFactory } from './core/plugin'

export { DEV_ARTIFACTS_PATH } from './core/plugin'
export { defaultArtifactName, resolveOptions } from './core/options'
export type { ExtendSource, Options, ResolvedOptions } from './core/options'
export type { ArtifactOptions } from './core/emit/artifact'

export const flatmcp = createUnplugin(unpluginFactory)
export default flatmcp
export { createModuleCompiler, describeFailure } from './core/compile/module-compiler'
export { createToolOwners } from './core/compile/tool-owners'
export type { FreshModule, ModuleCompiler } from './core/compile/module-compiler'
export type { CachedModule } from './core/load/module-cache'
export { writeFileAtomic } from './core/emit/write-atomic'
export { modulePath } from './core/load/module-path'
