// An entry of a client's config as flatmcp's `--config` reads it, so the moved server starts as the
// client would have started it: the client's own variables resolved for the config's place (VS Code's
// `${workspaceFolder}` is the project's folder in a project's config, `${userHome}` the home),
// `${env:NAME}` written as flatmcp's `${NAME}`, Gemini CLI's bare `$NAME` as `${NAME}`, a relative
// `envFile` made absolute. Where that cannot be (a `${input:id}` only the client can ask for, the
// open workspace of a user's config), why: that server stays in the client's config.
import type { ClientVariable, InstallClient, Where } from './clients'
import path from 'node:path'

/** What a config's place tells of the client's variables: its project's folder (a project's config alone has one) and the home. */
export interface Place {
  project?: string
  home: string
}

/** Where `file` is for `client`: a project's config (its folder the project's), else its user's or one named by hand (no project). */
export function placeOf(client: InstallClient, file: string, where: Where): Place {
  const resolved = path.resolve(file)
  for (let folder = path.dirname(resolved); ; folder = path.dirname(folder)) {
    if (client.files.project?.({ ...where, cwd: folder }) === resolved)
      return { project: folder, home: where.home }
    if (path.dirname(folder) === folder)
      return { home: where.home }
  }
}

/** Why a variable cannot be resolved at install: thrown through the entry's strings, caught once. */
class Unresolved extends Error {}

/** A client's variable's value in this place. */
function valueOf(name: string, stands: ClientVariable, client: InstallClient, place: Place): string {
  if (stands === 'home')
    return place.home
  if (stands === 'separator')
    return path.sep
  if (place.project === undefined)
    throw new Unresolved(`uses \${${name}}, the folder ${client.title} has open, which only a project's config names (this one is not a project's)`)
  return stands === 'project' ? place.project : path.basename(place.project)
}

/** One string of the entry with the client's variables resolved. */
function resolved(value: string, client: InstallClient, place: Place): string {
  const braced = client.bareVariables ? value.replace(/\$(?!\{)([A-Z_]\w*)/gi, '${$1}') : value
  return braced.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (inner.startsWith('env:'))
      return `\${${inner.slice(4)}}`
    const stands = client.variables?.[inner]
    if (stands !== undefined)
      return valueOf(inner, stands, client, place)
    if (client.variables !== undefined && /^\w+:(?!-)/.test(inner))
      throw new Unresolved(`uses ${whole}, which only ${client.title} answers (${inner.startsWith('input:') ? 'it asks the user' : 'from its own state'}), so flatmcp cannot start it alone`)
    return whole
  })
}

/** Every string in a value, resolved. */
function walk(value: unknown, client: InstallClient, place: Place): unknown {
  if (typeof value === 'string')
    return resolved(value, client, place)
  if (Array.isArray(value))
    return value.map(item => walk(item, client, place))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, client, place)]))
  return value
}

/** The entry as flatmcp's `--config` reads it to start the server as the client would, or why it cannot. */
export function asFlatmcpReads(entry: unknown, client: InstallClient, place: Place): { entry: unknown } | { why: string } {
  try {
    const out = walk(entry, client, place) as Record<string, unknown>
    const envFile = out.envFile
    if (typeof envFile === 'string' && !path.isAbsolute(envFile)) {
      if (place.project === undefined)
        return { why: `its envFile ${JSON.stringify(envFile)} is a relative path, which names a file in whichever folder ${client.title} has open` }
      return { entry: { ...out, envFile: path.resolve(place.project, envFile) } }
    }
    return { entry: out }
  }
  catch (error) {
    if (error instanceof Unresolved)
      return { why: error.message }
    throw error
  }
}
