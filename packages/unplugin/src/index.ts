import { createUnplugin } from 'unplugin'
import { unpluginFactory } from './core/plugin'

export { defaultArtifactName } from './core/options'
export type { ExtendSource, Options, ResolvedOptions } from './core/options'
export type { ArtifactOptions } from './core/emit/module-artifact'
export { DEV_ARTIFACTS_PATH } from './core/plugin'

export const flatmcp = createUnplugin(unpluginFactory)

/** The package's default: every bundler's plugin as `flatmcp.vite` etc., and, called itself, an error that says which import was meant. */
const byBundler = Object.assign((): never => {
  throw new TypeError('unplugin-flatmcp: import the plugin for your bundler, import flatmcp from \'unplugin-flatmcp/vite\' (or /esbuild, /rollup, /rolldown, /webpack, /rspack), or call flatmcp.vite(…) on this one')
}, flatmcp)
export default byBundler
