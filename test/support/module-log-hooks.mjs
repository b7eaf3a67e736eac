// The resolve hook of module-log.mjs (it runs on the loader's own thread).
import { appendFileSync } from 'node:fs'

let file
export function initialize(data) {
  file = data?.file
}
export async function resolve(specifier, context, next) {
  if (file && specifier.includes('@opentelemetry'))
    appendFileSync(file, `${specifier}\n`)
  return next(specifier, context)
}
