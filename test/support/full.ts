// The scale runs: `npm run test:full` sets FLATMCP_FULL=1. The default suite runs each check once at
// a size that fits a 2-core machine in about ten minutes; the full one repeats and widens them.
export const FULL = process.env.FLATMCP_FULL === '1'

/** `full` under `npm run test:full`, else `quick`. */
export const atScale = <T>(quick: T, full: T): T => FULL ? full : quick
