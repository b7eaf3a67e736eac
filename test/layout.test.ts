// The layout holds: no import circle in any package's sources (type imports count), and no arrow
// from a lower stage of a package's pipeline to a higher one. Each package's stages, lowest first, as
// docs/development.md draws them; a file not placed in a stage fails the test, so a new folder says
// where it stands; and every source folder is named in that map.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageEntries, PACKAGES } from '../scripts/entries'
import { ROOT } from './support/client'
import { layoutPaths } from './support/layout-map'

/** A package's entries (its package.json exports), as paths under `src/`: its top stage. */
const entries = (folder: string): string[] => packageEntries(folder).map(entry => entry.source.replace(/^src\//, ''))

/** Each package's stages, lowest first: path prefixes under `src/` (a file matches its longest prefix). */
const STAGES: Record<string, string[][]> = {
  core: [
    ['types.ts', 'json.ts', 'keywords.ts', 'profiles/names.ts'],
    ['frontend/'],
    ['flatten/'],
    ['plan/'],
    ['profiles/'],
    ['compile/'],
    ['elicit/'],
    entries('core'),
  ],
  runtime: [
    // The API OpenTelemetry is reached through is a type every stage may name; its telemetry folder holds it.
    ['util/', 'coerce/', 'telemetry/otel-api.ts'],
    ['tool/'],
    ['artifact/', 'validate/'],
    ['precomputed/', 'read/'],
    ['elicit/'],
    ['flat/', 'service/'],
    // The lean surface and its search, views beside it: composed over the service, which knows nothing of them.
    ['search/'],
    ['telemetry/'],
    ['host/'],
    // The proxy by stage, as a proxied request travels: the upstream reached, its list compiled, the
    // tools served, the HTTP face; createProxy and serveProxy put the stages together.
    ['proxy/upstream/'],
    ['proxy/compile/'],
    ['proxy/serve/'],
    // A fetch handler's spans, kept with the rest of the telemetry, read its HTTP answers.
    ['proxy/http/', 'telemetry/fetch-telemetry.ts'],
    ['proxy/proxy-options.ts', 'proxy/create-proxy.ts', 'proxy/create-gateway.ts', 'proxy/serve-proxy.ts'],
    entries('runtime'),
  ],
  unplugin: [
    ['core/util.ts', 'core/write-atomic.ts', 'core/options.ts'],
    ['core/load/'],
    ['core/compile/'],
    ['core/check/', 'core/emit/'],
    ['core/pipeline/'],
    // The hooks by bundler (Vite's, esbuild's) and the state they share, put together by plugin.ts.
    ['core/hooks/', 'core/plugin.ts'],
    entries('unplugin'),
  ],
  cli: [
    ['util.ts', 'style.ts', 'version.ts', 'compile-cache.ts'],
    // What each command runs, then the commands' table (usage, options, run), then the dispatcher, then the bin.
    ['tool-modules/', 'probe/', 'proxy/', 'install/'],
    ['commands/'],
    ['command-line.ts'],
    [...entries('cli'), 'cli.ts'],
  ],
}

/** Every folder under `dir`, at any depth. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter(entry => entry.isDirectory()).flatMap(entry => [path.join(dir, entry.name), ...folders(path.join(dir, entry.name))])
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : []
  })
}

/** Each file's relative imports (and re-exports), type-only ones too, resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map(match => {
    const target = path.resolve(path.dirname(file), match[1]!)
    const found = [`${target}.ts`, path.join(target, 'index.ts')].find(existsSync)
    if (!found)
      throw new Error(`${path.relative(ROOT, file)} imports ${match[1]}, which is no file`)
    return found
  })
}

/** The circles of an import graph (Tarjan's strongly connected components of more than one file, or a file that imports itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file)!, low.get(to)!))
      }
      else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1 || (graph.get(file) ?? []).includes(file))
        found.push(component)
    }
  }
  for (const file of graph.keys()) {
    if (!index.has(file))
      visit(file)
  }
  return found
}

describe.each(Object.keys(STAGES))('packages/%s/src', (pkg) => {
  const src = path.join(ROOT, 'packages', pkg, 'src')
  const files = sources(src)
  const graph = new Map(files.map(file => [file, importsOf(file)]))
  const relative = (file: string): string => path.relative(src, file).split(path.sep).join('/')
  const stageOf = (file: string): number => {
    const name = relative(file)
    let best = { stage: -1, length: -1 }
    STAGES[pkg]!.forEach((prefixes, stage) => {
      for (const prefix of prefixes) {
        if ((prefix.endsWith('/') ? name.startsWith(prefix) : name === prefix) && prefix.length > best.length)
          best = { stage, length: prefix.length }
      }
    })
    return best.stage
  }

  it('has no import circle', () => {
    expect(circles(graph).map(circle => circle.map(relative).sort())).toEqual([])
  })

  it('places every file in a stage, and no file imports from a higher stage than its own', () => {
    expect(files.filter(file => stageOf(file) < 0).map(relative)).toEqual([])
    const upward = [...graph].flatMap(([from, targets]) => targets.filter(to => stageOf(to) > stageOf(from)).map(to => `${relative(from)} → ${relative(to)}`))
    expect(upward).toEqual([])
  })

  it('has every folder named in docs/development.md\'s map of the source', () => {
    const named = new Set(layoutPaths())
    const unnamed = [src, ...folders(src)].map(folder => `${path.relative(ROOT, folder).split(path.sep).join('/')}/`).filter(folder => !named.has(folder))
    expect(unnamed).toEqual([])
  })
})

describe.each(PACKAGES)('packages/%s/package.json', (folder) => {
  it('publishes the entries it exports: publishConfig.exports is exports less the source condition', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'packages', folder, 'package.json'), 'utf8')) as { exports: Record<string, unknown>, publishConfig?: { exports?: unknown } }
    const published = Object.fromEntries(Object.entries(manifest.exports).map(([subpath, target]) => {
      if (typeof target !== 'object' || target === null)
        return [subpath, target]
      const { 'flatmcp-source': _source, ...rest } = target as Record<string, unknown>
      return [subpath, rest]
    }))
    expect(manifest.publishConfig?.exports ?? manifest.exports).toEqual(published)
  })
})
