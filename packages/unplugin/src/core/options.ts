import type { PresetName, ProfileName, TargetProfile } from '@flatmcp/core'
import { PRESET_NAMES, resolveTarget } from '@flatmcp/core'
import type { FilterPattern } from 'unplugin'
import path from 'node:path'
import { isObject } from './util'
import { unknownKeys } from '@flatmcp/runtime'

/** A bad option, said in one line: a bundler prints an error's stack, which here says nothing the message does not. */
export class OptionsError extends TypeError {
  constructor(message: string) {
    super(`unplugin-flatmcp: ${message}`)
    this.name = 'OptionsError'
    this.stack = `${this.name}: ${this.message}`
  }
}

/** Where the shared extend fields come from: a schema, or a module and the name of its export. */
export type ExtendSource = { schema: unknown } | { module: string, export?: string }

/** The plugin's options (`flatmcp build` takes the same). Each says its default; `resolveOptions` fills them in once. */
export interface Options {
  /**
   * Tool modules to compile (a RegExp, a glob, or a list of them).
   * @default /\.tools\.(?:ts|mts|js|mjs)$/
   */
  include?: FilterPattern
  /**
   * Modules never compiled.
   * @default /[\\/]node_modules[\\/]/
   */
  exclude?: FilterPattern
  /**
   * The base profile: what `tools/list` serves unless a session is given another.
   * @default 'portable'
   */
  profile?: 'portable' | 'minimal'
  /**
   * Every profile to build, the base one included: `['portable', 'openai-strict', 'anthropic-strict',
   * 'gemini']`, or a profile of one's own (`{ name, strict, rules }` from `targetRules`). The runtime
   * serves each session one of them.
   * @default [] (the base profile alone)
   */
  profiles?: (ProfileName | TargetProfile)[]
  /**
   * Where artifacts go, inside the build's output folder (`dir`), and their names (`fileName`, from
   * the module's path relative to the root, posix); `false` emits none.
   * @default { dir: '', fileName: defaultArtifactName } (src/chat.tools.ts → src/chat.tools.mcp.json)
   */
  artifacts?: false | {
    dir?: string
    fileName?: (module: string) => string
  }
  /**
   * The diagnostic severity that fails the build (`never`: none does).
   * @default 'error'
   */
  failOn?: 'error' | 'warning' | 'never'
  /**
   * Say nothing unless the build fails: no warnings (what the compiler widened, cut or moved, each at
   * its file and line) and no summary line at the end of the build.
   * @default false
   */
  quiet?: boolean
  /**
   * Precompute coercion plans (repairing JSON strings at request time).
   * @default true
   */
  coercion?: boolean
  /**
   * Give each variant of a tool's root union one small example the original parser accepts: the
   * input's `examples` in `portable`, a line of its description in the target profiles (what
   * flattening removes: which keys go together).
   * @default true
   */
  examples?: boolean
  /**
   * Fields every tool shares, as given to the runtime's `createMcpServer`.
   * @default undefined (none)
   */
  extend?: ExtendSource
  /**
   * The project root: artifact names and the cache are relative to it.
   * @default the bundler's root, else `process.cwd()`
   */
  root?: string
  /**
   * Where evaluated modules and the build cache live (relative to the root).
   * @default 'node_modules/.cache/flatmcp'
   */
  cacheDir?: string
  /**
   * Options for a schema library's own JSON Schema conversion, by its vendor name: `{ valibot: {
   * definitions, errorMode, ... } }` (valibot's `ConversionConfig`). flatmcp's own hooks run after
   * the ones given here.
   * @default {}
   */
  libraryOptions?: Record<string, Record<string, unknown>>
  /**
   * For tools whose input is a JSON Schema written by another language's generator: the parser it
   * was written for (`pydantic`, `go`, `serde`, `dotnet`, or `json-schema` for a validator), or
   * `auto` to tell it by each schema's fingerprints.
   * @default 'auto'
   */
  preset?: PresetName | 'auto'
  /**
   * How long a tool module's evaluation may take, in milliseconds: one that is still evaluating then
   * (a top-level await that waits too long) fails the build naming it; one that holds the thread past
   * it (a loop that never ends) ends the build process with a line naming it.
   * @default 60_000
   */
  moduleTimeout?: number
}

/**
 * The options with every default filled in and checked (`resolveOptions`): each option's own type,
 * required; `profiles` are then the profiles built besides the base one, `root` and `cacheDir` absolute.
 */
export type ResolvedOptions = Required<Omit<Options, 'artifacts' | 'extend'>> & {
  artifacts: false | Required<Exclude<NonNullable<Options['artifacts']>, false>>
  extend: Options['extend']
}

const BASES = ['portable', 'minimal']

/** A profile's name, whether given by name or as a profile object. */
export function profileName(profile: ProfileName | TargetProfile): string {
  return typeof profile === 'string' ? profile : profile.name
}

/** What the build cache keys a profile by: its name, or a profile object's rules, their options and code included. */
export function profileKey(profile: ProfileName | TargetProfile): string {
  return typeof profile === 'string' ? profile : JSON.stringify([profile.name, profile.strict ?? false, profile.rules.map(rule => [rule.name, rule.options ?? null, String(rule.node ?? ''), String(rule.document ?? '')])])
}

/** The base profile and the others, each checked (an unknown name is an error listing the known ones). */
function resolveProfiles(options: Options): { profile: 'portable' | 'minimal', profiles: (ProfileName | TargetProfile)[] } {
  const listed = options.profiles ?? []
  if (!Array.isArray(listed))
    throw new OptionsError('profiles must be an array of profile names or profile objects')
  const base = options.profile ?? listed.find(p => BASES.includes(p as string)) as 'portable' | 'minimal' | undefined ?? 'portable'
  if (!BASES.includes(base))
    throw new OptionsError(`the base profile must be "portable" or "minimal", not "${String(base)}"; list target profiles in \`profiles\``)
  const others: (ProfileName | TargetProfile)[] = []
  for (const profile of listed) {
    try {
      resolveTarget(profile)
    }
    catch (error) {
      // Its message alone: a `cause` would bring its stack back where a bundler prints the error.
      throw new OptionsError((error as Error).message)
    }
    const name = profileName(profile)
    if (name !== base && !others.some(other => profileName(other) === name))
      others.push(profile)
  }
  return { profile: base, profiles: others }
}

/** `src/chat.tools.ts` → `src/chat.tools.mcp.json`: the module's folder is kept, so names never collide. */
export function defaultArtifactName(module: string): string {
  return `${module.replace(/\.[cm]?[jt]sx?$/, '')}.mcp.json`
}

/** Options with every default filled in, checked once. */
function resolveLibraryOptions(given: Options['libraryOptions']): ResolvedOptions['libraryOptions'] {
  if (given === undefined)
    return {}
  if (!isObject(given) || !Object.values(given).every(isObject))
    throw new OptionsError('libraryOptions must map a library\'s name to its options, as { valibot: { errorMode: \'ignore\' } }')
  return given as ResolvedOptions['libraryOptions']
}


/** What the build cache keys library options by: their text, functions' source included. */
export function libraryOptionsKey(libraryOptions: ResolvedOptions['libraryOptions']): string {
  return JSON.stringify(libraryOptions, (_key, value: unknown) => typeof value === 'function' ? String(value) : value)
}

function resolvePreset(preset: Options['preset']): ResolvedOptions['preset'] {
  if (preset === undefined)
    return 'auto'
  if (preset !== 'auto' && !(PRESET_NAMES as string[]).includes(preset))
    throw new OptionsError(`preset must be "auto" or one of ${PRESET_NAMES.map(n => `"${n}"`).join(', ')}, not "${String(preset)}"`)
  return preset
}

/** Every option the plugin takes (`Options`): another is a mistyped one, which would be ignored in silence. */
const OPTION_KEYS: readonly (keyof Options)[] = ['include', 'exclude', 'profile', 'profiles', 'artifacts', 'failOn', 'quiet', 'coercion', 'examples', 'extend', 'root', 'cacheDir', 'libraryOptions', 'preset', 'moduleTimeout']

/** An options object with a key it does not know is refused, naming the key meant. */
function checkKeys(object: unknown, known: readonly string[], what: string): void {
  const unknown = isObject(object) ? unknownKeys(object, known) : []
  if (unknown.length > 0)
    throw new OptionsError(`unknown ${what} ${unknown.join(', ')}; the ${what}s are ${known.join(', ')}`)
}

export function resolveOptions(options: Options = {}, bundlerRoot?: string): ResolvedOptions {
  checkKeys(options, OPTION_KEYS, 'option')
  if (isObject(options.artifacts))
    checkKeys(options.artifacts, ['dir', 'fileName'], 'artifacts option')
  const { profile, profiles } = resolveProfiles(options)
  const failOn = options.failOn ?? 'error'
  if (!['error', 'warning', 'never'].includes(failOn))
    throw new OptionsError(`failOn must be "error", "warning" or "never", not "${String(failOn)}"`)
  const root = path.resolve(options.root ?? bundlerRoot ?? process.cwd())
  const artifacts = options.artifacts === false
    ? false
    : { dir: options.artifacts?.dir ?? '', fileName: options.artifacts?.fileName ?? defaultArtifactName }
  return {
    include: options.include ?? [/\.tools\.(?:ts|mts|js|mjs)$/],
    exclude: options.exclude ?? [/[\\/]node_modules[\\/]/],
    profile,
    profiles,
    artifacts,
    failOn,
    quiet: options.quiet === true,
    coercion: options.coercion ?? true,
    examples: options.examples ?? true,
    extend: options.extend,
    root,
    cacheDir: path.resolve(root, options.cacheDir ?? 'node_modules/.cache/flatmcp'),
    libraryOptions: resolveLibraryOptions(options.libraryOptions),
    preset: resolvePreset(options.preset),
    moduleTimeout: resolveModuleTimeout(options.moduleTimeout),
  }
}

function resolveModuleTimeout(ms: Options['moduleTimeout']): number {
  if (ms === undefined)
    return 60_000
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new OptionsError(`moduleTimeout is a whole number of milliseconds above 0, not ${String(ms)}`)
  return ms
}
