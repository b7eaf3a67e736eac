// The service as a server serves it: behind its surface (the full list, the search surface, or the
// one a list's size chooses), with its views beside it. Composed by those that serve tools (the hosts,
// the proxy's served tools) over `createToolService`, which knows nothing of either.
import type { McpServerOptions, Surface } from '../service/options'
import type { ToolService } from '../service/service'
import type { SearchOptions } from './tool-search'
import { surfaceOf } from '../service/options'
import { autoSurface, estimatedTokens } from './auto-surface'
import { searchSurface } from './surface'
import { withViews } from './views'

/**
 * `service` behind the surface `options` ask for, with their views and caller rules beside it.
 * `unknownTool` makes the error a view answers for a tool it leaves out; `search` tunes find_tools.
 */
export function servedService(service: ToolService, options: McpServerOptions, unknownTool: (message: string) => Error, search: SearchOptions = {}): ToolService {
  const surface = surfaceOf(options)
  const alwaysLoad = options.alwaysLoad ?? []
  const surfaced = (behind: ToolService, chosen: Surface): ToolService => {
    if (chosen === 'auto')
      return autoSurface(behind, alwaysLoad, options.countTokens ?? estimatedTokens, options.onSurface ?? (() => {}), search)
    return chosen === 'search' ? searchSurface(behind, alwaysLoad, search) : behind
  }
  return withViews(surfaced(service, surface), service, options.views ?? {}, surfaced, unknownTool, options.rules, surface)
}
