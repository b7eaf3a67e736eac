// `npm run bench:retrieval`: section 16 of `npm run bench` alone (find_tools beside BM25 on the
// public golden set, LiveMCPTool's tuning and held-out tasks, and the suite's npm servers merged), then
// the benchmark at a large operator's scale (bench/scale.bench.ts; FLATMCP_HELD_OUT=1 scores its held-out half).
import { table } from './measure'
import { printRetrieval, runRetrieval } from './retrieval.bench'
import { printScale, runScale } from './scale.bench'

const log = (line: string): boolean => process.stderr.write(`· ${line}\n`)
const result = await runRetrieval(log)
printRetrieval(result, table, (what, met, figure) => console.log(`${met ? 'met' : 'missed'}  ${what}: ${figure}`))
printScale(await runScale(log), table)
