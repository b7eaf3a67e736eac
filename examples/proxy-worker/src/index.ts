// src/index.ts: the Worker's entry. `npm run snapshot` writes upstream.mcp.json from the live upstream
// (UPSTREAM=https://… in the environment); `npm run build` bundles it in.
import snapshot from '../upstream.mcp.json'
import { createWorker } from './worker'

export default createWorker(snapshot)
