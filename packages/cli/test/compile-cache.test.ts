// The command's compile cache (issue 70): kept in the user's own cache folder, never in one another
// user could write to, and nothing at all where the running Node lacks the cache (Node 20.19).
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compileCacheFolder, isPrivateFolder, privateFolder, startCompileCache } from '../src/compile-cache'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-compile-cache-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const posix = process.platform !== 'win32'

describe('the compile cache', () => {
  it('lives in the user\'s cache folder: XDG_CACHE_HOME when absolute, else ~/.cache; LOCALAPPDATA on Windows', () => {
    expect(compileCacheFolder({}, 'linux', '/home/ann')).toBe(path.join('/home/ann', '.cache', 'flatmcp', 'compile-cache'))
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/var/cache/ann' }, 'linux', '/home/ann')).toBe(path.join('/var/cache/ann', 'flatmcp', 'compile-cache'))
    // A relative XDG_CACHE_HOME is ignored, as the XDG specification says.
    expect(compileCacheFolder({ XDG_CACHE_HOME: 'cache' }, 'darwin', '/Users/ann')).toBe(path.join('/Users/ann', '.cache', 'flatmcp', 'compile-cache'))
    expect(compileCacheFolder({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', 'C:\\Users\\ann')).toBe(path.join('C:\\Users\\ann\\AppData\\Local', 'flatmcp', 'compile-cache'))
  })

  it.runIf(posix)('is used only in a folder this user owns that no one else can write to', () => {
    const own = path.join(scratch, 'own')
    mkdirSync(own, { mode: 0o700 })
    expect(isPrivateFolder(own, process.getuid!())).toBe(true)
    chmodSync(own, 0o777)
    expect(isPrivateFolder(own, process.getuid!())).toBe(false)
    chmodSync(own, 0o770)
    expect(isPrivateFolder(own, process.getuid!())).toBe(false)
    chmodSync(own, 0o755)
    expect(isPrivateFolder(own, process.getuid!() + 1)).toBe(false)
    const file = path.join(scratch, 'file')
    writeFileSync(file, '')
    expect(isPrivateFolder(file, process.getuid!())).toBe(false)
  })

  it.runIf(posix)('is used by its real path: a link on the way (another user\'s, say) is not followed again after the check', () => {
    const real = path.join(scratch, 'real-home')
    mkdirSync(real, { mode: 0o700 })
    chmodSync(real, 0o700)
    const link = path.join(scratch, 'linked-home')
    symlinkSync(real, link)
    const folder = privateFolder(path.join(link, 'flatmcp', 'answers'))
    expect(folder).toBe(path.join(realpathSync(real), 'flatmcp', 'answers'))
    // Pointed elsewhere after the check: what was checked is still what is used.
    rmSync(link)
    symlinkSync(scratch, link)
    expect(folder).not.toContain('linked-home')
  })

  it.runIf(posix)('is refused when a folder above it another user could swap: each parent is this user\'s or root\'s, and writable by others only when sticky', () => {
    const parent = path.join(scratch, 'parent')
    const own = path.join(parent, 'flatmcp', 'compile-cache')
    mkdirSync(own, { recursive: true, mode: 0o700 })
    chmodSync(path.join(parent, 'flatmcp'), 0o700)
    chmodSync(parent, 0o700)
    expect(isPrivateFolder(own, process.getuid!())).toBe(true)
    // Another user who can write to a folder above may rename the checked folder away and put theirs there.
    chmodSync(path.join(parent, 'flatmcp'), 0o777)
    expect(isPrivateFolder(own, process.getuid!())).toBe(false)
    chmodSync(path.join(parent, 'flatmcp'), 0o700)
    chmodSync(parent, 0o777)
    expect(isPrivateFolder(own, process.getuid!())).toBe(false)
    // Sticky, as /tmp is: others may add names there but not move this user's.
    chmodSync(parent, 0o1777)
    expect(isPrivateFolder(own, process.getuid!())).toBe(true)
    chmodSync(parent, 0o700)
  })

  it('does nothing where Node lacks it or is told not to, and refuses a folder others can write to', () => {
    const available = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
    expect(startCompileCache({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(available ? 'off' : 'unavailable')
    if (!available) {
      expect(startCompileCache({ XDG_CACHE_HOME: scratch })).toBe('unavailable')
      return
    }
    if (posix) {
      const shared = path.join(scratch, 'shared', 'flatmcp', 'compile-cache')
      mkdirSync(shared, { recursive: true })
      chmodSync(shared, 0o777)
      expect(startCompileCache({ XDG_CACHE_HOME: path.join(scratch, 'shared') })).toBe('unsafe folder')
    }
  })
})
