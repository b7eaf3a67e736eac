// Words people use for what tools name otherwise, both ways round where both are common: the verbs
// of creating, reading, changing and removing, the nouns of a few fields (weather, money, security),
// and file extensions for their programs. A tool search counts a word met through one less than the
// word itself. Each group says why its words name one job and what it was made from: tuning tasks
// by id (bench/data/livemcptool-tasks.json, test/data/task-phrasings.json, bench/data/scale-tasks.json), each asking with one
// word of the group for a tool or server another names, or an outside source with the words it
// lists. A held-out task is never evidence, and every word is in the table on its group's own
// evidence (test/synonym-evidence.test.ts holds both).
import { stem } from './words'

/** An outside source a group was made from, and the group's words it lists. */
export interface SynonymSource { readonly name: string, readonly words: readonly string[] }

/** Words that name one job, why they do, and the evidence. */
export interface SynonymGroup {
  readonly words: readonly string[]
  readonly reason: string
  /** Tuning tasks by id. */
  readonly tasks: readonly string[]
  readonly sources: readonly SynonymSource[]
}

const WORDNET = 'WordNet 3.1'
const MEDIA_TYPES = 'IANA media types and their registered file extensions'
/** mcpproxy-go's public golden set (retrieval_golden_v1.json), a query and the tool it grades best. */
const GOLDEN = 'mcpproxy-go\'s golden set, the query'

export const SYNONYM_GROUPS: readonly SynonymGroup[] = [
  { words: ['create', 'add', 'new', 'make', 'open', 'write', 'insert', 'store', 'save', 'record'], reason: 'bringing a new item into being', tasks: ['npm-002', 'live-184', 'npm-014', 'npm-047', 'npm-041', 'live-167', 'live-218', 'live-129', 'live-283', 'scale-168'], sources: [{ name: `${WORDNET} verb 01620211 (make or cause to be)`, words: ['create', 'make'] }, { name: `${WORDNET} verb 01000931 (record data on a computer)`, words: ['save', 'write'] }] },
  { words: ['delete', 'remove', 'erase', 'forget', 'clear'], reason: 'taking an item away', tasks: ['live-284', 'npm-010'], sources: [{ name: `${WORDNET} verb 01001860 (wipe out recorded information)`, words: ['delete', 'erase'] }, { name: `${GOLDEN} "Remove some nodes and every link attached to them" (memory delete_entities)`, words: ['delete', 'remove'] }, { name: `${WORDNET} verb 00195686 (remove)`, words: ['clear'] }] },
  { words: ['get', 'read', 'show', 'view', 'display', 'fetch', 'retrieve', 'see', 'what'], reason: 'reading one item', tasks: ['live-071', 'live-043', 'npm-001', 'live-023', 'live-173', 'live-155', 'live-191', 'live-209', 'live-067'], sources: [{ name: `${WORDNET} verb 02155378 (see or watch)`, words: ['see', 'view'] }, { name: `${WORDNET} verb 01435927 (go after and bring back)`, words: ['fetch', 'get'] }, { name: `${WORDNET} noun 06892571 (something shown)`, words: ['display', 'show'] }, { name: `${WORDNET} verb 02252785 (get or find back)`, words: ['retrieve'] }] },
  { words: ['list', 'show', 'enumerate', 'which'], reason: 'reading many items', tasks: ['npm-021', 'npm-048', 'live-186', 'npm-061', 'live-178', 'live-276'], sources: [{ name: `${WORDNET} verb 00948137 (specify individually)`, words: ['enumerate'] }] },
  { words: ['search', 'find', 'look', 'lookup', 'seek'], reason: 'finding items by words', tasks: ['live-091', 'live-256', 'live-272', 'live-287', 'npm-019', 'npm-024', 'npm-039', 'live-165', 'npm-011'], sources: [{ name: `${WORDNET} verb 02158139 (search or seek)`, words: ['look', 'search'] }, { name: `${WORDNET} verb 01318273 (try to locate)`, words: ['search', 'seek'] }, { name: `${WORDNET} noun 13574763 (an operation that finds an item)`, words: ['lookup', 'search'] }] },
  { words: ['update', 'edit', 'change', 'modify', 'set', 'replace', 'swap'], reason: 'changing an item in place', tasks: ['live-033', 'npm-006', 'scale-097', 'scale-039', 'scale-123'], sources: [{ name: `${WORDNET} verb 00126072 (cause to change)`, words: ['change', 'modify'] }] },
  { words: ['move', 'rename', 'relocate'], reason: 'a file\'s new path or name, one call in file systems', tasks: ['npm-003'], sources: [{ name: `${WORDNET} verb 00415334 (move or establish in a new location)`, words: ['relocate'] }] },
  { words: ['navigate', 'open', 'go', 'visit'], reason: 'taking a browser to a page', tasks: ['live-119', 'npm-051', 'live-240', 'npm-055'], sources: [{ name: `${WORDNET} verb 02498679 (go to see a place)`, words: ['visit'] }] },
  { words: ['issue', 'bug', 'report'], reason: 'an item of a tracker', tasks: ['npm-014'], sources: [] },
  { words: ['directory', 'folder'], reason: 'one thing in a file system', tasks: ['live-045', 'live-184', 'live-185', 'live-186', 'npm-002', 'npm-007'], sources: [] },
  { words: ['relation', 'link', 'connect', 'relate', 'relationship'], reason: 'an edge between two items', tasks: ['live-283', 'npm-009'], sources: [{ name: `${WORDNET} verb 00715072 (make a logical or causal connection)`, words: ['connect', 'link', 'relate'] }, { name: `${WORDNET} noun 13802931 (a relation between people)`, words: ['relationship'] }] },
  { words: ['entity', 'thing', 'node'], reason: 'a knowledge graph\'s item', tasks: [], sources: [{ name: `${GOLDEN} "Remove some nodes and every link attached to them" (memory delete_entities)`, words: ['entity', 'node'] }, { name: `${WORDNET} noun 00002452 (a separate and self-contained entity)`, words: ['thing'] }] },
  { words: ['history', 'said'], reason: 'what a channel held before', tasks: ['npm-027'], sources: [] },
  { words: ['elevation', 'altitude', 'height'], reason: 'a point\'s height above sea level', tasks: ['npm-032'], sources: [{ name: `${WORDNET} noun 05138912 (height above sea level)`, words: ['altitude', 'height'] }, { name: `${WORDNET} noun 13858749`, words: ['altitude', 'elevation'] }] },
  { words: ['self', 'logged', 'whoami'], reason: 'the signed-in user', tasks: ['npm-043'], sources: [{ name: 'GNU coreutils\' whoami (print the effective user\'s name)', words: ['whoami'] }] },
  { words: ['sum', 'add', 'plus', 'total', 'addition'], reason: 'adding numbers', tasks: ['npm-012'], sources: [{ name: `${WORDNET} verb 00951320 (determine the sum of)`, words: ['add', 'sum', 'total'] }, { name: `${WORDNET} noun 00873785 (the operation of summing)`, words: ['addition', 'plus'] }] },
  { words: ['comment', 'note', 'remark', 'discussion'], reason: 'a short text attached to an item', tasks: ['scale-045'], sources: [{ name: `${WORDNET} verb 01060446 (make or write a comment on)`, words: ['comment', 'remark'] }, { name: `${WORDNET} verb 01022014 (make mention of)`, words: ['note', 'remark'] }] },
  { words: ['history', 'log', 'previous'], reason: 'what happened before', tasks: ['live-123'], sources: [{ name: `${GOLDEN} "Look back over the recorded history of what changed and when" (git git_log)`, words: ['history', 'log'] }] },
  { words: ['status', 'condition'], reason: 'how an item stands now', tasks: [], sources: [{ name: `${WORDNET} noun 13943868 (a state at a particular time)`, words: ['condition', 'status'] }] },
  { words: ['file', 'document', 'doc'], reason: 'a stored document', tasks: ['live-171', 'live-216', 'live-167'], sources: [] },
  { words: ['web', 'website', 'webpage', 'page', 'site', 'url', 'online'], reason: 'a place on the web', tasks: ['live-043', 'live-121', 'live-277', 'scale-032'], sources: [{ name: `${WORDNET} noun 06370600 (a computer on the internet serving pages)`, words: ['site', 'website'] }, { name: `${WORDNET} noun 06370307 (a document connected to the World Wide Web)`, words: ['webpage'] }] },
  { words: ['image', 'picture', 'photo', 'pic'], reason: 'an image', tasks: ['live-023', 'live-061', 'live-280'], sources: [{ name: `${WORDNET} noun 03931348 (a photograph)`, words: ['photo', 'pic', 'picture'] }, { name: `${WORDNET} noun 03937282 (a visual representation)`, words: ['image', 'picture'] }] },
  { words: ['price', 'cost', 'quote', 'trading', 'valuation', 'much'], reason: 'what an asset costs', tasks: ['live-069', 'live-195', 'live-001'], sources: [{ name: `${WORDNET} noun 05152365 (the property of having material worth)`, words: ['cost', 'price'] }, { name: `${WORDNET} verb 01025934 (name the price of)`, words: ['quote'] }, { name: `${WORDNET} noun 13326695 (assessed price)`, words: ['valuation'] }] },
  { words: ['crypto', 'bitcoin', 'btc'], reason: 'cryptocurrencies and their tickers', tasks: ['live-069', 'live-195', 'scale-058'], sources: [] },
  { words: ['gold', 'silver', 'platinum'], reason: 'precious metals priced as commodities', tasks: ['live-001', 'scale-005'], sources: [{ name: `${WORDNET} noun 14673721 (a heavy precious metallic element)`, words: ['platinum'] }] },
  { words: ['insider', 'executive'], reason: 'a company\'s insiders, as filings name them', tasks: ['live-063', 'live-198'], sources: [] },
  { words: ['stay', 'lodging', 'accommodation', 'hotel'], reason: 'a place to stay', tasks: ['live-005'], sources: [{ name: `${WORDNET} noun 03551520 (structures collectively in which people are housed)`, words: ['lodging'] }, { name: `${WORDNET} noun 02675001 (living quarters provided for public convenience)`, words: ['accommodation'] }, { name: `${WORDNET} noun 03547513 (a building where travelers can pay for lodging)`, words: ['hotel'] }] },
  { words: ['paper', 'article'], reason: 'a scholarly paper', tasks: ['live-017', 'live-253'], sources: [] },
  { words: ['calculate', 'compute', 'percent', 'arithmetic', 'expression'], reason: 'working out a number', tasks: ['live-019', 'live-236'], sources: [{ name: `${WORDNET} verb 00638921 (make a mathematical calculation)`, words: ['calculate', 'compute'] }, { name: `${WORDNET} noun 06013397 (the theory of numerical calculations)`, words: ['arithmetic'] }, { name: `${WORDNET} noun 06744551 (symbols that make a mathematical statement)`, words: ['expression'] }] },
  { words: ['search', 'grep'], reason: 'grep is the Unix command that searches text', tasks: ['live-031'], sources: [] },
  { words: ['code', 'todo'], reason: 'a project\'s source code and its TODO comments', tasks: ['live-031'], sources: [] },
  { words: ['tempo', 'bpm', 'beat'], reason: 'a song\'s tempo in beats per minute', tasks: ['live-093', 'live-237'], sources: [] },
  { words: ['route', 'direction', 'drive', 'travel', 'trip', 'way'], reason: 'how to get from one place to another', tasks: ['live-081', 'live-113', 'live-260', 'npm-030'], sources: [{ name: `${WORDNET} noun 08697710 (a line leading to a place)`, words: ['direction', 'way'] }, { name: `${WORDNET} verb 01846997 (make a trip)`, words: ['travel', 'trip'] }] },
  { words: ['presentation', 'deck', 'slide', 'powerpoint', 'pptx', 'ppt'], reason: 'a slide presentation and its file types', tasks: ['live-129', 'live-133'], sources: [{ name: `${MEDIA_TYPES}: application/vnd.ms-powerpoint (.ppt), …presentationml.presentation (.pptx)`, words: ['pptx', 'ppt', 'powerpoint', 'presentation'] }] },
  { words: ['execute', 'run', 'evaluate', 'eval'], reason: 'running code', tasks: ['live-135', 'live-189'], sources: [{ name: `${WORDNET} verb 02569242 (carry out a program on a computer)`, words: ['execute', 'run'] }, { name: 'ECMAScript\'s eval (runs a string as script code)', words: ['eval'] }] },
  { words: ['javascript', 'js'], reason: 'JavaScript and its file extension', tasks: ['live-135'], sources: [{ name: 'text/javascript and its extension .js (RFC 9239)', words: ['javascript', 'js'] }] },
  { words: ['news', 'story', 'headline'], reason: 'a news item', tasks: ['live-157', 'live-159'], sources: [] },
  { words: ['coordinate', 'geocode', 'address'], reason: 'a place as coordinates or an address', tasks: ['npm-029', 'live-115'], sources: [] },
  { words: ['text', 'txt', 'plain'], reason: 'plain text and its file extension', tasks: ['npm-001'], sources: [{ name: `${MEDIA_TYPES}: text/plain (RFC 2046), files .txt`, words: ['text', 'plain', 'txt'] }] },
  { words: ['know', 'knowledge', 'information', 'info', 'fact'], reason: 'what a knowledge store holds', tasks: ['live-087', 'live-282'], sources: [{ name: `${WORDNET} noun 06646883 (a message received and understood)`, words: ['info', 'information'] }, { name: `${WORDNET} noun 05825522 (a piece of information about circumstances that exist)`, words: ['fact'] }] },
  { words: ['weather', 'forecast', 'rain', 'temperature', 'wind', 'umbrella'], reason: 'the weather and what a forecast says', tasks: ['live-193', 'scale-127'], sources: [{ name: `${WORDNET} noun 11545095 (the state of the atmosphere in terms of temperature and wind)`, words: ['weather', 'temperature', 'wind'] }] },
  { words: ['currency', 'exchange', 'euro', 'dollar', 'yen', 'pound', 'krone', 'kroner'], reason: 'currencies and their exchange rates', tasks: ['live-194'], sources: [{ name: 'ISO 4217\'s currency names', words: ['currency', 'euro', 'dollar', 'yen', 'pound', 'krone'] }] },
  { words: ['vulnerability', 'security', 'cve', 'advisory', 'vulnerable', 'hole'], reason: 'a package\'s known vulnerabilities', tasks: ['live-207'], sources: [{ name: 'the CVE program (Common Vulnerabilities and Exposures)', words: ['cve', 'vulnerability'] }, { name: 'the GitHub Advisory Database (security advisories, each a package\'s vulnerability)', words: ['advisory', 'security', 'vulnerability'] }, { name: `${WORDNET} noun 14567533 (the state of being vulnerable)`, words: ['vulnerability', 'vulnerable'] }] },
  { words: ['whois', 'own', 'registrant', 'registrar'], reason: 'who holds a domain or address (WHOIS)', tasks: ['live-163', 'live-210'], sources: [{ name: 'ICANN\'s registration data (WHOIS) fields: Registrar, Registrant', words: ['whois', 'registrar', 'registrant'] }] },
  { words: ['date', 'when', 'schedule'], reason: 'when an event is', tasks: ['live-107', 'live-201', 'live-266'], sources: [] },
  { words: ['planning', 'step'], reason: 'breaking a task into steps', tasks: ['live-275'], sources: [] },
  { words: ['size', 'big', 'large'], reason: 'how large an item is', tasks: ['live-097', 'live-185', 'live-205'], sources: [{ name: `${WORDNET} adjective 01385012 (above average in size)`, words: ['big', 'large'] }] },
  { words: ['reset', 'undo', 'unstage', 'rollback'], reason: 'undoing a change', tasks: ['live-179', 'live-055', 'scale-213'], sources: [] },
  { words: ['start', 'run'], reason: 'starting a process', tasks: ['live-189'], sources: [] },
  { words: ['day', 'daily'], reason: 'the current day', tasks: ['live-270'], sources: [] },
  { words: ['excel', 'xlsx', 'xls', 'spreadsheet', 'workbook', 'sheet'], reason: 'a spreadsheet and its file types', tasks: ['live-039', 'live-220', 'live-041', 'live-219'], sources: [{ name: `${MEDIA_TYPES}: application/vnd.ms-excel (.xls), …spreadsheetml.sheet (.xlsx)`, words: ['xlsx', 'xls', 'excel', 'spreadsheet', 'sheet'] }] },
  { words: ['word', 'docx'], reason: 'a Word document and its file type', tasks: ['live-215'], sources: [{ name: 'Microsoft\'s documented file types: .docx is a Word document', words: ['docx', 'word'] }] },
  { words: ['remember', 'memory', 'memorize', 'recall', 'knowledge'], reason: 'storing and recalling what is known', tasks: ['live-085', 'npm-008', 'live-009'], sources: [{ name: `${WORDNET} verb 00609334 (recall knowledge from memory)`, words: ['recall', 'remember'] }, { name: `${WORDNET} verb 00605971 (commit to memory)`, words: ['memorize'] }] },
  { words: ['mute', 'silence'], reason: 'stopping alerts or notifications for a while without removing them', tasks: ['scale-210'], sources: [] },
  { words: ['balance', 'owe'], reason: 'what an account owes its provider so far', tasks: ['scale-185'], sources: [] },
  { words: ['cron', 'night'], reason: 'a job run on a clock\'s schedule (cron), every night or hour', tasks: ['scale-214'], sources: [] },
  { words: ['emulate', 'pretend'], reason: 'a browser acting as another device or client', tasks: ['scale-093'], sources: [] },
  { words: ['encoding', 'utf'], reason: 'a text\'s character encoding, UTF-8 the common one', tasks: ['scale-104'], sources: [] },
  { words: ['dns', 'domain'], reason: 'the name system\'s records, each a domain\'s', tasks: ['scale-182'], sources: [] },
  { words: ['eat', 'dish', 'dinner'], reason: 'what to cook or eat', tasks: ['scale-046'], sources: [] },
]

/** Each stem's synonyms (stems too), from the groups above. */
export const SYNONYMS = new Map<string, Set<string>>()
for (const { words } of SYNONYM_GROUPS) {
  const stems = words.map(word => stem(word))
  for (const word of stems) {
    const known = SYNONYMS.get(word) ?? new Set<string>()
    stems.filter(other => other !== word).forEach(other => known.add(other))
    SYNONYMS.set(word, known)
  }
}
