import type { ModuleFlat, ModuleForm, ModuleTool } from '../compile/compile-module'

/** A `flat()` export the appended code can reach: `sendInput`, `inputs["send"]`, `list[0]`. */
function reachable(exportName: string, source: string): string | undefined {
  const [binding, ...steps] = exportName.match(/[^.[\]]+/g) ?? []
  // Only a binding the module declares as it exports it is in scope under the exported name.
  if (!binding || binding === 'default' || !new RegExp(`(^|\\n)\\s*export\\s+(const|let|var)\\s+${binding.replace(/\$/g, '\\$')}\\b`).test(source))
    return undefined
  return binding + steps.map(step => /^\d+$/.test(step) ? `[${step}]` : `[${JSON.stringify(step)}]`).join('')
}

/**
 * What the build appends to a tool module: the precomputed data of its tools, registered by tool
 * name with the runtime, and of its `flat()` schemas and `elicitForm()` forms, attached to each
 * exported value, so none is compiled at run time. `unreachable` lists `flat()` exports the appended code cannot name.
 */
export function injectedCode(tools: ModuleTool[], flats: ModuleFlat[], forms: ModuleForm[], source: string): { code: string, unreachable: string[] } {
  const lines: string[] = []
  const unreachable: string[] = []
  if (tools.length > 0) {
    const data = Object.fromEntries(tools.map(t => [t.precomputed.tool.name, t.precomputed]))
    lines.push(`import { registerPrecomputed as __flatmcpRegister } from '@flatmcp/runtime'`, `__flatmcpRegister(${JSON.stringify(data)})`)
  }
  const attach = (exportName: string, call: string, data: unknown): string[] => {
    const expression = reachable(exportName, source)
    if (expression === undefined)
      unreachable.push(exportName)
    return expression === undefined ? [] : [`${call}(${expression}, ${JSON.stringify(data)})`]
  }
  const attached = flats.flatMap(({ exportName, data }) => attach(exportName, '__flatmcpAttachFlat', data))
  if (attached.length > 0)
    lines.push(`import { attachFlat as __flatmcpAttachFlat } from '@flatmcp/runtime'`, ...attached)
  const asked = forms.flatMap(({ exportName, form }) => attach(exportName, '__flatmcpAttachForm', form))
  if (asked.length > 0)
    lines.push(`import { attachForm as __flatmcpAttachForm } from '@flatmcp/runtime'`, ...asked)
  return { code: lines.length > 0 ? `\n${lines.join('\n')}\n` : '', unreachable }
}
