// The unit lane's setup (vitest.config.ts): a test there starts no child process and listens on no
// port, so the lane stays fast. Starting one throws, naming the test, rather than slowing the lane;
// such a test belongs in the e2e lane (a file named *.e2e.test.ts, or one under test/).
import childProcess from 'node:child_process'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { expect } from 'vitest'

const STARTERS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const

const refuse = (what: string) => (): never => {
  const { currentTestName, testPath } = expect.getState()
  throw new Error(`${what} in the unit lane (${testPath ?? 'a setup'}: ${currentTestName ?? 'outside a test'}): `
    + 'a test that starts a process or listens on a port belongs in the e2e lane, named *.e2e.test.ts')
}

for (const name of STARTERS) Object.assign(childProcess, { [name]: refuse(`child_process.${name}`) })
net.Server.prototype.listen = refuse('listening on a port') as typeof net.Server.prototype.listen
// Named imports of a built-in read its exports as they were when first loaded; this updates them.
syncBuiltinESMExports()
