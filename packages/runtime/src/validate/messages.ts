import type { Issue } from './validate'

/** Echoed input is capped: a model needs to recognise what it sent, not to read it back whole. */
const ECHO_LIMIT = 100

/** The text, cut to `max` characters with a note of how long it was. */
export function clip(text: string, max = ECHO_LIMIT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`
}

/** A value as JSON, quoted where a string, capped; the line breaks JSON leaves as they are (NEL, U+2028, U+2029) and C1 controls escaped too, so an echo stays on its line. */
export function quoteClipped(value: unknown): string {
  return clip((JSON.stringify(value) ?? String(value)).replace(/[\u007F-\u009F\u2028\u2029]/g, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
}

function segments(issue: Issue): PropertyKey[] {
  return (issue.path ?? []).map(segment => typeof segment === 'object' && segment !== null ? segment.key : segment)
}

/** `media[0].id`: how a path reads in a message. */
function pathText(path: PropertyKey[]): string {
  return path.map((segment, i) => typeof segment === 'number' ? `[${segment}]` : `${i > 0 ? '.' : ''}${String(segment)}`).join('')
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node = root
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, segment))
      return undefined
    node = (node as Record<PropertyKey, unknown>)[segment]
  }
  return node
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

function describeIssue(issue: Issue, args: unknown): string[] {
  const path = segments(issue)
  const where = pathText(path)
  const at = where ? `${where}: ` : ''
  if (issue.code === 'invalid_union' && issue.discriminator && Array.isArray(issue.options)) {
    const got = valueAt(args, path)
    const allowed = issue.options.map(option => JSON.stringify(option)).join(', ')
    return [`${clip(where) || issue.discriminator}: must be one of ${allowed}${got === undefined ? ' (missing)' : ` (got ${quoteClipped(got)})`}.`]
  }
  if (issue.code === 'invalid_type' && valueAt(args, path) === undefined && path.length > 0) {
    const parent = pathText(path.slice(0, -1))
    return [`missing required key "${String(path.at(-1))}"${parent ? ` in ${parent}` : ''}${issue.expected ? ` (${issue.expected})` : ''}.`]
  }
  if (issue.code === 'invalid_type' && issue.expected)
    return [`${at}expected ${issue.expected}, got ${kindOf(valueAt(args, path))}.`]
  if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys))
    return issue.keys.slice(0, 20).map(key => `key ${quoteClipped(key)}${where ? ` in ${clip(where)}` : ''} is not accepted here.`)
  if (issue.code === 'invalid_union') {
    // Name what the closest alternative still needs: the branch with the fewest issues.
    const closest = [...(issue.errors ?? [])].sort((a, b) => a.length - b.length)[0]
    if (!closest || closest.length === 0)
      return [`${at}matches none of the allowed shapes.`]
    const inner = closest.flatMap(child => describeIssue({ ...child, path: [...path, ...segments(child)] }, args))
    return [`${at}matches none of the allowed shapes; the closest needs: ${inner.map(line => line.replace(/\.$/, '')).join('; ')}.`]
  }
  return [`${at}${issue.message.replace(/^Invalid input: /, '')}${/[.!?]$/.test(issue.message) ? '' : '.'}`]
}

/**
 * Text a model can act on: which variant its discriminator selected, what is missing, what is not
 * accepted, which tag values exist when the tag is wrong. No stack traces, no library internals.
 */
export function describeIssues(tool: string, issues: readonly Issue[], args: unknown, discriminator?: string): string {
  const tag = discriminator !== undefined && typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[discriminator] : undefined
  const tagIsWrong = issues.some(issue => issue.code === 'invalid_union' && issue.discriminator === discriminator && segments(issue).length <= 1)
  const header = typeof tag === 'string' && !tagIsWrong
    ? `Invalid arguments for tool "${tool}" with ${discriminator} ${quoteClipped(tag)}:`
    : `Invalid arguments for tool "${tool}":`
  // A value with thousands of problems gets the first few: enough to act on, never megabytes of text.
  const lines = [...new Set(issues.slice(0, 50).flatMap(issue => describeIssue(issue, args)))].slice(0, 20)
  return [header, ...lines.map(line => `- ${line}`)].join('\n')
}

/**
 * The issues with messages a model can act on, each at its own path (for frameworks that print
 * `path: message` themselves): the same words as `describeIssues`, the selected variant named.
 */
export function modelIssues(issues: readonly Issue[], args: unknown, discriminator?: string): Issue[] {
  const tag = discriminator !== undefined && typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[discriminator] : undefined
  const variant = typeof tag === 'string' ? ` (for ${discriminator} ${quoteClipped(tag)})` : ''
  return issues.slice(0, 50).map((issue) => {
    const where = pathText(segments(issue))
    const text = describeIssue(issue, args).join(' ')
    const message = where && text.startsWith(`${where}: `) ? text.slice(where.length + 2) : text
    return { ...issue, message: `${message}${issue.code === 'invalid_union' && issue.discriminator === discriminator ? '' : variant}` }
  })
}

