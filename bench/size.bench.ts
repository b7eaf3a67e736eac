// Size of what ships at request time, minified and gzipped: the coercer alone, and the whole serving
// path of @flatmcp/runtime (the MCP SDK, which any server has, left out).
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

export interface SizeResults { coercer: { min: number, gzip: number }, serving: { min: number, gzip: number } }

async function minGzip(entry: string, external: string[] = []): Promise<{ min: number, gzip: number }> {
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'node', write: false, external, logLevel: 'silent' })
  const code = result.outputFiles[0]!.contents
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

const file = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url))

export async function runSize(log: (line: string) => void): Promise<SizeResults> {
  log('runtime size')
  return {
    coercer: await minGzip(file('../packages/runtime/src/coerce/coerce-args.ts')),
    serving: await minGzip(file('../packages/runtime/src/index.ts'), ['@modelcontextprotocol/sdk', '@flatmcp/core']),
  }
}
