// The one table of what flatmcp never shows of a config: every credential-like key part, in any
// case and inside a longer name, redacts its value; every value under env or headers is redacted
// whatever its name; a value made only of variable references stays readable; nothing else changes.
import { describe, expect, it } from 'vitest'
import { CREDENTIAL_KEY_PARTS, INLINE_CREDENTIALS, inlineRedacted, isCredentialKey, REDACTED, redacted, redactedArgs, SECRET_HOLDERS } from '../src/util/redact'

describe('redaction', () => {
  it.each(CREDENTIAL_KEY_PARTS)('a key naming a credential (%s), in any case and inside a longer name, has its value redacted', (part) => {
    const names = [part, part.toUpperCase(), `x_${part}_id`, `my${part[0]!.toUpperCase()}${part.slice(1)}`]
    for (const name of names) {
      expect(isCredentialKey(name)).toBe(true)
      expect(redacted({ [name]: 'v4lue', nested: { [name]: 42 }, list: [{ [name]: 'v' }] })).toEqual({ [name]: REDACTED, nested: { [name]: REDACTED }, list: [{ [name]: REDACTED }] })
    }
  })

  it.each(SECRET_HOLDERS)('every value under %s is redacted, whatever it is named; a value of variable references alone stays', (holder) => {
    expect(redacted({ servers: { a: { [holder]: { LEVEL: 'debug', PORT: 8080, REF: '${DEBUG_LEVEL}', TWO: '${A}${B}', MIXED: 'Bearer ${T}' } } } })).toEqual({ servers: { a: { [holder]: { LEVEL: REDACTED, PORT: REDACTED, REF: '${DEBUG_LEVEL}', TWO: '${A}${B}', MIXED: REDACTED } } } })
  })

  it('leaves everything else as it was, and the value given unchanged', () => {
    const config = { mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs', '/srv'], url: 'https://x.example/mcp', timeout: 30, enabled: true, nothing: null } } }
    const copy = structuredClone(config)
    expect(redacted(config)).toEqual(copy)
    const withSecret = { apiToken: 'secret' }
    redacted(withSecret)
    expect(withSecret).toEqual({ apiToken: 'secret' })
  })

  it('a command line: a credential flag\'s value (either form) and a credential header\'s value', () => {
    expect(redactedArgs(['proxy', '--auth-token', 'abc', '--api-key=xyz', '--header', 'Authorization: Bearer abc', '--header', 'X-Team: core', '--surface', 'full', '--token', '${T}'])).toEqual(['proxy', '--auth-token', REDACTED, `--api-key=${REDACTED}`, '--header', `Authorization: ${REDACTED}`, '--header', 'X-Team: core', '--surface', 'full', '--token', '${T}'])
  })
})

describe('redaction of a config\'s command lines', () => {
  it('an entry\'s args have a credential flag\'s value redacted, other lists and words kept', () => {
    expect(redacted({ s: { args: ['-y', 'server', '--api-key', 'sk-1', '--token=${T}', '--port', '80'], tags: ['--api-key', 'kept'] } })).toEqual({ s: { args: ['-y', 'server', '--api-key', REDACTED, '--token=${T}', '--port', '80'], tags: ['--api-key', 'kept'] } })
  })
})

describe('redaction of a credential inside a string, by its shape', () => {
  it.each(INLINE_CREDENTIALS)('$what: shown as $shown, in a config\'s string, a command line\'s word and a flag\'s value', ({ example, shown }) => {
    expect(inlineRedacted(example)).toBe(shown)
    expect(redacted({ s: { url: example, args: ['-e', example], cwd: example } })).toEqual({ s: { url: shown, args: ['-e', shown], cwd: shown } })
    expect(redactedArgs(['run', example, `--target=${example}`, '--target', example])).toEqual(['run', shown, `--target=${shown}`, '--target', shown])
  })

  it('leaves what only looks like one: a query or an assignment whose name is no credential\'s, a URL without a password, a variable without a default', () => {
    const kept = ['https://x.example/mcp?team=core&limit=5', 'LOG_LEVEL=debug', 'https://user@x.example/', 'postgresql://db/prod', '${API_TOKEN}', '${env:HOME}', '-p', '8080:80']
    expect(kept.map(inlineRedacted)).toEqual(kept)
    expect(redactedArgs(['docker', 'run', '-e', 'LOG_LEVEL=debug', '-e', 'GH_TOKEN=ghp_1', '--env=DB_PASSWORD=pw', '-p', '8080:80'])).toEqual(['docker', 'run', '-e', 'LOG_LEVEL=debug', '-e', `GH_TOKEN=${REDACTED}`, `--env=DB_PASSWORD=${REDACTED}`, '-p', '8080:80'])
  })

  it('a secret path\'s value of variables alone shows them, their defaults redacted', () => {
    expect(redacted({ env: { A: '${A:-sk-1}', B: '${B}', C: '${C:-}' } })).toEqual({ env: { A: `\${A:-${REDACTED}}`, B: '${B}', C: '${C:-}' } })
  })
})
