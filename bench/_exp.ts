import { goldenSet, liveMcpTool, findTools, scored, npmServersMerged } from './retrieval.bench'
const show = process.argv.includes('--misses')
const cats = [goldenSet()!, liveMcpTool(false)!]
if (process.argv.includes('--npm')) cats.push((await npmServersMerged(() => {})).catalogues[0]!)
for (const cat of cats) {
  const rank = findTools(cat.tools)
  const s = scored(cat.queries, rank)
  console.log(cat.name.padEnd(50), [s.recall[1], s.recall[3], s.recall[5]].map(x => x.toFixed(3)).join(' / '), s.mrr.toFixed(3))
  if (show) for (const q of cat.queries) {
    const top = rank(q.query, 5)
    if (!top.some(n => q.relevant.has(n))) console.log('  MISS', q.query, '| want', [...q.relevant.keys()].slice(0,3).join(','), '| got', top.slice(0,3).join(','))
  }
}
