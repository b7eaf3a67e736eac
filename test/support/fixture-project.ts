import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './client'

export interface FixtureProject {
  root: string
  write: (file: string, text: string) => void
  read: (file: string) => string
  remove: () => void
}

/** A throwaway project inside the workspace (so `zod` and `@flatmcp/runtime` resolve), files given inline. */
export function fixtureProject(name: string, files: Record<string, string>): FixtureProject {
  const base = path.join(ROOT, 'test/.tmp')
  mkdirSync(base, { recursive: true })
  const root = mkdtempSync(path.join(base, `${name}-`))
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  for (const [file, text] of Object.entries(files))
    write(file, text)
  return {
    root,
    write,
    read: file => readFileSync(path.join(root, file), 'utf8'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  }
}
