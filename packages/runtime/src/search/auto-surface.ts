// `surface: 'auto'`: the full list where it costs a session less than the search surface would with
// one tool described, the search surface where it costs more; decided per profile, once per list,
// by tokens counted as the operator's tokenizer counts them, and told.
import type { McpTool } from '../artifact/format'
import type { SurfaceChoice } from '../service/options'
import type { ToolService } from '../service/service'
import type { SearchOptions } from './tool-search'
import { describedTool } from './described-tool'
import { searchSurface, surfaceTools, withinBudget } from './surface'

/** Without a tokenizer: four characters a token, about what o200k_base gives for JSON. */
export const estimatedTokens = (text: string): number => Math.ceil(text.length / 4)

/** The tool of median size (by its JSON): what one describe answer is taken to cost. */
function medianTool(tools: readonly McpTool[]): McpTool | undefined {
  // Each tool's size measured once, not in every comparison of the sort.
  const sized = tools.map(tool => ({ tool, size: JSON.stringify(tool).length })).sort((a, b) => a.size - b.size)
  return sized[Math.floor(sized.length / 2)]?.tool
}

/** The choice for one list: tokens of the full list beside the surface's list and one describe answer. */
export function chooseSurface(tools: readonly McpTool[], profile: string | undefined, alwaysLoad: readonly string[], count: (text: string) => number): SurfaceChoice {
  const loaded = tools.filter(tool => alwaysLoad.includes(tool.name))
  const full = count(JSON.stringify(tools))
  const list = count(JSON.stringify([...surfaceTools(profile), ...loaded]))
  const median = medianTool(tools)
  const describe = median ? count(JSON.stringify(withinBudget([describedTool(median)]))) : 0
  return { profile, surface: full <= list + describe ? 'full' : 'search', tools: tools.length, full, search: { list, describe } }
}

/** `service` with the surface each profile's list is cheaper behind, chosen when that list is first asked for. */
export function autoSurface(service: ToolService, alwaysLoad: readonly string[], count: (text: string) => number, told: (choice: SurfaceChoice) => void, options: SearchOptions = {}): ToolService {
  const search = searchSurface(service, alwaysLoad, options)
  const chosen = new Map<string | undefined, Promise<SurfaceChoice>>()
  const choice = (profile: string | undefined): Promise<SurfaceChoice> => {
    let made = chosen.get(profile)
    if (!made) {
      made = service.list(profile).then((list) => {
        const decided = chooseSurface(list.tools, profile, alwaysLoad, count)
        told(decided)
        return decided
      })
      chosen.set(profile, made)
    }
    return made
  }
  const behind = async (profile: string | undefined): Promise<ToolService> => (await choice(profile)).surface === 'search' ? search : service
  return {
    list: async profile => (await behind(profile)).list(profile),
    call: async (name, args, request, profile, unsure) => (await behind(profile)).call(name, args, request, profile, unsure),
    read: (name, args, profile) => service.read(name, args, profile),
  }
}
