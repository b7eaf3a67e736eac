import type { McpTool } from '../src/artifact/format'
import { describe, expect, it } from 'vitest'
import { firstSentence } from '../src/search/disclosure'
import { askedWords } from '../src/search/query-words'
import { sameJobLines } from '../src/search/surface'
import { toolSearch } from '../src/search/tool-search'

const tool = (name: string, description: string, keys: string[] = []): McpTool => ({ name, description, inputSchema: { type: 'object', properties: Object.fromEntries(keys.map(key => [key, { type: 'string' }])) } as McpTool['inputSchema'] })

/** Tools of servers as a gateway serves them, `-` between server and name as an operator may set it, and their origin map. */
function served(servers: Record<string, McpTool[]>): { tools: McpTool[], originOf: (name: string) => { server: string, name: string } | undefined } {
  const origins = new Map<string, { server: string, name: string }>()
  const tools = Object.entries(servers).flatMap(([server, own]) => own.map((each) => {
    origins.set(`${server}-${each.name}`, { server, name: each.name })
    return { ...each, name: `${server}-${each.name}` }
  }))
  return { tools, originOf: name => origins.get(name) }
}

describe('a query\'s values are read out of its words', () => {
  const known = new Set(['s3', 'bucket', 'list'])
  const words = (query: string): Record<string, number> => Object.fromEntries(askedWords(query, word => known.has(word)).map(({ word, share }) => [word, share]))

  it('a domain, a path, a version, a quoted string, an id and a number say nothing of the tool; a file\'s extension does', () => {
    expect(Object.keys(words('check the DNS records of shop.example.com'))).toEqual(['check', 'dns', 'record'])
    expect(Object.keys(words('what changed in spec 3.2 and v1.4.0-rc.1'))).toEqual(['what', 'chang', 'spec'])
    expect(Object.keys(words('search for "merge conflict" in ~/projects/stripe-app/src'))).toEqual(['search'])
    expect(Object.keys(words('close #123 and ping @octocat about 1,000 rows'))).toEqual(['clos', 'ping', 'row'])
    expect(Object.keys(words('load budget.xlsx'))).toEqual(['load', 'xlsx'])
    expect(Object.keys(words('fetch https://status.example.org/feed and mail ops@example.com'))).toEqual(['fetch', 'url', 'mail', 'email'])
  })

  it('letters with digits are a word where the tools hold them, else a value; an identifier\'s words count less unless a tool is so named', () => {
    expect(words('list my s3 buckets in us-east-1')).toEqual({ list: 1, s3: 1, bucket: 1, us: 0.35, east: 0.35 })
    expect(words('turn off the merge-queue flag for user42')).toEqual({ turn: 1, off: 1, merg: 0.35, queu: 0.35, flag: 1 })
    expect(Object.fromEntries(askedWords('call get_weather', () => true, new Set(['get_weather'])).map(({ word, share }) => [word, share]))).toEqual({ call: 1, get: 1, weather: 1 })
  })

  it('a run of more than 128 characters without a space is one value, and a quote holds at most 256: no value pattern reads further from one place (4 KiB cost each pattern its square, up to 0.6 s)', () => {
    expect(words('aB'.repeat(2048))).toEqual({})
    expect(words(`list ${'x.'.repeat(2000)} buckets`)).toEqual({ list: 1, bucket: 1 })
    expect(words(`list ${'bucket_'.repeat(600)}x`)).toEqual({ list: 1 })
    expect(Object.keys(words(`fetch https://example.com/${'a'.repeat(200)} now`))).toEqual(['fetch', 'url', 'now'])
    // A quote left open, or longer than a quoted name, is words.
    expect(Object.keys(words(`${'“ '.repeat(1000)}list buckets`))).toEqual(['list', 'bucket'])
    expect(Object.keys(words(`list "${'bucket '.repeat(60)}"`))).toEqual(['list', 'bucket'])
    expect(Object.keys(words('list "bucket names" now'))).toEqual(['list', 'now'])
  })
})

describe('choosing the server, then the tool', () => {
  it('reads each tool\'s server from the origin map, not from its name: a server named in the task wins its tool', () => {
    const { tools, originOf } = served({
      billing: [tool('get_balance', 'Get the account balance.'), tool('list_invoices', 'List invoices.')],
      bank: [tool('get_balance', 'Get the balance of an account.'), tool('transfer', 'Move money between accounts.')],
    })
    const first = (query: string, options = { originOf }): string | undefined => toolSearch(tools, options).search(query, 5)[0]?.name
    expect(first('what is my bank balance')).toBe('bank-get_balance')
    expect(first('balance in billing')).toBe('billing-get_balance')
    // Without the origin map, no name is split: the server's word counts only as the name holds it.
    expect(toolSearch(tools).find('bank balance', 5).sameJob).toEqual([])
  })

  it('a prefix the operator set counts as the server\'s name: the served name a model reads is searched as it reads it, whatever the separator', () => {
    const origins = new Map<string, { server: string, name: string }>()
    const tools = [['srv-a1', 'jira', '__'], ['srv-b2', 'github', '.'], ['srv-c3', 'gitlab', '']].flatMap(([server, prefix, separator]) => ['create_issue', 'list_issues', ...Array.from({ length: 4 }, (_, i) => `other_${i}`)].map((name) => {
      origins.set(`${prefix}${separator}${name}`, { server: server!, name })
      return tool(`${prefix}${separator}${name}`, 'Works with issues.')
    }))
    const first = (query: string): string | undefined => toolSearch(tools, { originOf: name => origins.get(name) }).search(query, 5)[0]?.name
    expect(first('create a jira issue')).toBe('jira__create_issue')
    expect(first('github create issue')).toBe('github.create_issue')
    expect(first('create an issue in gitlab')).toBe('gitlabcreate_issue')
  })

  it('a server the task names by its name counts for its tools: "in memory, find what we know" is the memory server\'s search, not a file\'s information', () => {
    const { tools, originOf } = served({
      files: [
        tool('get_file_info', 'Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type.', ['path']),
        tool('search_files', 'Recursively search for files and directories matching a pattern.', ['path', 'pattern']),
        tool('read_text_file', 'Read the complete contents of a file as text.', ['path']),
      ],
      memory: [
        tool('search_nodes', 'Search for nodes in the knowledge graph based on a query.', ['query']),
        tool('read_graph', 'Read the entire knowledge graph.'),
        tool('open_nodes', 'Open specific nodes in the knowledge graph by their names.', ['names']),
      ],
    })
    expect(toolSearch(tools, { originOf }).search('in memory, find everything we know about "Acme Corp"', 5)[0]!.name).toMatch(/^memory-/)
  })

  it('a small server\'s exact tool is not buried by a large server\'s many near ones', () => {
    const large = Array.from({ length: 200 }, (_, i) => tool(`list_${i}_items`, `List items of kind ${i} in the project, with their alert rules and status.`))
    const { tools, originOf } = served({ platform: large, pager: [tool('list_alerts', 'List firing alerts.')] })
    expect(toolSearch(tools, { originOf }).search('list the firing alerts', 5).map(each => each.name)).toContain('pager-list_alerts')
  })

  it('one job on two servers is said, both named', () => {
    const { tools, originOf } = served({
      github: [tool('create_issue', 'Create an issue in a repository.', ['repo', 'title']), ...Array.from({ length: 9 }, (_, i) => tool(`other_${i}`, `Something else ${i}.`))],
      gitlab: [tool('create_issue', 'Create an issue in a project.', ['project', 'title'])],
    })
    const found = toolSearch(tools, { originOf }).find('open an issue', 8)
    expect(found.sameJob.map(group => group.map(each => each.name).sort())).toEqual([['github-create_issue', 'gitlab-create_issue']])
    // Two copies of one server's tools are one line, not one a tool.
    const copy = (name: string): McpTool => tool(name, 'x')
    expect(sameJobLines([[copy('files-read'), copy('archive-read')], [copy('files-list'), copy('archive-list')]])).toEqual(['The same job on 2 servers: files-read and archive-read; files-list and archive-list. Choose by the server the task means.'])
  })
})

describe('an absolute fit', () => {
  const tools = [
    tool('get_weather', 'Current weather and forecast for a city.', ['city']),
    tool('create_issue', 'Create an issue in a repository.', ['repo', 'title']),
    tool('list_files', 'List the files in a folder.', ['path']),
  ]
  it('a task whose words the tools hold fits; one about what no tool does is said not to fit, its closest named', () => {
    const search = toolSearch(tools)
    expect(search.find('weather forecast for Paris', 5)).toMatchObject({ fits: true, tools: [{ tool: { name: 'get_weather' } }] })
    // One word of many held, the rest no tool's: the closest tools are named, none said to fit.
    const none = search.find(`${Array.from({ length: 30 }, (_, i) => `zork${String.fromCharCode(97 + i % 26)}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ')} city`, 5)
    expect(none.fits).toBe(false)
    expect(none.tools.map(({ tool }) => tool.name)).toEqual(['get_weather'])
    expect(none.tools[0]!.fit).toBeLessThan(0.15)
    // Names no tool holds weigh little: a memory task about Alice at Acme still fits.
    const memory = toolSearch([tool('create_entities', 'Create entities in the knowledge graph, for what to remember.', ['entities']), tool('read_graph', 'Read the whole knowledge graph.')])
    expect(memory.find('remember that Alice works at Acme Corp as CTO', 5).fits).toBe(true)
    // Everyday words no tool holds weigh little: a task in many words still fits.
    expect(search.find('could you kindly list the files in that folder for me', 5).fits).toBe(true)
  })

  it('a fit does not depend on the other tools\' scores: the best is not 1 for a poor match', () => {
    const found = toolSearch(tools).find('list the unpaid invoices of last quarter in QuickBooks', 5)
    expect(found.tools[0]!.tool.name).toBe('list_files')
    expect(found.tools[0]!.fit).toBeLessThan(0.5)
  })
})

describe('a member\'s tool list costs the index a bounded share', () => {
  it('each field of a tool is read to its first 512 words: a word past them finds nothing, so a 100,000-word description costs no more than 512 words', () => {
    const filler = Array.from({ length: 600 }, (_, i) => `filler${i}x`).join(' ')
    const stuffed = { ...tool('stuffed', `Does one thing. ${filler} zebra`), title: `${filler} okapi`, _meta: { 'anthropic/searchHint': `${filler} quokka` } }
    const search = toolSearch([stuffed, tool('other', 'Does another thing.')])
    expect(search.search('zebra', 5)).toEqual([])
    expect(search.search('okapi', 5)).toEqual([])
    expect(search.search('quokka', 5)).toEqual([])
    expect(search.search('filler0x', 5).map(each => each.name)).toEqual(['stuffed'])
  })
})

describe('a tool\'s line in an answer', () => {
  it('is its description\'s first sentence, blank lines before it skipped (a server that starts its descriptions with a newline)', () => {
    expect(firstSentence({ name: 'scrape', description: '\nScrape content from a single URL. Returns markdown.', inputSchema: { type: 'object' } }, 200)).toBe('Scrape content from a single URL.')
    expect(firstSentence({ name: 'crawl', description: '\n\n  \n', title: 'Crawl a site', inputSchema: { type: 'object' } }, 200)).toBe('Crawl a site')
  })
})

describe('a catalogue past what a call\'s arguments hold', () => {
  it('ranks 200,000 tools (20 servers at the gateway\'s bound of 10,000 each) without running out of stack', () => {
    const tools = Array.from({ length: 200_000 }, (_, i) => ({ name: `t${i}`, description: i === 123_456 ? 'Purge the edge cache.' : '', inputSchema: { type: 'object' } }) as McpTool)
    const origins = new Map(tools.map((each, i) => [each.name, { server: `s${i % 20}`, name: each.name }]))
    expect(toolSearch(tools, { originOf: name => origins.get(name) }).search('purge the cache', 5).map(each => each.name)).toEqual(['t123456'])
  })
})
