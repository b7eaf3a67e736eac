// What the operator's overrides mean where tools are served, written once for `createProxy` and the
// fetch handler: the overrides in force (those given, else those a snapshot was made with), the tools
// no call reaches (hidden: not listed, and a call by name is an unknown tool's), the parameters no
// call carries upstream, and the tools listed
// beside the search surface's three (the `alwaysLoad` given, and those the overrides mark).
import type { ToolView } from '../../service/options'
import type { Snapshot } from '../../artifact/format'
import type { Overrides } from '../compile/overrides'
import { hiddenParameters } from '../compile/overrides'
import { readOverrides } from '../compile/read-overrides'

export interface ServedOverrides {
  /** The overrides in force: those given, else the snapshot's; none where neither has any. */
  overrides?: Overrides
  /** The tools hidden: no call reaches them, by name or through `call_tool`. */
  hidden: ReadonlySet<string>
  /** Each tool's hidden parameters: left out of every call sent upstream. */
  hiddenParameters: ReadonlyMap<string, readonly string[]>
  /** The tools listed beside the search surface's three, in the order given, then as the overrides name them. */
  alwaysLoad: readonly string[]
  /** The overrides' views: named subsets of the tools for callers that ask for one. */
  views?: Readonly<Record<string, ToolView>>
}

/** The overrides as served: `given` over the ones the snapshot `recorded`, and the `alwaysLoad` names asked for besides. */
export function servedOverrides(given: Overrides | undefined, recorded: Snapshot['overrides'] | undefined, alwaysLoad: readonly string[] = []): ServedOverrides {
  const overrides = given ?? (recorded ? readOverrides(recorded.file) : undefined)
  const marked = (mark: 'hide' | 'alwaysLoad'): string[] => Object.entries(overrides?.tools ?? {}).filter(([, tool]) => tool[mark] === true).map(([name]) => name)
  return {
    ...(overrides ? { overrides } : {}),
    hidden: new Set(marked('hide')),
    hiddenParameters: hiddenParameters(overrides),
    alwaysLoad: [...new Set([...alwaysLoad, ...marked('alwaysLoad')])],
    ...(overrides?.views ? { views: overrides.views } : {}),
  }
}
