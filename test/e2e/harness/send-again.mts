// The shipped example that sends again what the service never received
// (examples/send-again.workflow.json), as the suites read it: its file, the
// names it creates and the credential its nodes refer to.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './n8n.mts';

export const SEND_AGAIN_FILE = path.join(ROOT, 'examples', 'send-again.workflow.json');
export const SEND_AGAIN = JSON.parse(readFileSync(SEND_AGAIN_FILE, 'utf8')) as {
	id: string;
	nodes: Array<{
		name: string;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
	}>;
};
const sendAgainNode = (name: string) => {
	const node = SEND_AGAIN.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`${SEND_AGAIN_FILE} has no node "${name}"`);
	return node;
};
/** The names the example creates, in the order its items come. */
export const SEND_AGAIN_NAMES = (
	JSON.parse(String(sendAgainNode('Sequences to create').parameters.jsonOutput)) as {
		sequences: Array<{ name: string }>;
	}
).sequences.map((sequence) => sequence.name);
/** The credential the example's nodes refer to; the suite stores one with that id, as a user would create it. */
export function sendAgainCredential(): { id: string; name: string } {
	const credential = sendAgainNode('Create Sequence').credentials?.outreachSequencesApi;
	if (!credential)
		throw new Error(`${SEND_AGAIN_FILE}: Create Sequence has no Outreach Sequences credential`);
	return credential;
}
