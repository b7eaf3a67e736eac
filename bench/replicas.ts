// `npm run bench:replicas`: section 17 of `npm run bench` alone (replicas behind HAProxy), for a
// change to serving over HTTP.
import { table } from './measure'
import { printReplicas, runReplicas } from './replicas.bench'

const result = await runReplicas(line => process.stderr.write(`· ${line}\n`))
printReplicas(result, table, (what, met, figure) => console.log(`${met ? 'met' : 'missed'}  ${what}: ${figure}`))
