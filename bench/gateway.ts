// `npm run bench:gateway`: section 15 of `npm run bench` alone (many servers behind one --config,
// and one server's calls beside three that misbehave), for a change to the gateway.
import { printGateway, runGateway } from './gateway.bench'
import { table } from './measure'

const result = await runGateway(line => process.stderr.write(`· ${line}\n`))
printGateway(result, table, (what, met, figure) => console.log(`${met ? 'met' : 'missed'}  ${what}: ${figure}`))
