import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../emit/write-atomic'
import { modulePath } from './module-path'

/** What compiling a module produced: enough to transform it and emit its artifact again. */
export interface CachedModule {
  /** Project files the module is made of, relative to the root. */
  dependencies: string[]
  /** The code appended to the module. */
  injected: string
  /** Tool names the module defines. */
  tools: string[]
  /** The artifact text. */
  artifact: string
}

interface Record_ {
  key: string
  result: CachedModule
}

/** Hash of the files' contents (and paths), in the given order. Missing files hash as missing. */
export function contentHash(root: string, files: string[], salt: string): string {
  const hash = createHash('sha256').update(salt)
  for (const file of files) {
    const absolute = path.resolve(root, file)
    hash.update(`\0${modulePath(root, absolute)}\0`)
    hash.update(existsSync(absolute) ? readFileSync(absolute) : '\0missing')
  }
  return `sha256:${hash.digest('hex')}`
}

/**
 * A cache of compiled modules on disk and in memory, keyed by the content of the module and of every
 * file it imports, plus the versions and options that shape the result. A hit skips evaluation.
 */
export class ModuleCache {
  private readonly memory = new Map<string, Record_>()

  constructor(private readonly root: string, private readonly dir: string, private readonly salt: string) {}

  private file(module: string): string {
    return path.join(this.dir, 'results', `${createHash('sha256').update(module).digest('hex').slice(0, 24)}.json`)
  }

  private record(module: string): Record_ | undefined {
    const known = this.memory.get(module)
    if (known)
      return known
    try {
      const record = JSON.parse(readFileSync(this.file(module), 'utf8')) as Record_
      this.memory.set(module, record)
      return record
    }
    catch {
      return undefined
    }
  }

  /** The cached result, when none of the files it was made of changed since. */
  get(module: string): CachedModule | undefined {
    const record = this.record(module)
    if (!record)
      return undefined
    return contentHash(this.root, record.result.dependencies, this.salt) === record.key ? record.result : undefined
  }

  set(module: string, result: CachedModule): void {
    const record = { key: contentHash(this.root, result.dependencies, this.salt), result }
    this.memory.set(module, record)
    writeFileAtomic(this.file(module), JSON.stringify(record))
  }
}
