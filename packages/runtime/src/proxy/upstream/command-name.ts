// What an operator calls the server a command starts: the package a runner fetches (`npx -y
// @sentry/mcp-server@latest` is `@sentry/mcp-server@latest`, not `npx`), the script an interpreter
// runs (`node dist/server.js` is `dist/server.js`), else the command's own name.

/** Commands that fetch and run a package: the package is their first argument that is no flag. */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx'])
/** Commands that run a script: the script is their first argument that is no flag. */
const INTERPRETERS = new Set(['node', 'bun', 'deno', 'tsx', 'ts-node', 'python', 'python3', 'uv', 'pnpm', 'yarn', 'npm'])
/** Flags whose value is the next word (`node --import tsx server.ts`, `node -e code`): neither is the script. */
const VALUE_FLAGS = new Set(['-e', '--eval', '-c', '--import', '-r', '--require', '--loader', '--experimental-loader', '--env-file', '--with', '--from', '--cwd', '--dir', '--filter', '-C'])
/** Words a runner takes before the package (`pnpm dlx`, `uv run`, `npm exec`, `deno run`). */
const SUBCOMMANDS = new Set(['dlx', 'exec', 'run', 'x', 'tool'])

function baseName(path: string): string {
  return path.replace(/\\/g, '/').split('/').pop() || path
}

/** The package or script a command runs, or its first word's name. */
export function commandName(command: readonly string[]): string {
  const [first = '', ...rest] = command
  const own = baseName(first).replace(/\.(?:cmd|exe)$/i, '')
  if (!RUNNERS.has(own) && !INTERPRETERS.has(own))
    return own
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!
    // `npx -p @scope/pkg bin`, `--package=@scope/pkg`: the package named.
    if (RUNNERS.has(own) && (word === '-p' || word === '--package') && rest[i + 1] !== undefined)
      return rest[i + 1]!
    if (RUNNERS.has(own) && word.startsWith('--package='))
      return word.slice('--package='.length)
    if (VALUE_FLAGS.has(word)) {
      i++
      continue
    }
    if (word.startsWith('-') || SUBCOMMANDS.has(word))
      continue
    // A package by its name; a script by its path from the working folder, or its name where the path is absolute.
    return RUNNERS.has(own) ? word : /^(?:[a-z]:)?[\\/]/i.test(word) ? baseName(word) : word.replace(/^\.\//, '')
  }
  return own
}
