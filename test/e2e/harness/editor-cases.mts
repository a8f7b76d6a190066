// What the editor suite opens and expects: one example workflow per
// operation and the labels its parameter panel shows; the credentials it
// stores, and what the credential test says for each and reaches the
// sandbox with; and the workflow whose run shows the execution hints.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { SandboxProcess } from '../../harness/sandbox.mts';
import type { StoredCredential } from '../../../scripts/n8n/user-folder.mts';
import { outreachApiCredential, type credentialTestSays } from './credentials.mts';
import { ROOT, freePort } from './n8n.mts';
import { workflowOf, type WorkflowNode } from './workflows.mts';
import { SANDBOX_CREDENTIAL_ID } from './stage.mts';

export const GOOD = SANDBOX_CREDENTIAL_ID;
export const WRONG = 'outreachWrongKey';
export const REFUSED = 'outreachRefused';

/** The credentials the credential tests open besides the sandbox's: a wrong key, a port where nothing listens. */
export async function faultyCredentials(sandbox: SandboxProcess): Promise<StoredCredential[]> {
	const { apiKey, url } = sandbox;
	return [
		outreachApiCredential(WRONG, 'not-the-key', url, 'Outreach wrong key'),
		// A free port: nothing listens there.
		outreachApiCredential(
			REFUSED,
			apiKey,
			`http://127.0.0.1:${await freePort()}`,
			'Outreach refused',
		),
	];
}

/** One example workflow per operation (examples/ is what `npm start` imports), and the labels its panel shows. */
export const PANELS = [
	{
		workflow: 'outreach-archive-contact',
		node: 'Archive Contact',
		shot: 'contact-archive',
		labels: ['Resource', 'Operation', 'Contact ID', 'Request Options'],
	},
	{
		workflow: 'outreach-archive-contact-list',
		node: 'Archive Contact List',
		shot: 'contact-list-archive',
		labels: ['Resource', 'Operation', 'Contact List ID', 'Request Options'],
	},
	{
		workflow: 'outreach-get-use-case',
		node: 'Get Use Case',
		shot: 'use-case-get',
		labels: ['Resource', 'Operation', 'Use Case ID', 'Request Options'],
	},
	{
		workflow: 'outreach-create-sequence',
		node: 'Create Sequence',
		shot: 'sequence-create-fields',
		labels: [
			'Resource',
			'Operation',
			'Send Body',
			'Name',
			'Additional Fields',
			'Schedules',
			'Day Offset',
			'Hour',
			'Minute',
			'Delay in Minutes',
			'Sequence Scripts',
		],
	},
	{
		workflow: 'outreach-all-operations',
		node: 'Create Sequence (JSON)',
		shot: 'sequence-create-json',
		labels: ['Resource', 'Operation', 'Send Body', 'JSON Body'],
	},
];

/**
 * A failing credential test as the editor runs it when the credential opens,
 * with a rule's sentence and with n8n's own words (every case, through REST:
 * cli.e2e.mts):
 * the fault the sandbox answers with, what the test says (`says`, from
 * credentialTestSays) and the requests that reach the sandbox.
 */
export function credentialTests(says: ReturnType<typeof credentialTestSays>) {
	const probe = 'GET /v1/use_cases/n8n-credential-test';
	return [
		{
			id: WRONG,
			shot: 'credential-form-wrong-key',
			result: says.wrongKey,
			// n8n sends a credential's request again after a 401, as for a key it could refresh.
			reached: [probe, probe],
		},
		{
			id: REFUSED,
			shot: 'credential-form-refused-port',
			result: says.refused,
			reached: [],
		},
	];
}

/**
 * examples/archive-contact.workflow.json with two contacts, one the sandbox does not
 * know (a 404), and the node set to On Error › Continue and Retry On Fail: after a
 * run its output pane shows the Retry On Fail and the failed-items hints.
 */
export const HINTS_WORKFLOW = 'outreach-execution-hints';
// The unknown contact first: its failed item leads the output, and n8n's Retry On Fail
// (with On Error › Continue) looks at the first output item.
export const HINTS_CONTACTS = ['zz-404', 'c-42'];

export function hintsWorkflow() {
	const example = JSON.parse(
		readFileSync(path.join(ROOT, 'examples', 'archive-contact.workflow.json'), 'utf8'),
	) as { nodes: WorkflowNode[] };
	const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!;
	const input = node('Input');
	const workflow = workflowOf(HINTS_WORKFLOW, [
		node('Start'),
		{
			...input,
			parameters: {
				...input.parameters,
				jsonOutput: JSON.stringify({ contacts: HINTS_CONTACTS.map((id) => ({ id })) }),
			},
		},
		{
			name: 'One item per contact',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [440, 0],
			parameters: { fieldToSplitOut: 'contacts', options: {} },
		},
		{
			...node('Archive Contact'),
			position: [660, 0],
			onError: 'continueRegularOutput',
			retryOnFail: true,
		},
	]);
	return {
		...workflow,
		name: 'Outreach: execution hints (e2e)',
		versionId: '5d0c3a6e-2f4b-4f7e-9a51-0e6f2b8c7d11',
	};
}
