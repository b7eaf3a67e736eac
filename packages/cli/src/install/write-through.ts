// How `flatmcp install` writes a file: whole or not at all (a temporary file beside it, renamed over
// it), through a symbolic link to the file it names (a dotfiles link stays a link), with the mode of
// the config it came from from the first byte (a config of secrets stays its owner's alone), and
// only over the bytes it read: a file another program wrote since is left as that program wrote it.
import { randomBytes } from 'node:crypto'
import { closeSync, fchmodSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { InstallError } from './rewrite'

/** A file that holds other bytes than those it was read with: someone wrote it since. */
export class ChangedSinceRead extends Error {}

/** The file a path names: a symbolic link's target (where it has one, even one not there yet), else the path itself. */
export function targetOf(file: string): string {
  try {
    return realpathSync(file)
  }
  catch {
    return isLink(file) ? targetOf(path.resolve(path.dirname(file), readlinkSync(file))) : file
  }
}

/** The permission bits of a config, for the files made from it: never wider than its own. */
export function modeOf(file: string): number {
  return statSync(file).mode & 0o666
}

/** The bytes a file holds now (none where there is no file). */
function bytesOf(file: string): Buffer {
  try {
    return readFileSync(file)
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return Buffer.alloc(0)
    throw error
  }
}

const isLink = (file: string): boolean => {
  try {
    return lstatSync(file).isSymbolicLink()
  }
  catch {
    return false
  }
}

/**
 * The folder install keeps its own files in, made where it is missing (searchable by whom `mode`
 * lets read): a folder or a file of it that is a symbolic link is refused, as writing there would
 * write wherever the link points.
 */
export function ownFolder(folder: string, files: readonly string[], mode: number): void {
  for (const place of [folder, ...files]) {
    if (isLink(place))
      throw new InstallError(`${place}: is a symbolic link; flatmcp install writes its own files only in a folder of its own, not through a link (remove the link, then install again)`)
  }
  try {
    mkdirSync(folder, { recursive: true, mode: mode | ((mode & 0o444) >> 2) })
  }
  catch (error) {
    throw new InstallError(`${folder}: could not be made (${(error as Error).message}); nothing changed`)
  }
}

/**
 * `contents` written over `file` (through a link, to its target) as a whole, with `mode`; with
 * `expected`, only where the file holds those bytes still, else `ChangedSinceRead` and nothing
 * written. The temporary file is new (never one someone put there) and removed on any failure.
 */
export function replaceFile(file: string, contents: string | Buffer, mode: number, expected?: Buffer): void {
  const target = targetOf(file)
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const fd = openSync(temporary, 'wx', mode)
    try {
      fchmodSync(fd, mode)
      writeFileSync(fd, contents)
    }
    finally {
      closeSync(fd)
    }
    if (expected !== undefined && !bytesOf(target).equals(expected))
      throw new ChangedSinceRead(`${file}: changed since flatmcp install read it`)
    renameSync(temporary, target)
  }
  catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
