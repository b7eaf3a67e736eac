// `npm run bench:retrieval`: section 16 of `npm run bench` alone (find_tools beside BM25 on the
// public golden set, LiveMCPTool's tuning and held-out tasks, and the suite's npm servers merged).
import { table } from './measure'
import { printRetrieval, runRetrieval } from './retrieval.bench'

const result = await runRetrieval(line => process.stderr.write(`· ${line}\n`))
printRetrieval(result, table, (what, met, figure) => console.log(`${met ? 'met' : 'missed'}  ${what}: ${figure}`))
