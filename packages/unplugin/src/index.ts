import { createUnplugin } from 'unplugin'
import { unpluginFactory } from './core/plugin'

export { defaultArtifactName } from './core/options'
export type { ExtendSource, Options, ResolvedOptions } from './core/options'
export type { ArtifactOptions } from './core/emit/artifact'
export { DEV_ARTIFACTS_PATH } from './core/plugin'

export const flatmcp = createUnplugin(unpluginFactory)
export default flatmcp
