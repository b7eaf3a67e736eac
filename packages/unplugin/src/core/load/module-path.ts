import path from 'node:path'

/** A file's path relative to the project root with `/` separators: how artifacts and caches name modules. */
export function modulePath(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/')
}

/** A path with `/` separators, as bundlers want emitted file names. */
export function posix(file: string): string {
  return file.split(path.sep).join('/')
}
