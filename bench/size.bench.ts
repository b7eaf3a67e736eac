// Size of what ships at request time: the coercer, minified and gzipped.
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const TARGET = 2048

async function minGzip(entry: string, external: string[] = []): Promise<{ min: number, gzip: number }> {
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, external, logLevel: 'silent' })
  const code = result.outputFiles[0]!.contents
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

const coercer = await minGzip(new URL('../packages/runtime/src/coerce/coerce-args.ts', import.meta.url).pathname)
console.log('size (esbuild --minify, gzip -9)')
console.log(`coerceArgs: ${coercer.min} B min, ${coercer.gzip} B min+gzip (target ≤ ${TARGET} B: ${coercer.gzip <= TARGET ? 'met' : 'MISSED'})`)
