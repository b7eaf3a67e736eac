import type { ProfileName } from '@flatmcp/core'
import type { FilterPattern } from 'unplugin'
import path from 'node:path'

/** Where the shared extend fields come from: a schema, or a module and the name of its export. */
export type ExtendSource = { schema: unknown } | { module: string, export?: string }

export interface Options {
  /** Tool modules to compile. Default: `**\/*.tools.{ts,mts,js,mjs}`. */
  include?: FilterPattern
  /** Modules never compiled. Default: `node_modules`. */
  exclude?: FilterPattern
  /** Which clients the schemas are shaped for. Default: `portable`. */
  profile?: ProfileName
  /** Where artifacts go, inside the build's output folder; `false` emits none. Default: `{ dir: '' }`. */
  artifacts?: false | {
    dir?: string
    /** The artifact's file name from the module's path relative to the root (posix). */
    fileName?: (module: string) => string
  }
  /** The diagnostic severity that fails the build (`never`: none does). Default: `error`. */
  failOn?: 'error' | 'warning' | 'never'
  /** Precompute coercion plans (repairing JSON strings at request time). Default: `true`. */
  coercion?: boolean
  /** Fields every tool shares, as given to the runtime's `createMcpServer`. */
  extend?: ExtendSource
  /** The project root: artifact names and the cache are relative to it. Default: the bundler's root or `process.cwd()`. */
  root?: string
  /** Where evaluated modules and the build cache live. Default: `<root>/node_modules/.cache/flatmcp`. */
  cacheDir?: string
}

export interface ResolvedOptions {
  include: FilterPattern
  exclude: FilterPattern
  profile: ProfileName
  artifacts: false | { dir: string, fileName: (module: string) => string }
  failOn: 'error' | 'warning' | 'never'
  coercion: boolean
  extend: ExtendSource | undefined
  root: string
  cacheDir: string
}

const PROFILES: ProfileName[] = ['portable', 'minimal']

/** `src/chat.tools.ts` → `src/chat.tools.mcp.json`: the module's folder is kept, so names never collide. */
export function defaultArtifactName(module: string): string {
  return `${module.replace(/\.[cm]?[jt]sx?$/, '')}.mcp.json`
}

/** Options with every default filled in, checked once. */
export function resolveOptions(options: Options = {}, bundlerRoot?: string): ResolvedOptions {
  const profile = options.profile ?? 'portable'
  if (!PROFILES.includes(profile))
    throw new TypeError(`unplugin-flatmcp: unknown profile "${String(profile)}"; expected ${PROFILES.map(p => `"${p}"`).join(' or ')}`)
  const failOn = options.failOn ?? 'error'
  if (!['error', 'warning', 'never'].includes(failOn))
    throw new TypeError(`unplugin-flatmcp: failOn must be "error", "warning" or "never", not "${String(failOn)}"`)
  const root = path.resolve(options.root ?? bundlerRoot ?? process.cwd())
  const artifacts = options.artifacts === false
    ? false
    : { dir: options.artifacts?.dir ?? '', fileName: options.artifacts?.fileName ?? defaultArtifactName }
  return {
    include: options.include ?? [/\.tools\.(?:ts|mts|js|mjs)$/],
    exclude: options.exclude ?? [/[\\/]node_modules[\\/]/],
    profile,
    artifacts,
    failOn,
    coercion: options.coercion ?? true,
    extend: options.extend,
    root,
    cacheDir: path.resolve(root, options.cacheDir ?? 'node_modules/.cache/flatmcp'),
  }
}
