// The licences of the packages a bundle inlines, written beside it (THIRD-PARTY-LICENSES.md): their
// code ships inside flatmcp's files, so their notices ship with it (MIT's and Apache-2.0's terms).
import type { Plugin } from 'rolldown'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** The folder of the installed package a module is in (the part up to its last node_modules/<name>/). */
function packageFolder(id: string): string | undefined {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1]
}

/** A package's name, version, licence and the texts of its LICENSE and NOTICE files. */
function notice(folder: string): string {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name: string, version: string, license?: string }
  const files = readdirSync(folder).filter(name => /^(?:licen[cs]e|notice)(?:\.(?:md|txt))?$/i.test(name)).sort()
  if (files.length === 0)
    throw new Error(`${manifest.name} is bundled into the proxy's chunk and ships no LICENSE file: its notice cannot be kept`)
  const texts = files.map(name => readFileSync(path.join(folder, name), 'utf8').trim())
  return [`## ${manifest.name}@${manifest.version} (${manifest.license ?? 'see below'})`, ...texts].join('\n\n')
}

/** Writes THIRD-PARTY-LICENSES.md: every installed package whose code the bundle holds, with its notices. */
export function bundledLicenses(): Plugin {
  return {
    name: 'flatmcp:bundled-licenses',
    generateBundle(_options, bundle) {
      const folders = new Set<string>()
      for (const output of Object.values(bundle)) {
        for (const id of output.type === 'chunk' ? output.moduleIds : []) {
          const folder = packageFolder(id)
          if (folder !== undefined && existsSync(path.join(folder, 'package.json')))
            folders.add(folder)
        }
      }
      const notices = [...folders].sort((a, b) => path.basename(a).localeCompare(path.basename(b))).map(notice)
      const text = ['# Third-party code in this folder', '', 'These files bundle the packages below; each one\'s licence and notices follow.', '', notices.join('\n\n'), ''].join('\n')
      this.emitFile({ type: 'asset', fileName: 'THIRD-PARTY-LICENSES.md', source: text })
    },
  }
}
