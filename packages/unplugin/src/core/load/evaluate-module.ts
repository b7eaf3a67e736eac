import type { Message } from 'esbuild'
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { writeFileAtomic } from '../write-atomic'
import { packageImports } from './package-imports'
import { EvaluationTimeout, withinTimeLimit } from './time-limit'
import { inlineSourceMap, originalPosition } from './source-map'

export interface EvaluatedModule {
  exports: Record<string, unknown>
  /** Every file of the project and of linked packages the module is made of (itself first), absolute. */
  dependencies: string[]
  /** The `package.json` of each installed package it imports, absolute: their versions key the cache. */
  packages: string[]
}

/** The module could not be compiled or threw while it was evaluated. */
export class ModuleLoadError extends Error {
  constructor(readonly file: string, readonly line: number | undefined, readonly column: number | undefined, reason: string) {
    super(reason)
    this.name = 'ModuleLoadError'
  }
}

function firstLocation(errors: Message[]): { line?: number, column?: number } {
  const location = errors[0]?.location
  return location ? { line: location.line, column: location.column + 1 } : {}
}

/**
 * Evaluates a tool module at build time. esbuild compiles it with every installed package kept
 * external, so the module runs against the project's own packages (one zod, not two), and linked
 * packages compiled in (see `packageImports`); the output goes under the cache folder, never beside
 * the sources (it would wake file watchers).
 */
export async function evaluateModule(file: string, root: string, cacheDir: string, timeoutMs: number, instance = ''): Promise<EvaluatedModule> {
  let result
  const manifests = new Set<string>()
  try {
    result = await build({
      entryPoints: [file],
      absWorkingDir: root,
      bundle: true,
      plugins: [packageImports(manifests)],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      sourcemap: 'inline',
      // Sources are relative to the root: say so, for Node's own mapping (--enable-source-maps).
      sourceRoot: `${pathToFileURL(root).href}/`,
      logLevel: 'silent',
    })
  }
  catch (error) {
    const errors = (error as { errors?: Message[] }).errors ?? []
    const { line, column } = firstLocation(errors)
    const where = errors[0]?.location?.file ? path.resolve(root, errors[0].location.file) : file
    throw new ModuleLoadError(where, line, column, `cannot compile the module: ${errors[0]?.text ?? (error as Error).message}`)
  }
  const code = result.outputFiles[0]!.text
  const dependencies = Object.keys(result.metafile.inputs).map(input => path.resolve(root, input))
  const id = createHash('sha256').update(file).update(code).digest('hex').slice(0, 16)
  // The process id keeps builds that run at once (two bundlers, a build and a test run) from deleting
  // each other's file; within a process the same code keeps the same name, so Node evaluates it once
  // (an `instance` named makes another name: evaluated anew, as a second build would).
  const output = path.join(cacheDir, 'modules', `${path.basename(file).replace(/\W/g, '_')}-${id}-${process.pid}${instance === '' ? '' : `-${instance}`}.mjs`)
  writeFileAtomic(output, code)
  try {
    const reason = `did not return within ${timeoutMs} ms of being evaluated (a loop that never ends?). Raise the plugin's moduleTimeout (flatmcp --module-timeout) if it only needs longer.`
    const held = { reason, line: `flatmcp: ${path.relative(root, file) || file}: the module ${reason} The build is stopped.` }
    const exports = await withinTimeLimit(() => import(pathToFileURL(output).href) as Promise<Record<string, unknown>>, timeoutMs, held)
    return { exports, dependencies: [file, ...dependencies.filter(dep => dep !== file)], packages: [...manifests].sort() }
  }
  catch (error) {
    if (error instanceof EvaluationTimeout)
      throw new ModuleLoadError(file, undefined, undefined, `the module ${error.message}`)
    const at: { file: string, line?: number, column?: number } = sourceFrame(error, output, code, root, new Set(dependencies)) ?? { file }
    throw new ModuleLoadError(at.file, at.line, at.column, `the module threw while it was evaluated: ${error instanceof Error ? error.message : String(error)}`)
  }
  finally {
    rmSync(output, { force: true })
  }
}

/**
 * Where in the sources an evaluation error was thrown: the first frame of its stack in the evaluated
 * file, mapped back through the file's own source map, or a frame already in one of its sources.
 */
function sourceFrame(error: unknown, output: string, code: string, root: string, sources: Set<string>): { file: string, line: number, column: number } | undefined {
  const stack = error instanceof Error ? error.stack ?? '' : ''
  const map = inlineSourceMap(code)
  const frames: { file: string, line: number, column: number }[] = []
  for (const [, location, line, column] of stack.matchAll(/^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/gm)) {
    const file = location!.startsWith('file:') ? fileURLToPath(location!) : location!
    const position = map && file === output ? originalPosition(map, Number(line), Number(column)) : undefined
    if (position)
      frames.push({ file: path.resolve(root, position.source), line: position.line, column: position.column })
    // Already mapped (Node run with --enable-source-maps): a frame in one of the module's sources.
    else if (sources.has(file))
      frames.push({ file, line: Number(line), column: Number(column) })
  }
  // The author's own line before a package's (a `defineTool` that refuses a key throws inside it).
  return frames.find(frame => isOwnSource(frame.file, root)) ?? frames[0]
}

function isOwnSource(file: string, root: string): boolean {
  const relative = path.relative(root, file)
  return !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules')
}