// A call for what a served name names (a tool, a prompt), sent to the server that holds it under its
// own name; a server that is down answers with an error naming it, a folded call goes to the replica
// its `target` names.
import type { Message, RequestOptions } from '../upstream'
import type { Member, Route } from './member'
import type { NameMap } from '../name-map'
import { STARTING } from './member'
import { chosenReplica } from './replicas'

export const rpcError = (code: number, message: string): Error => Object.assign(new Error(message), { code })

/** A request for what a route names, sent to its member with the member's own name; a member that is down answers with an error naming it. */
export async function routed(route: Route | undefined, message: Message, schema: unknown, requestOptions: RequestOptions | undefined): Promise<unknown> {
  if (!route)
    throw rpcError(-32602, `Unknown ${message.method === 'tools/call' ? 'tool' : 'prompt'} ${JSON.stringify(message.params?.name)}.`)
  const chosen = route.replicas ? replicaOf(route.replicas, message) : { member: route.member, params: message.params }
  if ('error' in chosen)
    return { isError: true, content: [{ type: 'text', text: chosen.error }] }
  const { member, params } = chosen
  if (!member.client || route.unlisted) {
    const text = `The server "${member.name}" behind this proxy is not running (${member.down ?? STARTING}); its tools come back when it does.`
    if (message.method === 'tools/call')
      return { isError: true, content: [{ type: 'text', text }] }
    throw rpcError(-32603, text)
  }
  return member.client.request({ ...message, params: { ...params, name: route.name } }, schema, requestOptions)
}

/**
 * A name no list holds, under the prefix of a member that is down (one never up has listed nothing):
 * its call is told that member is not running rather than that the tool is unknown; never sent on.
 */
export function downRoute(members: readonly Member[], names: NameMap, name: unknown): Route | undefined {
  const claimant = typeof name === 'string' ? names.claimant(name) : undefined
  const member = members.find(m => m.name === claimant && !m.client)
  return member && { server: member.name, name: name as string, member, unlisted: true }
}

/** The replica a folded call's `target` names, and its params without it; the error's text where it names none. */
function replicaOf(replicas: readonly Member[], message: Message): { member: Member, params: Record<string, unknown> } | { error: string } {
  const chosen = chosenReplica(message.params?.arguments, replicas.map(replica => replica.name))
  if ('error' in chosen)
    return chosen
  return { member: replicas.find(replica => replica.name === chosen.replica)!, params: { ...message.params, arguments: chosen.arguments } }
}
