import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { contentHash as hashFiles } from '@flatmcp/runtime/artifact'
import { writeFileAtomic } from '../write-atomic'
import { modulePath } from './module-path'

/** What compiling a module produced: enough to transform it and emit its artifact again. */
export interface CachedModule {
  /** Project and linked-package files the module is made of, relative to the root. */
  dependencies: string[]
  /** The `package.json` of each installed package it imports, relative to the root. */
  packages: string[]
  /** The code appended to the module. */
  injected: string
  /** Tool names the module defines. */
  tools: string[]
  /** Where the module exports `flat()` schemas. */
  flats: string[]
  /** Where the module exports `elicitForm()` schemas. */
  forms: string[]
  /** Build warnings the module gives (repeated on every build, warm ones too). */
  warnings: string[]
  /** The artifact text. */
  artifact: string
}

/** Whether a module gave anything to precompute: tools, `flat()` schemas or forms (else it warns, and has no artifact). */
export function yieldsAnything(result: Pick<CachedModule, 'tools' | 'flats' | 'forms'>): boolean {
  return result.tools.length + result.flats.length + result.forms.length > 0
}

interface Record_ {
  key: string
  /** A checksum of `result`: a record edited or truncated on disk is a miss, never an artifact. */
  sum: string
  result: CachedModule
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(item => typeof item === 'string')

function checksum(result: CachedModule): string {
  return createHash('sha256').update(JSON.stringify([result.dependencies, result.packages, result.injected, result.tools, result.flats, result.forms, result.warnings, result.artifact])).digest('hex')
}

/** The record when it has the shape this version writes and its checksum holds; else undefined. */
function validRecord(value: unknown): Record_ | undefined {
  if (typeof value !== 'object' || value === null)
    return undefined
  const { key, sum, result } = value as Partial<Record<keyof Record_, unknown>>
  if (typeof key !== 'string' || typeof sum !== 'string' || typeof result !== 'object' || result === null)
    return undefined
  const { dependencies, packages, injected, tools, flats, forms, warnings, artifact } = result as Partial<Record<keyof CachedModule, unknown>>
  if (!isStringList(dependencies) || !isStringList(packages) || typeof injected !== 'string' || !isStringList(tools) || !isStringList(flats) || !isStringList(forms) || !isStringList(warnings) || typeof artifact !== 'string')
    return undefined
  const checked: Record_ = { key, sum, result: { dependencies, packages, injected, tools, flats, forms, warnings, artifact } }
  return checksum(checked.result) === sum ? checked : undefined
}

/** Hash of the files' contents (and paths), in the given order, as artifacts carry it (the runtime checks it the same way). */
export function contentHash(root: string, files: string[], salt: string): string {
  const read = (file: string): Uint8Array | undefined => {
    const absolute = path.resolve(root, file)
    return existsSync(absolute) ? readFileSync(absolute) : undefined
  }
  return hashFiles(files.map(file => modulePath(root, file)), { read, sha256: () => createHash('sha256') }, salt)
}

/** What a result's cache key covers: every file it is made of and the manifests of the packages it ran. */
const keyFiles = (result: CachedModule): string[] => [...result.dependencies, ...result.packages]

/**
 * A cache of compiled modules on disk and in memory, keyed by the content of the module, of every
 * file it imports and of the installed packages' manifests (their versions), plus the versions and
 * options that shape the result. A hit skips evaluation.
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
    let record: Record_ | undefined
    try {
      record = validRecord(JSON.parse(readFileSync(this.file(module), 'utf8')))
    }
    catch {
      // Missing or unreadable: a miss like any other.
    }
    // A bad record is a miss; the next compile of the module writes a good one over it.
    if (record)
      this.memory.set(module, record)
    return record
  }

  /** The cached result, when none of the files it was made of changed since. */
  get(module: string): CachedModule | undefined {
    const record = this.record(module)
    if (!record)
      return undefined
    return contentHash(this.root, keyFiles(record.result), this.salt) === record.key ? record.result : undefined
  }

  set(module: string, result: CachedModule): void {
    const record: Record_ = { key: contentHash(this.root, keyFiles(result), this.salt), sum: checksum(result), result }
    this.memory.set(module, record)
    writeFileAtomic(this.file(module), JSON.stringify(record))
  }
}
