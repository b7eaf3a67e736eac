// What a stdio upstream starts with: the proxy's environment, less what only ran the proxy. `npx
// --package <flatmcp> flatmcp proxy …` (as docs/proxy.md gives it) exports npm_config_package, and
// a server started with `npx -y <its package>` then looked for its command in flatmcp's package.
import { describe, expect, it } from 'vitest'
import { upstreamEnvironment } from '../src/proxy/upstream/environment'

describe('the environment a stdio upstream starts with', () => {
  it('leaves out the package npx ran the proxy from, and keeps one the operator gives the server', () => {
    const env = { PATH: '/usr/bin', npm_config_package: '/tmp/flatmcp-0.1.0.tgz', npm_config_yes: 'true', FLATMCP_PROXY_TOKEN: 'callers-token' }
    expect(upstreamEnvironment({}, env)).toEqual({ PATH: '/usr/bin', npm_config_yes: 'true' })
    expect(upstreamEnvironment({ npm_config_package: 'its-own' }, env)).toEqual({ PATH: '/usr/bin', npm_config_yes: 'true', npm_config_package: 'its-own' })
  })
})
