// Words people use for what tools name otherwise, both ways round where both are common: the verbs
// of creating, reading, changing and removing, the nouns of a few fields (weather, money, security),
// and file extensions for their programs. A tool search counts a word met through one less than the
// word itself.
import { stem } from './words'

const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'open', 'write', 'post', 'insert', 'store', 'save', 'record'],
  ['delete', 'remove', 'erase', 'forget', 'drop', 'destroy', 'clear'],
  ['get', 'read', 'show', 'view', 'display', 'fetch', 'retrieve', 'look', 'see', 'what'],
  ['list', 'show', 'enumerate', 'which'],
  ['search', 'find', 'look', 'lookup', 'query', 'seek'],
  ['update', 'edit', 'change', 'modify', 'patch', 'set', 'replace', 'rename'],
  ['move', 'rename', 'relocate'],
  ['navigate', 'open', 'go', 'visit', 'browse', 'load'],
  ['issue', 'bug', 'ticket', 'report'],
  ['directory', 'folder', 'dir'],
  ['relation', 'link', 'connect', 'relate', 'relationship'],
  ['entity', 'thing', 'fact', 'person', 'node'],
  ['history', 'said', 'messages', 'conversation', 'past'],
  ['elevation', 'altitude', 'height'],
  ['self', 'myself', 'logged', 'whoami', 'current', 'account'],
  ['sum', 'add', 'plus', 'total', 'addition'],
  ['screenshot', 'capture', 'picture', 'image'],
  ['comment', 'note', 'reply', 'remark'],
  ['user', 'people', 'member', 'person'],
  ['log', 'logs', 'output'],
  ['history', 'log', 'timeline', 'past', 'previous'],
  ['status', 'state', 'condition'],
  ['delete', 'rid', 'discard', 'purge', 'trash'],
  ['multiple', 'several', 'many', 'batch', 'bulk'],
  ['file', 'document', 'doc'],
  ['web', 'website', 'webpage', 'page', 'site', 'url', 'link', 'internet'],
  ['image', 'picture', 'photo', 'pic', 'screenshot'],
  ['price', 'cost', 'worth', 'quote', 'trading', 'valuation', 'much'],
  ['crypto', 'cryptocurrency', 'bitcoin', 'btc', 'ethereum', 'eth', 'coin', 'token'],
  ['metal', 'gold', 'silver', 'platinum', 'commodity'],
  ['stock', 'share', 'equity', 'ticker', 'symbol'],
  ['insider', 'executive', 'officer', 'director'],
  ['stay', 'lodging', 'accommodation', 'rental', 'hotel', 'listing'],
  ['paper', 'article', 'publication', 'study', 'preprint', 'literature'],
  ['calculate', 'compute', 'math', 'percent', 'arithmetic', 'evaluate', 'expression'],
  ['search', 'grep'],
  ['code', 'source', 'todo'],
  ['tempo', 'bpm', 'beat', 'speed'],
  ['route', 'direction', 'drive', 'travel', 'trip', 'way', 'navigate'],
  ['presentation', 'deck', 'slide', 'slideshow', 'powerpoint', 'pptx', 'ppt'],
  ['execute', 'run', 'evaluate', 'eval'],
  ['javascript', 'js', 'script'],
  ['news', 'story', 'headline', 'article'],
  ['coordinate', 'latitude', 'longitude', 'geocode', 'location', 'address'],
  ['line', 'range'],
  ['text', 'txt', 'plain'],
  ['know', 'knowledge', 'information', 'info', 'fact'],
  ['weather', 'forecast', 'rain', 'snow', 'temperature', 'sunny', 'wind', 'umbrella', 'humidity'],
  ['currency', 'exchange', 'forex', 'euro', 'dollar', 'yen', 'pound', 'krone', 'kroner'],
  ['vulnerability', 'security', 'cve', 'exploit', 'advisory', 'vulnerable', 'hole'],
  ['whois', 'owner', 'own', 'registrant', 'registrar'],
  ['date', 'when', 'schedule', 'upcoming', 'calendar'],
  ['plan', 'planning', 'step', 'breakdown'],
  ['size', 'big', 'large', 'byte'],
  ['reset', 'undo', 'revert', 'unstage', 'rollback'],
  ['start', 'run', 'launch', 'spawn'],
  ['day', 'daily', 'today'],
  ['excel', 'xlsx', 'xls', 'spreadsheet', 'workbook', 'sheet'],
  ['word', 'docx'],
  ['remember', 'memory', 'memorize', 'recall', 'knowledge'],
]

/** Each stem's synonyms (stems too), from the groups above. */
export const SYNONYMS = new Map<string, Set<string>>()
for (const group of SYNONYM_GROUPS) {
  const stems = group.map(word => stem(word))
  for (const word of stems) {
    const known = SYNONYMS.get(word) ?? new Set<string>()
    stems.filter(other => other !== word).forEach(other => known.add(other))
    SYNONYMS.set(word, known)
  }
}
