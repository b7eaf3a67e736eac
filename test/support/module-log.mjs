// Preloaded with `node --import`: writes every module specifier resolved that names OpenTelemetry to
// the file MODULE_LOG names, so a test can say whether a process loaded any.
import { register } from 'node:module'

register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.MODULE_LOG } })
