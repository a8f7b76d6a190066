// The subjects the texts tests name: a contact, which has an ID, and a sequence
// to create, which has none yet.
export const contact = { noun: 'contact', id: 'c-42', verb: 'archive', done: 'archived' };
export const sequence = { noun: 'sequence', verb: 'create', done: 'created' };
