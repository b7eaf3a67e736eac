// Replicas folded: entries that are the same server on different targets (regions, clusters,
// accounts) served as one set of tools, each with a `target` parameter whose enum names the entries.
// The proxy reads `target` to choose the entry, and takes it out of the arguments it sends on. Only
// entries whose tools are the same, definition for definition, fold; one that differs is refused with
// the difference named.
import { hashedText } from '../../../service/schema-hash'
import { isObject } from '../../../util/object'

/** The parameter a folded tool takes to choose its replica. */
export const TARGET_KEY = 'target'

/** One replica's tools, by name. */
type Listed = { server: string, items: Record<string, unknown>[] }

/** Where two replicas' lists differ: the first tool one lists and the other does not, or lists otherwise; undefined where they are the same. */
function difference(a: Listed, b: Listed): string | undefined {
  const byName = (list: Listed): Map<string, string> => new Map(list.items.map(item => [item.name as string, hashedText(item)]))
  const [left, right] = [byName(a), byName(b)]
  for (const [name, text] of left) {
    if (!right.has(name))
      return `"${a.server}" lists tool ${JSON.stringify(name)}, which "${b.server}" does not`
    if (right.get(name) !== text)
      return `"${a.server}" and "${b.server}" list tool ${JSON.stringify(name)} with different definitions`
  }
  const extra = [...right.keys()].find(name => !left.has(name))
  return extra === undefined ? undefined : `"${b.server}" lists tool ${JSON.stringify(extra)}, which "${a.server}" does not`
}

/** A tool with the `target` parameter added: required, its enum the replicas. A root that is not one plain object cannot take it. */
function withTarget(item: Record<string, unknown>, group: string, replicas: readonly string[]): Record<string, unknown> {
  const input = isObject(item.inputSchema) ? item.inputSchema : {}
  const fail = (why: string): never => {
    throw new TypeError(`the replicas of "${group}" cannot be folded: tool ${JSON.stringify(item.name)} ${why}`)
  }
  if (['oneOf', 'anyOf', 'allOf', '$ref', 'if'].some(keyword => keyword in input))
    fail('has no plain object at the root of its input to add "target" to')
  const properties = isObject(input.properties) ? input.properties : {}
  if (Object.hasOwn(properties, TARGET_KEY))
    fail('has a parameter called "target" already')
  const required = Array.isArray(input.required) ? input.required : []
  return {
    ...item,
    inputSchema: {
      ...input,
      type: 'object',
      properties: { ...properties, [TARGET_KEY]: { type: 'string', enum: [...replicas], description: `Which ${group} to use: ${replicas.join(', ')}.` } },
      required: [...required, TARGET_KEY],
    },
  }
}

/**
 * The lists of one group's replicas (those that answered) as one list, each tool taking `target`;
 * replicas whose tools differ are a `TypeError` naming the difference.
 */
export function foldedList(group: string, replicas: readonly string[], lists: readonly Listed[]): Record<string, unknown>[] {
  const [first, ...rest] = lists
  if (!first)
    return []
  for (const other of rest) {
    const differs = difference(first, other)
    if (differs !== undefined)
      throw new TypeError(`the replicas of "${group}" differ, so they are not folded: ${differs}`)
  }
  return first.items.map(item => withTarget(item, group, replicas))
}

/** A folded call's arguments: the replica `target` names, and the arguments without it; an error text where it names none. */
export function chosenReplica(args: unknown, replicas: readonly string[]): { replica: string, arguments: Record<string, unknown> } | { error: string } {
  const given = isObject(args) ? args : {}
  const target = given[TARGET_KEY]
  if (typeof target !== 'string' || !replicas.includes(target))
    return { error: `"${TARGET_KEY}" must name one of ${replicas.map(name => JSON.stringify(name)).join(', ')}${target === undefined ? '' : ` (it was ${JSON.stringify(target).slice(0, 80)})`}.` }
  const { [TARGET_KEY]: _chosen, ...rest } = given
  return { replica: target, arguments: rest }
}
