// The snapshot is written before a build (npm run snapshot), not kept in the repository.
declare module '*.mcp.json' {
  const snapshot: unknown
  export default snapshot
}
