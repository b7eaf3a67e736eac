// What a profile choice answers, as the one string the tool service is served by: a profile's name,
// `view:NAME` for a view, `tools:PROFILE:a,b` for a subset the caller names (both a choice of the
// operator's may answer itself), and `caller:NAME`, a NUL, then one of those for a caller the rules
// hold. Built and read here only: everywhere else reads the fields `readKey` gives.
const VIEW_PREFIX = 'view:'
const TOOLS_PREFIX = 'tools:'
const CALLER_PREFIX = 'caller:'
const SEPARATOR = '\u0000'

/** The most names a caller's own subset holds. */
const MAX_NAMED = 100

/** A profile choice's answer read: the profile, the view and the caller it names, apart. */
export interface ChoiceKey {
  /** A profile by name: the answer itself, or the one a caller's own subset is served in. */
  profile?: string
  /** A view by name (`view:NAME`), where the answer names one (that it exists is the views' to say). */
  view?: string
  /** The tools a caller named itself (`tools:PROFILE:a,b`). */
  tools?: string[]
  /** The caller a rule holds, and so the key it is served within. */
  caller?: string
}

/** The key that serves view `name`. */
export const viewKey = (name: string): string => `${VIEW_PREFIX}${name}`

/** The key of a subset a caller names (`a,b` in `profile`): what a profile choice answers to serve it. */
export function subsetKey(profile: string | undefined, names: string): string | undefined {
  const listed = [...new Set(names.split(',').map(name => name.trim()).filter(Boolean))].slice(0, MAX_NAMED).sort()
  return listed.length === 0 ? undefined : `${TOOLS_PREFIX}${profile ?? ''}:${listed.join(',')}`
}

/** The key a caller is served: `key` within its rule (`caller:NAME`, then the key). */
export function callerKey(caller: string, key: string | undefined): string {
  return `${CALLER_PREFIX}${caller}${SEPARATOR}${key ?? ''}`
}

/** What `key` names: nothing (the base profile), a profile, a view, a caller's own subset; a ruled caller's, within the key it is served. */
export function readKey(key: string | undefined): ChoiceKey {
  if (key === undefined || key === '')
    return {}
  // A choice may answer any text: `caller:x` with no separator is a profile's name (read as a caller's,
  // it looped until the stack ran out), `tools:a,b` with no profile a subset in the base profile.
  const at = key.indexOf(SEPARATOR)
  if (key.startsWith(CALLER_PREFIX) && at >= 0)
    return { ...readKey(key.slice(at + 1)), caller: key.slice(CALLER_PREFIX.length, at) }
  if (key.startsWith(VIEW_PREFIX))
    return { view: key.slice(VIEW_PREFIX.length) }
  if (key.startsWith(TOOLS_PREFIX)) {
    const rest = key.slice(TOOLS_PREFIX.length)
    const colon = rest.indexOf(':')
    const profile = rest.slice(0, Math.max(colon, 0))
    return { tools: rest.slice(colon + 1).split(','), ...(profile === '' ? {} : { profile }) }
  }
  return { profile: key }
}

/** What a call served by `key` was read in, as `onCall` and its span say it: the profile (a view's own), and the view where one of `views` applies. */
export interface ServedAs {
  profile?: string
  view?: string
}

/** `key`'s profile and view against `views`: a view no one has is none, served (as today) in the base profile. */
export function servedAs(key: string | undefined, views: Readonly<Record<string, { profile?: string }>>): ServedAs {
  const read = readKey(key)
  if (read.view === undefined)
    return read.profile === undefined ? {} : { profile: read.profile }
  if (!Object.hasOwn(views, read.view))
    return {}
  const profile = views[read.view]!.profile
  return { ...(profile === undefined ? {} : { profile }), view: read.view }
}
