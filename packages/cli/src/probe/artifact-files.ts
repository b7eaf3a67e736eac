// An artifact as the probe reads it: found under the paths given, read by the runtime's checked reader
// with its provenance, and held to what the probe can re-derive (built-in profiles).
import type { JsonSchema, PresetName, ProfileName } from '@flatmcp/core'
import type { ArtifactContents, ArtifactOptions, ModuleArtifact } from '@flatmcp/runtime/artifact'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { PROFILE_NAMES } from '@flatmcp/core'
import { readArtifact } from '@flatmcp/runtime/artifact'
import { glob } from 'tinyglobby'
import { ProbeLoadError } from './findings'

/** A module's artifact as the probe reads it, its profiles checked built-in (a snapshot is read as one whose source is its upstream). */
export type Artifact = Omit<ModuleArtifact, 'options'> & {
  options: Omit<ArtifactOptions, 'profile' | 'profiles' | 'preset'> & { profile: 'portable' | 'minimal', profiles?: ProfileName[], preset?: PresetName }
}

/** A tool as an artifact lists it, its schemas as JSON Schema. */
export type ListedTool = { name: string, description?: string, inputSchema: JsonSchema, outputSchema?: JsonSchema }


/** What the probe re-derives: built-in profiles only (a profile of one's own is checked by one's own tests). */
function unknownProfiles(artifact: ModuleArtifact): string | undefined {
  const known = PROFILE_NAMES as string[]
  const ownOnly = 'the probe re-derives built-in profiles only, and a profile of your own is checked by your tests'
  if (!known.includes(artifact.options.profile))
    return `not a flatmcp artifact: "options.profile" is ${JSON.stringify(artifact.options.profile)}, not one of ${PROFILE_NAMES.join(', ')}`
  if (artifact.options.profiles !== undefined && !artifact.options.profiles.every(name => known.includes(name)))
    return `not a flatmcp artifact: "options.profiles" is ${JSON.stringify(artifact.options.profiles)}: ${ownOnly}`
  const flat = (artifact.flat ?? []).findIndex(entry => !known.includes(entry.profile))
  if (flat !== -1)
    return `not a flatmcp artifact: flat[${flat}] is in profile ${JSON.stringify(artifact.flat![flat]!.profile)}, not one of ${PROFILE_NAMES.join(', ')}`
  for (const [tool, entry] of Object.entries(artifact.runtime)) {
    const unknown = Object.keys(entry.profiles ?? {}).find(name => !known.includes(name))
    if (unknown !== undefined)
      return `runtime["${tool}"].profiles has "${unknown}", which is not a built-in profile (${PROFILE_NAMES.join(', ')}); ${ownOnly}`
  }
  return undefined
}

/** Reads and checks an artifact's shape (the runtime's reader, provenance too); anything off is a load error naming the file and the field. */
export function readModuleArtifact(file: string): { text: string, artifact: Artifact } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: cannot read it (${(error as Error).message})`)
  }
  let read: ArtifactContents
  try {
    read = readArtifact(text, { provenance: true })
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: ${(error as Error).message}`)
  }
  const artifact = (read as Extract<ArtifactContents, { kind: 'module' }>).artifact
  const unknown = unknownProfiles(artifact)
  if (unknown !== undefined)
    throw new ProbeLoadError(`${file}: ${unknown}`)
  return { text, artifact: artifact as Artifact }
}

export async function findArtifacts(paths: string[], root: string): Promise<string[]> {
  const files: string[] = []
  for (const given of paths) {
    const absolute = path.resolve(root, given)
    if (!existsSync(absolute))
      throw new ProbeLoadError(`${given}: no such file or folder`)
    if (statSync(absolute).isDirectory())
      files.push(...(await glob('**/*.mcp.json', { cwd: absolute, absolute: true, ignore: ['**/node_modules/**'] })).sort())
    else
      files.push(absolute)
  }
  return [...new Set(files)]
}

/** A file's JSON, or undefined (readArtifact says what is wrong with it). */
export function safeParse(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  }
  catch {
    return undefined
  }
}
