// The workflows of the editor's outcome path (editor.e2e.mts): Archive Contact
// with On Error › Continue, and with Continue (using error output), followed
// by an If node on the expression the README and docs/errors.md give,
// {{ $json.message.outcome }} is equal to notActed; and a Create Sequence the
// sandbox answers with a 400 and validation details.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './n8n.mts';
import { SANDBOX_CREDENTIAL_ID } from './stage.mts';
import { MANUAL_TRIGGER, outreachCredential, outreachNode, workflowOf } from './workflows.mts';

export const MODES = ['continueRegularOutput', 'continueErrorOutput'] as const;
export const UNKNOWN = 'zz-404';
export const KNOWN = 'c-42';

/** The expression the README, docs/errors.md and the failed-items hint give, as the docs write it. */
export const DOCUMENTED = /`(\{\{ \$json\.message\.outcome \}\})`/.exec(
	readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
)![1];

export const outcomeWorkflowId = (mode: string) => `e2eOutcome-${mode}`;
export const INVALID_ID = 'e2eOutcome-400';
/** An answer with validation details, in a shape the contract does not show (it shows none). */
export const INVALID = {
	message: 'Validation failed',
	errors: [
		{ field: 'name', message: 'is too long' },
		{ field: 'schedules', message: 'must not be empty' },
	],
};

/** Start → Create Sequence, which the sandbox answers with a 400 and INVALID. */
export function invalidWorkflow() {
	return workflowOf(INVALID_ID, [
		MANUAL_TRIGGER,
		outreachNode(
			'Create Sequence',
			{ resource: 'sequence', operation: 'create', name: 'Too long a name' },
			{ credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox') },
		),
	]);
}

/** Start → two contacts → Archive Contact (On Error: mode) → If outcome is notActed → Not acted / Other. */
export function outcomeWorkflow(mode: (typeof MODES)[number]) {
	const node = (name: string, type: string, typeVersion: number, parameters = {}) => ({
		name,
		type,
		typeVersion,
		parameters,
	});
	const nodes = [
		MANUAL_TRIGGER,
		node('Contacts', 'n8n-nodes-base.set', 3.4, {
			mode: 'raw',
			jsonOutput: JSON.stringify({ contacts: [{ id: UNKNOWN }, { id: KNOWN }] }),
			options: {},
		}),
		node('One item per contact', 'n8n-nodes-base.splitOut', 1, {
			fieldToSplitOut: 'contacts',
			options: {},
		}),
		outreachNode(
			'Archive Contact',
			{ resource: 'contact', operation: 'archive', contactId: '={{ $json.id }}' },
			{
				credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
				onError: mode,
			},
		),
		node('Did the service act?', 'n8n-nodes-base.if', 2, {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
				conditions: [
					{
						id: 'outcome',
						leftValue: `=${DOCUMENTED}`,
						rightValue: 'notActed',
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		}),
		node('Not acted', 'n8n-nodes-base.noOp', 1),
		node('Other', 'n8n-nodes-base.noOp', 1),
	];
	const to = (target: string) => [{ node: target, type: 'main', index: 0 }];
	return {
		id: outcomeWorkflowId(mode),
		name: `Outreach e2e: outcome path, ${mode}`,
		active: false,
		nodes: nodes.map((entry, index) => ({
			id: `node-${index}`,
			position: [index * 220, index >= 5 ? (index === 5 ? -120 : 120) : 0],
			...entry,
		})),
		connections: {
			Start: { main: [to('Contacts')] },
			Contacts: { main: [to('One item per contact')] },
			'One item per contact': { main: [to('Archive Contact')] },
			// With the error output, only the failed items go on to the If node.
			'Archive Contact': {
				main:
					mode === 'continueErrorOutput'
						? [[], to('Did the service act?')]
						: [to('Did the service act?')],
			},
			'Did the service act?': { main: [to('Not acted'), to('Other')] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The items a node put out on each output in the execution's run data. */
export type RunData = Record<
	string,
	Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> } }>
>;
