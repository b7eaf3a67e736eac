// Tool inputs modelled on public MCP servers' tools (GitHub, filesystem, Airtable, Slack, Notion,
// Linear), written in zod the way their authors write them: unions, records, intersections, long
// descriptions. Shapes follow the public tool lists; wording is this project's own.
import { defineTool } from '@flatmcp/runtime'
import { z } from 'zod'

const ok = (): string => 'ok'

const issueWrite = defineTool({
  name: 'issue_write',
  description: 'Create a new issue in a repository, or update an existing one.',
  input: z.discriminatedUnion('method', [
    z.object({
      method: z.literal('create').describe('Create an issue'),
      owner: z.string().describe('Repository owner (user or organization)'),
      repo: z.string().describe('Repository name'),
      title: z.string().describe('Issue title'),
      body: z.string().optional().describe('Issue body, in Markdown'),
      assignees: z.array(z.string()).optional().describe('Logins to assign'),
      labels: z.array(z.string()).optional().describe('Labels to apply'),
      milestone: z.number().int().optional().describe('Milestone number'),
      type: z.string().optional().describe('Issue type, where the organization defines types'),
    }),
    z.object({
      method: z.literal('update').describe('Update an issue'),
      owner: z.string().describe('Repository owner (user or organization)'),
      repo: z.string().describe('Repository name'),
      issue_number: z.number().int().describe('The issue to update'),
      title: z.string().optional().describe('New title'),
      body: z.string().optional().describe('New body, in Markdown'),
      state: z.enum(['open', 'closed']).optional().describe('New state'),
      state_reason: z.enum(['completed', 'not_planned', 'duplicate']).optional().describe('Why it was closed'),
      duplicate_of: z.number().int().optional().describe('The issue this one duplicates, with state_reason "duplicate"'),
      type: z.string().nullable().optional().describe('Issue type; null removes it'),
    }),
  ]),
  handler: ok,
})

const searchCode = defineTool({
  name: 'search_code',
  description: 'Search code across repositories with GitHub code search syntax.',
  input: z.object({
    query: z.string().describe('Search query, e.g. "content:Skill language:Java org:github"'),
    sort: z.enum(['indexed']).optional().describe('Sort field'),
    order: z.enum(['asc', 'desc']).optional().describe('Sort order'),
    perPage: z.number().int().min(1).max(100).optional().describe('Results per page (1-100)'),
    page: z.number().int().min(1).optional().describe('Page number'),
  }),
  handler: ok,
})

const editFile = defineTool({
  name: 'edit_file',
  description: 'Make line-based edits to a text file. Each edit replaces an exact text sequence with new content. Returns a git-style diff of the changes.',
  input: z.object({
    path: z.string(),
    edits: z.array(z.object({
      oldText: z.string().describe('Text to search for, matched exactly'),
      newText: z.string().describe('Text to replace it with'),
    })),
    dryRun: z.boolean().default(false).describe('Preview changes as a diff without writing them'),
  }),
  handler: ok,
})

const FieldOptions = z.union([
  z.object({ type: z.literal('singleLineText') }),
  z.object({ type: z.literal('number'), options: z.object({ precision: z.number().int().min(0).max(8) }) }),
  z.object({ type: z.literal('singleSelect'), options: z.object({ choices: z.array(z.object({ name: z.string(), color: z.string().optional() })) }) }),
  z.object({ type: z.literal('date'), options: z.object({ dateFormat: z.object({ name: z.enum(['local', 'friendly', 'us', 'european', 'iso']) }) }) }),
  z.object({ type: z.literal('checkbox'), options: z.object({ icon: z.enum(['check', 'xCheckbox', 'star', 'heart']), color: z.string() }) }),
  z.any(),
])
const createTable = defineTool({
  name: 'create_table',
  description: 'Create a table in an Airtable base.',
  input: z.object({
    baseId: z.string().describe('The base to create the table in'),
    name: z.string().describe('Table name'),
    description: z.string().optional().describe('Table description'),
    fields: z.array(z.object({ name: z.string(), description: z.string().optional() }).and(FieldOptions)).describe('The table\'s fields; the first is its primary field'),
  }),
  handler: ok,
})

const postMessage = defineTool({
  name: 'slack_post_message',
  description: 'Post a message to a Slack channel or thread.',
  input: z.object({
    channel_id: z.string().describe('The channel to post to'),
    text: z.string().describe('The message text, in mrkdwn'),
    thread_ts: z.string().regex(/^\d+\.\d+$/).optional().describe('Reply in this thread (a message timestamp like 1234567890.123456)'),
    blocks: z.array(z.record(z.string(), z.unknown())).optional().describe('Block Kit blocks, as JSON objects'),
    unfurl_links: z.boolean().optional(),
  }),
  handler: ok,
})

const createPage = defineTool({
  name: 'notion_create_page',
  description: 'Create a page under a parent page or in a database.',
  input: z.object({
    parent: z.union([
      z.object({ database_id: z.string().uuid() }),
      z.object({ page_id: z.string().uuid() }),
    ]).describe('Where the page goes'),
    properties: z.record(z.string(), z.unknown()).describe('Page properties, keyed by property name'),
    children: z.array(z.record(z.string(), z.unknown())).optional().describe('Blocks of the page body'),
    icon: z.object({ type: z.literal('emoji'), emoji: z.string() }).optional(),
  }),
  handler: ok,
})

const updateIssue = defineTool({
  name: 'linear_update_issue',
  description: 'Update a Linear issue.',
  params: z.object({ id: z.string().describe('Issue id or key, e.g. ENG-123') }),
  input: z.object({
    title: z.string().optional(),
    description: z.string().optional().describe('Markdown description'),
    priority: z.number().int().min(0).max(4).optional().describe('0 none, 1 urgent, 2 high, 3 medium, 4 low'),
    stateId: z.string().optional(),
    assigneeId: z.string().nullable().optional().describe('null unassigns'),
    dueDate: z.iso.date().optional(),
    labelIds: z.array(z.string()).optional(),
  }),
  handler: ok,
})

export const REAL_TOOLS = [issueWrite, searchCode, editFile, createTable, postMessage, createPage, updateIssue]
