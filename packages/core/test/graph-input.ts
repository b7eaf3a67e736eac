// A shape said once and used by `$ref` in many places, as Microsoft 365's server writes its tools.
const text = (description: string) => ({ anyOf: [{ type: 'string', description }, { type: 'null' }], description })
/** A Graph-like input (Microsoft 365's server writes its tools so): an identity set used six times, a folder that holds folders. */
export const graphInput = {
  type: 'object',
  properties: {
    body: {
      type: 'object',
      properties: {
        displayName: text('The folder\'s display name.'),
        createdBy: { $ref: '#/$defs/identitySet' },
        lastModifiedBy: { $ref: '#/$defs/identitySet' },
        owner: { $ref: '#/$defs/identitySet' },
        sharedBy: { $ref: '#/$defs/identitySet' },
        deletedBy: { $ref: '#/$defs/identitySet' },
        reviewedBy: { $ref: '#/$defs/identitySet' },
        childFolders: { type: 'array', items: { $ref: '#/$defs/folder' }, description: 'The folders inside this one.' },
      },
    },
  },
  required: ['body'],
  $defs: {
    identity: { type: 'object', properties: { id: text('The identity\'s unique identifier.'), displayName: text('The identity\'s display name. It may not always be available or up to date.') } },
    identitySet: { type: 'object', properties: { application: { $ref: '#/$defs/identity' }, device: { $ref: '#/$defs/identity' }, user: { $ref: '#/$defs/identity' } }, description: 'The application, device and user of an action.' },
    folder: { type: 'object', properties: { displayName: text('The folder\'s display name.'), childFolders: { type: 'array', items: { $ref: '#/$defs/folder' } }, createdBy: { $ref: '#/$defs/identitySet' } } },
  },
}
