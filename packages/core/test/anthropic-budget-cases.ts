// The lists the field threads report Anthropic refusing as "The compiled grammar is too large", each
// written here in anthropic-strict form from what its thread says of its tools (their own schemas are
// not all shown), and Anthropic's own small examples that work.
import type { BudgetedTool } from '@flatmcp/core'

type Props = Record<string, object>
const str = { type: 'string' }
const int = { type: 'integer' }
const bool = { type: 'boolean' }
const tool = (name: string, properties: Props, required: string[] = Object.keys(properties)): BudgetedTool => ({
  name,
  schema: { type: 'object', properties, required, additionalProperties: false },
})
const object = (properties: Props, required: string[] = Object.keys(properties)): object => ({ type: 'object', properties, required, additionalProperties: false })

/** Anthropic's documented example: a weather tool, one required key and an optional unit. */
export const weather = tool('get_weather', { location: str, unit: { enum: ['celsius', 'fahrenheit'] } }, ['location'])
/** Beside it in the same docs: a time tool of one key. */
export const time = tool('get_time', { timezone: str })

/** anthropic-sdk-typescript #885: seven simple strict tools fail where six pass (a lookup, a list, an update…). */
export const sevenSimple: BudgetedTool[] = ['get_contact', 'list_deals', 'get_deal', 'update_deal', 'create_note', 'list_tasks', 'create_task'].map(name =>
  tool(name, { id: str, fields: { type: 'array', items: str }, verbose: bool }, ['id']))

/** Cherry Studio PR #18179: a knowledge base turns on four strict tools, two of them multi-mode, and every message fails. */
export const knowledgeBase: BudgetedTool[] = [
  tool('kb_list', { baseId: str, groupId: str }, []),
  tool('kb_search', { query: str, baseIds: { type: 'array', items: str }, limit: int }, ['query']),
  tool('kb_read', { conceptId: str, offset: int, limit: int }, ['conceptId']),
  tool('kb_manage', { action: { enum: ['create_group', 'move', 'rename', 'delete', 'add_note', 'add_url'] }, baseId: str, conceptId: str, targetGroupId: str, name: str, content: str }, ['action', 'baseId']),
]

/** alphaXiv PR #49: a 13-tool research assistant with enums, date formats and their patterns; refused on one model, taken by the next. */
export const researchAssistant: BudgetedTool[] = [
  tool('search_papers', { query: str, from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' }, sort: { enum: ['relevance', 'date', 'citations'] }, limit: int }, ['query']),
  tool('get_paper', { paperId: { type: 'string', pattern: '^\\d{4}\\.\\d{4,5}(v\\d+)?$' } }),
  tool('get_author', { authorId: str }),
  tool('search_authors', { name: str, limit: int }, ['name']),
  tool('get_citations', { paperId: str, direction: { enum: ['citing', 'cited'] }, limit: int }, ['paperId']),
  tool('get_similar', { paperId: str, limit: int }, ['paperId']),
  tool('list_topics', { parent: str }, []),
  tool('get_topic', { topicId: str }),
  tool('trending', { window: { enum: ['day', 'week', 'month'] }, topic: str }, []),
  tool('get_section', { paperId: str, section: str }),
  tool('ask_paper', { paperId: str, question: str }),
  tool('get_researcher_link', { name: str, affiliation: str }, ['name']),
  tool('published_between', { from: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, to: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } }),
]

/** pome-sh PR #527: one structured output (a GitHub twin's seed, 7 KB) of nested arrays of objects with optional keys. */
const user = object({ login: str, name: str, email: { type: 'string', format: 'email' } }, ['login'])
export const seedState: BudgetedTool = tool('seed_state', {
  users: { type: 'array', items: user },
  repositories: {
    type: 'array',
    items: object({
      name: str,
      owner: str,
      private: bool,
      description: { anyOf: [str, { type: 'null' }] },
      issues: { type: 'array', items: object({ number: int, title: str, body: str, state: { enum: ['open', 'closed'] }, labels: { type: 'array', items: str }, assignees: { type: 'array', items: str } }, ['number', 'title']) },
      pulls: { type: 'array', items: object({ number: int, title: str, head: str, base: str, merged: bool, draft: bool }, ['number', 'title', 'head', 'base']) },
    }, ['name', 'owner']),
  },
})

/** The failing lists, by thread. */
export const FAILING: Record<string, BudgetedTool[]> = {
  'anthropic-sdk-typescript #885 (7 simple tools)': sevenSimple,
  'Cherry Studio PR #18179 (4 knowledge-base tools)': knowledgeBase,
  'alphaXiv PR #49 (13 tools)': researchAssistant,
  'pome-sh PR #527 (one structured output)': [seedState],
}
