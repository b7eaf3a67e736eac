// How `flatmcp install` writes a file: whole or not at all (a temporary file beside it, renamed over
// it), through a symbolic link to the file it names (a dotfiles link stays a link), with the owner,
// group and mode of the config it came from before its first byte (a config of secrets stays its
// owner's alone), in a folder no other user could have written into, and
// only over the bytes it read: a file another program wrote since is left as that program wrote it.
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, constants, fchmodSync, fchownSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
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

/** Whose a config is and who may read it: the files made from it are given the same, never wider. */
export interface Owner {
  uid: number
  gid: number
  /** Permission bits (read and write only). */
  mode: number
}

/** A config's owner, group and permission bits. */
export function ownerOf(file: string): Owner {
  const stat = statSync(file)
  return { uid: stat.uid, gid: stat.gid, mode: stat.mode & 0o666 }
}

/** This process's user id (none on Windows, where there are no such owners to check). */
const me = (): number | undefined => process.getuid?.()

/** Whether `fd`'s owner could be changed (only root gives a file away; a user gives it a group it is in). */
function chown(fd: number, uid: number, gid: number): boolean {
  try {
    fchownSync(fd, uid, gid)
    return true
  }
  catch {
    return false
  }
}

/**
 * The file open at `fd` given `owner`'s user and group where this process may (root may; a user
 * may give a group it is in), and `owner`'s mode, less the group's bits where the group could not be
 * kept: a file that cannot stay its group's is read by no other group instead.
 */
function giveOwner(fd: number, owner: Owner): void {
  const stat = fstatSync(fd)
  if (stat.uid !== owner.uid || stat.gid !== owner.gid)
    void (chown(fd, owner.uid, owner.gid) || chown(fd, -1, owner.gid))
  const kept = fstatSync(fd).gid === owner.gid
  fchmodSync(fd, kept ? owner.mode : owner.mode & ~0o070)
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

/**
 * A file of install's own (`.flatmcp/…`), read without following a link: its text, or undefined
 * where there is none. Any other error (a permission refused) is said, not taken for "none".
 */
export function readOwnFile(file: string, owner: Owner): string | undefined {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  }
  catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      return undefined
    throw new InstallError(code === 'ELOOP' ? `${file}: is a symbolic link; flatmcp reads its own files only as files (remove the link)` : `${file}: could not be read (${(error as Error).message})`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile())
      throw new InstallError(`${file}: is not a file; flatmcp keeps its own files there (remove it)`)
    const uid = me()
    if (uid !== undefined && stat.uid !== uid && stat.uid !== owner.uid)
      throw new InstallError(`${file}: belongs to user ${stat.uid}, neither you (${uid}) nor the config's owner (${owner.uid}); flatmcp reads only files its user wrote (remove it)`)
    if (stat.size > MAX_CONFIG_BYTES)
      throw new InstallError(`${file}: is over ${MAX_CONFIG_BYTES / 2 ** 20} MiB; flatmcp writes none that large (remove it)`)
    return readFileSync(fd, 'utf8')
  }
  finally {
    closeSync(fd)
  }
}

/** The largest config (and file of install's own) install reads: a bound on what one run holds. */
export const MAX_CONFIG_BYTES = 16 * 2 ** 20

const isLink = (file: string): boolean => {
  try {
    return lstatSync(file).isSymbolicLink()
  }
  catch {
    return false
  }
}

/** Why a folder of install's own is not to be trusted, or undefined where it is: it must be a folder (not a link) of `owner`'s or this user's. */
function distrust(folder: string, owner: Owner): string | undefined {
  const stat = lstatSync(folder)
  if (stat.isSymbolicLink())
    return 'is a symbolic link; flatmcp install writes its own files only in a folder of its own, not through a link (remove the link, then install again)'
  if (!stat.isDirectory())
    return 'is not a folder; flatmcp install keeps its own files in a folder of that name (move it away, then install again)'
  const uid = me()
  if (uid !== undefined && stat.uid !== uid && stat.uid !== owner.uid)
    return `belongs to user ${stat.uid}, neither you (${uid}) nor the config's owner (${owner.uid}): files there could run commands as you or be written into the config (remove it, then install again)`
  if ((stat.mode & 0o022) === 0)
    return undefined
  // Ours: made no longer writable by others; a file another user put there meanwhile is refused as it is read.
  try {
    chmodSync(folder, stat.mode & 0o755)
    return undefined
  }
  catch (error) {
    return `is writable by others (mode ${(stat.mode & 0o777).toString(8)}) and could not be made otherwise (${(error as Error).message}): files there could run commands as you (remove it, then install again)`
  }
}

/**
 * Whether the folder install keeps its own files in is there: it is refused (`InstallError`) where
 * another user could have written into it (theirs, or a link), and made no longer writable by others
 * where it is this user's.
 */
export function checkFolder(folder: string, owner: Owner): boolean {
  let why: string | undefined
  try {
    why = distrust(folder, owner)
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return false
    throw new InstallError(`${folder}: could not be read (${(error as Error).message})`)
  }
  if (why !== undefined)
    throw new InstallError(`${folder}: ${why}`)
  return true
}

/**
 * The folder install keeps its own files in, made where it is missing (searchable by whom the
 * config's mode lets read, its owner's and group's), with a `.gitignore` of `*` (the files hold
 * the config's secrets); a file install would write there that is a link or no file is refused.
 */
export function ownFolder(folder: string, files: readonly string[], owner: Owner): void {
  if (!checkFolder(folder, owner)) {
    try {
      mkdirSync(folder, { mode: 0o700 })
      const fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
      try {
        giveOwner(fd, { ...owner, mode: (owner.mode | ((owner.mode & 0o444) >> 2)) & 0o755 })
      }
      finally {
        closeSync(fd)
      }
    }
    catch (error) {
      throw new InstallError(`${folder}: could not be made (${(error as Error).message}); nothing changed`)
    }
  }
  for (const file of files) {
    const stat = lstatSync(file, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink())
      throw new InstallError(`${file}: is a symbolic link; flatmcp install writes its own files only in a folder of its own, not through a link (remove the link, then install again)`)
    if (stat && !stat.isFile())
      throw new InstallError(`${file}: is not a file; flatmcp install writes its own file there (move it away, then install again)`)
  }
  const ignore = path.join(folder, '.gitignore')
  if (!lstatSync(ignore, { throwIfNoEntry: false }))
    replaceFile(ignore, GITIGNORE, owner)
}

/** What `.flatmcp/.gitignore` holds: nothing there is to be committed (`git add -A` would stage the copied tokens). */
export const GITIGNORE = '# flatmcp install: these files hold copies of a config\'s secrets\n*\n'

/**
 * `contents` written over `file` (through a link, to its target) as a whole, with `mode`; with
 * `expected`, only where the file holds those bytes still, else `ChangedSinceRead` and nothing
 * written. The temporary file is new (never one someone put there) and removed on any failure.
 */
export function replaceFile(file: string, contents: string | Buffer, owner: Owner, expected?: Buffer): void {
  const target = targetOf(file)
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const fd = openSync(temporary, 'wx', 0o600)
    try {
      giveOwner(fd, owner)
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
