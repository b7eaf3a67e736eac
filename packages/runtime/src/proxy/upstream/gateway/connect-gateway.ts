// Many servers connected as one upstream, each isolated: its own process or connection, its own
// environment (its entry's over the proxy's, less the proxy's own credentials), its own bounds. One
// that fails to start or ends is said, its tools leave the list (the proxy is told the list changed),
// and it is started again after 1 s, 2 s, 4 s… (at most a minute); the others serve on meanwhile.
import type { Upstream, UpstreamTarget } from '../upstream'
import type { ConnectOptions } from '../connect'
import type { Member } from './member'
import { STARTING } from './member'
import type { MergedClient } from './merged-client'
import type { NamingOptions } from './served-names'
import { escapeControl } from '../../../util/control-chars'
import { connectUpstream } from '../connect'
import { STDERR_CUT, stderrBudget } from '../stderr-budget'
import { ProxySetupError } from '../setup-error'
import { memberQuestions } from './member-questions'
import { mergedClient } from './merged-client'
import { namespaceClash } from '../name-map'
import { backlog, sendWithin } from '../../../util/backlog'

/** One server of many: its name (its tools' prefix), where it is, and what its config keeps of its tools. */
export interface GatewayEntry {
  name: string
  target: UpstreamTarget
  tools?: { only?: readonly string[], except?: readonly string[] }
}

export interface ConnectGatewayOptions extends Pick<ConnectOptions, 'offer' | 'asks'> {
  naming?: NamingOptions
  /** Entries served as one server, each tool taking a `target` that names the entry: by that server's name. */
  replicas?: Readonly<Record<string, readonly string[]>>
  /** The name and version the proxy gives downstream. Default: `flatmcp`. */
  info?: { name: string, version: string }
  /** How long the first list waits for servers still starting, and any list for one server. Default: 10,000 ms. */
  listMs?: number
  /** The longest wait before a server that ended or failed is started again. Default: 60,000 ms. */
  maxBackoffMs?: number
  /** Where the servers' own stderr lines go, each led by its server's name. Default: the proxy's stderr. */
  stderr?: (line: string) => void
  log: (line: string) => void
}

/** What keeps one member going: its connection of the moment, and when it is tried again. */
interface Life {
  connection?: Upstream
  attempts: number
  timer?: ReturnType<typeof setTimeout>
  closing: boolean
  /** It connects but hangs on its list: back only once it lists again. */
  hung?: boolean
  /** The stderr lines it wrote since it was last up, digits aside: a restart that writes them again is not said again. */
  heard: Set<string>
}

/** The servers by name, those down said apart (`3 servers (files, memory; not running: ghost)`); one still starting counts as up. */
function serversWhere(members: readonly Member[]): string {
  const down = members.filter(member => member.down !== undefined && member.down !== STARTING).map(member => member.name)
  const up = members.map(member => member.name).filter(name => !down.includes(name))
  const notRunning = down.length === 0 ? '' : `${up.length === 0 ? '' : '; '}not running: ${down.join(', ')}`
  return `${members.length} server${members.length === 1 ? '' : 's'} (${up.join(', ')}${notRunning})`
}

/** The most stderr lines kept to tell a repeat by. */
const MAX_HEARD = 1000
/**
 * A member command's stderr on the proxy's, each line led by its name (`[memory] …`), its control
 * characters escaped (a carriage return cannot rewrite the prefix), within `stderrBudget`; while it
 * is down, a line it wrote at an earlier try (digits aside: times, process ids) is not written again.
 */
function memberStderr(name: string, life: Life, write: (line: string) => void): (line: string) => void {
  return stderrBudget((line) => {
    const key = line.replace(/\d+/g, '#')
    if (life.attempts > 0 && life.heard.has(key))
      return
    if (life.heard.size < MAX_HEARD)
      life.heard.add(key)
    write(`[${name}] ${escapeControl(line)}`)
  }, () => write(`[${name}] ${STDERR_CUT}`))
}

/** The entry's target; a command's stderr through `memberStderr`. */
function memberTarget(entry: GatewayEntry, life: Life, options: ConnectGatewayOptions): UpstreamTarget {
  if (!('command' in entry.target) || entry.target.stderr)
    return entry.target
  return { ...entry.target, stderr: memberStderr(entry.name, life, options.stderr ?? (line => process.stderr.write(`${line}\n`))) }
}

/** The most of one server's notifications waiting to reach the client: past it, its next are dropped (said), so one that floods leaves the others room. */
export const MEMBER_NOTIFICATION_BACKLOG = 256

/** Starts one member, and again whenever it ends or fails, with backoff, until the gateway closes. */
function keepUp(entry: GatewayEntry, member: Member, merged: MergedClient, life: Life, options: ConnectGatewayOptions): Promise<void> {
  const admit = backlog({ count: MEMBER_NOTIFICATION_BACKLOG }, {
    full: () => options.log(`flatmcp proxy: server "${entry.name}" sends notifications faster than the client reads them; past ${MEMBER_NOTIFICATION_BACKLOG} waiting, its next are dropped`),
    drained: dropped => options.log(`flatmcp proxy: server "${entry.name}"'s notifications reach the client again; ${dropped} were dropped`),
  })
  const again = (why: string): void => {
    member.client = undefined
    member.down = why
    if (life.closing)
      return
    const wait = Math.min(1000 * 2 ** life.attempts++, options.maxBackoffMs ?? 60_000)
    // Said once per outage, not at every try: the next line about it says it is back.
    if (life.attempts === 1) {
      options.log(`flatmcp proxy: server "${entry.name}" ${why}; its tools are left out, and it is started again in ${wait / 1000} s, then less and less often (a minute at most)`)
      merged.membersChanged()
    }
    life.timer = setTimeout(() => void start(), wait)
    life.timer.unref?.()
  }
  const start = async (): Promise<void> => {
    try {
      const connection = await connectUpstream(memberTarget(entry, life, options), { ...(options.offer === undefined ? { asks: options.asks } : { offer: options.offer }), log: options.log })
      if (life.closing) {
        await connection.close()
        return
      }
      life.connection = connection
      const back = (): void => {
        if (life.attempts > 0)
          options.log(`flatmcp proxy: server "${entry.name}" is back; its tools are listed again`)
        life.attempts = 0
        life.hung = false
        life.heard.clear()
      }
      if (!life.hung)
        back()
      member.listed = () => void (life.hung && back())
      const { client } = connection
      client.setNotificationHandler('notifications/tools/list_changed', merged.changed)
      client.fallbackNotificationHandler = notification => sendWithin(admit, () => merged.handlers.notification(notification))
      // Its questions heard only within its own calls.
      const asks = memberQuestions(entry.name, client, merged.handlers.request, options.log)
      client.fallbackRequestHandler = asks.handler
      member.client = asks.client
      member.down = undefined
      member.restart = (why) => {
        if (life.connection !== connection)
          return
        life.connection = undefined
        life.hung = true
        void connection.close().catch(() => {})
        again(why)
      }
      connection.onEnd(why => again(why ?? 'ended'))
      merged.membersChanged()
    }
    catch (error) {
      again(`could not start (${(error as Error).message})`)
    }
  }
  return start()
}

/** Groups of replicas that name entries the config has, each entry in one group at most, none named as an entry. */
function checkReplicas(entries: readonly GatewayEntry[], replicas: Readonly<Record<string, readonly string[]>>): void {
  const names = new Set(entries.map(entry => entry.name))
  const grouped = new Map<string, string>()
  for (const [group, members] of Object.entries(replicas)) {
    if (names.has(group))
      throw new ProxySetupError(`the replicas "${group}" take the name of an entry of the config: name the group otherwise`)
    for (const member of members) {
      if (!names.has(member))
        throw new ProxySetupError(`the replicas "${group}" name "${member}", which the config does not list (it lists ${[...names].map(name => JSON.stringify(name)).join(', ')})`)
      if (grouped.has(member))
        throw new ProxySetupError(`"${member}" is a replica of both "${grouped.get(member)}" and "${group}"`)
      grouped.set(member, group)
    }
  }
}

/**
 * Connects every entry at once and serves them as one upstream (`mergedClient`): its close ends them
 * all; none ending ends it.
 */
export function connectGateway(entries: readonly GatewayEntry[], given: ConnectGatewayOptions): Upstream {
  // Once the gateway closes, its servers failing for being closed is no news: nothing more is said.
  let closing = false
  const options: ConnectGatewayOptions = { ...given, log: line => closing ? undefined : given.log(line) }
  checkReplicas(entries, options.replicas ?? {})
  // Names two servers could both take are refused before any starts: never settled by which lists first.
  const grouped = new Set(Object.values(options.replicas ?? {}).flat())
  const clash = namespaceClash([...Object.keys(options.replicas ?? {}), ...entries.map(entry => entry.name).filter(name => !grouped.has(name))], options.naming ?? {})
  if (clash)
    throw new ProxySetupError(clash)
  const members: Member[] = []
  const lives: Life[] = []
  const merged = mergedClient(members, { naming: options.naming ?? {}, ...(options.replicas ? { replicas: options.replicas } : {}), info: options.info ?? { name: 'flatmcp', version: '1' }, listMs: options.listMs ?? 10_000, log: options.log })
  for (const entry of entries) {
    const life: Life = { attempts: 0, closing: false, heard: new Set() }
    const member: Member = { name: entry.name, ...(entry.tools ? { tools: entry.tools } : {}), down: STARTING, started: Promise.resolve() }
    member.started = keepUp(entry, member, merged, life, options)
    members.push(member)
    lives.push(life)
  }
  return {
    client: merged,
    // Read when said: a server down at that moment is named apart.
    get where() {
      return serversWhere(members)
    },
    onEnd: () => {},
    close: async () => {
      closing = true
      for (const life of lives) {
        life.closing = true
        clearTimeout(life.timer)
      }
      await Promise.allSettled(lives.map(life => life.connection?.close()))
    },
  }
}

/** @deprecated The gateway's connection is `connectGateway`; the old name stays for callers of 0.x. */
export const connectMany = connectGateway
/** @deprecated Renamed `ConnectGatewayOptions`. */
export type ConnectManyOptions = ConnectGatewayOptions
