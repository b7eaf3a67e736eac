// scratch: tuning rows only
import { bm25, findTools, goldenSet, liveMcpTool, npmServersMerged, scored } from './retrieval.bench'
const npm = await npmServersMerged(() => {})
const cats = [goldenSet()!, liveMcpTool(false)!, npm.catalogues[0]!]
for (const c of cats) {
  const f = scored(c.queries, findTools(c.tools, c.origins))
  const b = scored(c.queries, bm25(c.tools))
  console.log(c.name.padEnd(60), `find ${f.recall[1].toFixed(2)} ${f.recall[5].toFixed(2)} ${f.mrr.toFixed(2)}`, `bm25 ${b.recall[1].toFixed(2)} ${b.recall[5].toFixed(2)}`)
}
