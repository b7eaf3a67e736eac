// What `flatmcp proxy` asks the runtime for: the command's options, the snapshot read and the
// overrides found made the options of `createProxy` (one server) or `createGateway` (`--config`),
// and what hears each call.
import type { Downstream, OperatorLog, Overrides, ProxiedCall, Proxy, ProxyOptions, RefusedCall } from '@flatmcp/runtime/proxy'
import type { AuditLog } from './audit-log'
import type { ProxyCommandOptions } from './proxy-options'
import { createGateway, createProxy, namingOf, replicasOf, routedProfile } from '@flatmcp/runtime/proxy'
import { cliVersion } from '../version'
import { callLine } from './operator-log'
import { ajvValidator } from './validator'

/** What the command read before it starts the proxy: the snapshot, the overrides, the profiles routed, what hears each call. */
export interface StartContext {
  snapshot: ProxyOptions['snapshot']
  named: Overrides | undefined
  profiles: ProxyOptions['profiles']
  countTokens: ProxyOptions['countTokens']
  observer: Pick<ProxyOptions, 'onCall'>
  telemetry: ProxyOptions['telemetry']
  log: NonNullable<ProxyOptions['log']>
}

/** Starts the proxy (or the gateway) as the command line says; over stdio with what the client offers (`offer`). */
export function proxyStarter(options: ProxyCommandOptions, { snapshot, named, profiles, countTokens, observer, telemetry, log }: StartContext): (offer?: Downstream['offer']) => Promise<Proxy> {
  const base = options.profile ?? 'portable'
  const proxyOf = (proxyOptions: ProxyOptions): Promise<Proxy> => options.gateway ? createGateway(options.gateway, { ...proxyOptions, info: { name: 'flatmcp', version: cliVersion() }, naming: namingOf(named), replicas: replicasOf(named) }) : createProxy(options.upstream!, proxyOptions)
  return offer => proxyOf({
    profile: options.http ? routedProfile(base, Object.keys(named?.views ?? {})) : base,
    ...(profiles ? { profiles: [...new Set([...profiles, ...(base === 'portable' ? [] : [base])])] } : {}),
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}),
    ...(snapshot ? { snapshot, frozen: options.frozen === true } : {}),
    ...(options.lists?.known === undefined ? {} : { known: options.lists.known }),
    validator: ajvValidator(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.compileTimeoutMs === undefined ? {} : { compile: { timeoutMs: options.compileTimeoutMs } }),
    ...(options.strictBudget === undefined ? {} : { strictBudget: options.strictBudget }),
    ...(offer ? { offer, wait: 'connection' as const } : { asks: false }),
    ...(options.started ? { started: options.started } : {}),
    ...(options.outputs ? { outputs: options.outputs } : {}),
    ...(options.surface ? { surface: options.surface } : {}),
    ...(countTokens ? { countTokens } : {}),
    ...(options.alwaysLoad ? { alwaysLoad: options.alwaysLoad } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.rules ? { rules: options.rules.rules } : {}),
    ...observer,
    ...(telemetry ? { telemetry } : {}),
    // Callers with tokens of their own: no shared cache may answer one with another's list.
    ...(options.http?.tokens?.length || options.http?.callers?.length ? { cacheScope: 'private' as const } : {}),
    log,
  })
}

/**
 * What hears each call: the audit log, and at `--log-level debug` a line per call. Over stdio, where
 * the callers file's `stdio` entry limits the client, `caller` names it (no credential of its own does).
 */
export function callObserver(audit: AuditLog | undefined, debug: OperatorLog | undefined, caller: string | undefined): { onCall?: (call: ProxiedCall | RefusedCall) => void } {
  if (!audit && !debug)
    return {}
  return { onCall: (heard) => {
    const call = caller === undefined || heard.caller !== undefined ? heard : { ...heard, caller }
    audit?.write(call)
    debug?.(callLine(call), 'debug')
  } }
}
