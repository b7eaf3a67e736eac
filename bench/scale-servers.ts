// Vendors' MCP servers published on npm, in the fields a large operator runs, for the benchmark at
// scale: pinned in bench/servers/package.json (with its lockfile), installed like the suite's
// (installNpmServers), started the way their READMEs' client configs say, with dummy credentials.
// Each is run as `node <its package's bin file>`: several packages name their binary alike (`mcp`).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const SCALE_MANIFEST = new URL('./servers', import.meta.url).pathname

export interface ScaleNpmServer {
  /** Its id in the catalogue: unique, and distinct from a LiveMCPTool server of the same product. */
  id: string
  package: string
  /** What an operator runs it for. */
  field: 'cloud' | 'devops' | 'productivity' | 'observability' | 'database' | 'crm' | 'payments' | 'browser' | 'design' | 'api-platform' | 'local' | 'maps' | 'messaging'
  /** Its command, from the folder of installed binaries and a scratch folder of its own. */
  command: (bin: string, scratch: string) => string[]
  /** The environment its README's client config gives it (dummy credentials). */
  env: (scratch: string) => Record<string, string>
}

/** `node` on a file of an installed package, with arguments. */
const js = (pkg: string, file: string, ...args: string[]) => (bin: string): string[] => [process.execPath, join(bin, '..', pkg, file), ...args]
const none = (): Record<string, string> => ({})

export const SCALE_SERVERS: ScaleNpmServer[] = [
  { id: 'azure', package: '@azure/mcp', field: 'cloud', command: js('@azure/mcp', 'index.js', 'server', 'start', '--mode', 'all'), env: () => ({ AZURE_MCP_COLLECT_TELEMETRY: 'false' }) },
  { id: 'azure-devops', package: '@azure-devops/mcp', field: 'devops', command: js('@azure-devops/mcp', 'dist/index.js', 'contoso', '--authentication', 'envvar'), env: () => ({ ADO_MCP_AUTH_TOKEN: 'offline' }) },
  { id: 'microsoft-365', package: '@softeria/ms-365-mcp-server', field: 'productivity', command: js('@softeria/ms-365-mcp-server', 'dist/index.js', '--org-mode'), env: none },
  { id: 'heroku', package: '@heroku/mcp-server', field: 'cloud', command: js('@heroku/mcp-server', 'bin/heroku-mcp-server.mjs'), env: () => ({ HEROKU_API_KEY: 'offline' }) },
  { id: 'supabase', package: '@supabase/mcp-server-supabase', field: 'database', command: js('@supabase/mcp-server-supabase', 'dist/cli.js', '--access-token', 'sbp_offline'), env: none },
  { id: 'stripe', package: '@stripe/mcp', field: 'payments', command: js('@stripe/mcp', 'dist/index.js', '--tools=all', '--api-key=sk_test_offline'), env: none },
  { id: 'mongodb', package: 'mongodb-mcp-server', field: 'database', command: js('mongodb-mcp-server', 'dist/esm/index.js'), env: () => ({ MDB_MCP_API_CLIENT_ID: 'offline', MDB_MCP_API_CLIENT_SECRET: 'offline', MDB_MCP_TELEMETRY: 'disabled' }) },
  { id: 'neon', package: '@neondatabase/mcp-server-neon', field: 'database', command: js('@neondatabase/mcp-server-neon', 'dist/index.js', 'start', 'napi_offline'), env: none },
  { id: 'sentry', package: '@sentry/mcp-server', field: 'observability', command: js('@sentry/mcp-server', 'dist/index.js', '--access-token=sntrys_offline'), env: none },
  { id: 'digitalocean', package: '@digitalocean/mcp', field: 'cloud', command: js('@digitalocean/mcp', 'index.js'), env: () => ({ DIGITALOCEAN_API_TOKEN: 'dop_v1_offline' }) },
  { id: 'netlify', package: '@netlify/mcp', field: 'cloud', command: js('@netlify/mcp', 'dist/netlify-mcp.js'), env: () => ({ NETLIFY_PERSONAL_ACCESS_TOKEN: 'nfp_offline' }) },
  { id: 'chrome-devtools', package: 'chrome-devtools-mcp', field: 'browser', command: js('chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js', '--headless', '--isolated'), env: () => ({ CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' }) },
  { id: 'desktop-commander-npm', package: '@wonderwhy-er/desktop-commander', field: 'local', command: js('@wonderwhy-er/desktop-commander', 'dist/index.js'), env: scratch => ({ HOME: scratch }) },
  { id: 'dynatrace', package: '@dynatrace-oss/dynatrace-mcp-server', field: 'observability', command: js('@dynatrace-oss/dynatrace-mcp-server', 'index.js'), env: () => ({ DT_ENVIRONMENT: 'https://offline.apps.dynatrace.com', DT_PLATFORM_TOKEN: 'dt0s16.offline', DT_MCP_DISABLE_TELEMETRY: 'true' }) },
  { id: 'elasticsearch', package: '@elastic/mcp-server-elasticsearch', field: 'database', command: js('@elastic/mcp-server-elasticsearch', 'dist/index.js'), env: () => ({ ES_URL: 'http://127.0.0.1:9', ES_API_KEY: 'offline' }) },
  { id: 'circleci', package: '@circleci/mcp-server-circleci', field: 'devops', command: js('@circleci/mcp-server-circleci', 'dist/index.js'), env: () => ({ CIRCLECI_TOKEN: 'offline' }) },
  { id: 'launchdarkly', package: '@launchdarkly/mcp-server', field: 'devops', command: js('@launchdarkly/mcp-server', 'bin/mcp-server.js', 'start', '--api-key', 'api-offline'), env: none },
  { id: 'hubspot', package: '@hubspot/mcp-server', field: 'crm', command: js('@hubspot/mcp-server', 'dist/index.js'), env: () => ({ PRIVATE_APP_ACCESS_TOKEN: 'pat-offline' }) },
  { id: 'postman', package: '@postman/postman-mcp-server', field: 'api-platform', command: js('@postman/postman-mcp-server', 'dist/src/index.js', '--full'), env: () => ({ POSTMAN_API_KEY: 'PMAK-offline' }) },
  { id: 'monday', package: '@mondaydotcomorg/monday-api-mcp', field: 'productivity', command: js('@mondaydotcomorg/monday-api-mcp', 'dist/index.js', '-t', 'offline'), env: none },
  { id: 'asana', package: '@roychri/mcp-server-asana', field: 'productivity', command: js('@roychri/mcp-server-asana', 'dist/index.js'), env: () => ({ ASANA_ACCESS_TOKEN: 'offline' }) },
  { id: 'datadog', package: '@winor30/mcp-server-datadog', field: 'observability', command: js('@winor30/mcp-server-datadog', 'build/index.js'), env: () => ({ DATADOG_API_KEY: 'offline', DATADOG_APP_KEY: 'offline' }) },
  { id: 'railway', package: '@railway/mcp-server', field: 'cloud', command: js('@railway/mcp-server', 'index.js'), env: none },
  { id: 'cloud-run', package: '@google-cloud/cloud-run-mcp', field: 'cloud', command: js('@google-cloud/cloud-run-mcp', 'mcp-server.js'), env: () => ({ GOOGLE_CLOUD_PROJECT: 'offline', GOOGLE_CLOUD_REGION: 'europe-west1' }) },
  { id: 'cloudflare', package: '@cloudflare/mcp-server-cloudflare', field: 'cloud', command: js('@cloudflare/mcp-server-cloudflare', 'dist/index.js', 'run', 'offline'), env: () => ({ CLOUDFLARE_API_TOKEN: 'offline', CLOUDFLARE_ACCOUNT_ID: 'offline' }) },
  { id: 'twilio', package: '@twilio-alpha/mcp', field: 'messaging', command: js('@twilio-alpha/mcp', 'build/index.js', 'ACoffline/SKoffline:offline', '--services', 'twilio_api_v2010'), env: none },
  { id: 'salesforce', package: '@salesforce/mcp', field: 'crm', command: js('@salesforce/mcp', 'bin/run.js', '--orgs', 'DEFAULT_TARGET_ORG', '--toolsets', 'all', '--no-telemetry'), env: scratch => ({ HOME: scratch }) },
  { id: 'browserbase', package: '@browserbasehq/mcp-server-browserbase', field: 'browser', command: js('@browserbasehq/mcp-server-browserbase', 'cli.js'), env: () => ({ BROWSERBASE_API_KEY: 'bb_offline', BROWSERBASE_PROJECT_ID: 'offline', GEMINI_API_KEY: 'offline' }) },
  { id: 'pinecone', package: '@pinecone-database/mcp', field: 'database', command: js('@pinecone-database/mcp', 'dist/index.js'), env: () => ({ PINECONE_API_KEY: 'pcsk_offline' }) },
  { id: 'mapbox', package: '@mapbox/mcp-server', field: 'maps', command: js('@mapbox/mcp-server', 'dist/esm/index.js'), env: () => ({ MAPBOX_ACCESS_TOKEN: 'pk.eyJ1Ijoib2ZmbGluZSJ9.offline' }) },
  { id: 'figma', package: 'figma-developer-mcp', field: 'design', command: js('figma-developer-mcp', 'dist/bin.js', '--stdio'), env: () => ({ FIGMA_API_KEY: 'figd_offline' }) },
  { id: 'airtable', package: 'airtable-mcp-server', field: 'database', command: js('airtable-mcp-server', 'dist/main.js'), env: () => ({ AIRTABLE_API_KEY: 'pat.offline' }) },
  { id: 'google-calendar', package: '@cocal/google-calendar-mcp', field: 'productivity', command: js('@cocal/google-calendar-mcp', 'build/index.js'), env: scratch => ({ GOOGLE_OAUTH_CREDENTIALS: oauthFile(scratch) }) },
  { id: 'jira', package: '@aashari/mcp-server-atlassian-jira', field: 'productivity', command: js('@aashari/mcp-server-atlassian-jira', 'dist/index.js'), env: () => ({ ATLASSIAN_SITE_NAME: 'offline', ATLASSIAN_USER_EMAIL: 'offline@example.invalid', ATLASSIAN_API_TOKEN: 'offline' }) },
  { id: 'postgres', package: '@modelcontextprotocol/server-postgres', field: 'database', command: js('@modelcontextprotocol/server-postgres', 'dist/index.js', 'postgresql://127.0.0.1:9/offline'), env: none },
  { id: 'puppeteer-npm', package: '@modelcontextprotocol/server-puppeteer', field: 'browser', command: js('@modelcontextprotocol/server-puppeteer', 'dist/index.js'), env: none },
  { id: 'redis', package: '@modelcontextprotocol/server-redis', field: 'database', command: js('@modelcontextprotocol/server-redis', 'dist/index.js', 'redis://127.0.0.1:9'), env: none },
  { id: 'dbhub', package: '@bytebase/dbhub', field: 'database', command: js('@bytebase/dbhub', 'dist/index.js', '--transport', 'stdio', '--demo'), env: none },
  { id: 'kubernetes-flux159', package: 'mcp-server-kubernetes', field: 'cloud', command: js('mcp-server-kubernetes', 'dist/index.js'), env: scratch => ({ KUBECONFIG: join(scratch, 'absent-kubeconfig') }) },
  { id: 'upstash', package: '@upstash/mcp-server', field: 'database', command: js('@upstash/mcp-server', 'dist/index.js', 'run', 'offline@example.invalid', 'offline'), env: none },
]

/** A Google OAuth client file of dummy values: the calendar server reads one at start, not the network. */
function oauthFile(scratch: string): string {
  const file = join(scratch, 'gcp-oauth.keys.json')
  mkdirSync(scratch, { recursive: true })
  writeFileSync(file, JSON.stringify({ installed: { client_id: 'offline.apps.googleusercontent.com', client_secret: 'offline', redirect_uris: ['http://localhost'] } }))
  return file
}
