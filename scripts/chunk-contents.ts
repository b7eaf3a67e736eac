// What each file of a bundled chunk holds, by package, written beside it (contents.json): a bundle
// loads as a few files, and the proxy's start-up test reads this to say which packages a start loaded.
import type { Plugin } from 'rolldown'

/** The package a module is of: the name after its last node_modules/, a workspace package by its folder. */
export function packageOf(id: string): string {
  const installed = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1]
  if (installed)
    return installed
  const workspace = /packages\/([^/]+)\//.exec(id)?.[1]
  return workspace === undefined ? id : ({ cli: 'flatmcp', unplugin: 'unplugin-flatmcp' } as Record<string, string>)[workspace] ?? `@flatmcp/${workspace}`
}

/** Writes contents.json: each chunk's file name and the packages its modules are of. */
export function chunkContents(): Plugin {
  return {
    name: 'flatmcp:chunk-contents',
    generateBundle(_options, bundle) {
      const contents: Record<string, string[]> = {}
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk')
          contents[output.fileName] = [...new Set(output.moduleIds.map(packageOf))].sort()
      }
      this.emitFile({ type: 'asset', fileName: 'contents.json', source: `${JSON.stringify(contents, null, 2)}\n` })
    },
  }
}
