// Every registered operation as the smoke suite runs it, from the node's own
// list (a new operation is covered without an edit here): its required field
// from $json.value, and items the sandbox answers (a record it holds) and, by
// ID, rejects (one it does not know: a 404) and that fail their checks (blank).
import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { operations } from '../../../nodes/OutreachSequences/OutreachSequences.node.ts';
import { seedData } from '../../../sandbox/seed.mts';
import { OPENAPI_DOCUMENT, routesOf } from '../../../sandbox/routes.mts';
import { SANDBOX_CREDENTIAL_ID } from './stage.mts';
import { MANUAL_TRIGGER, outreachCredential, outreachNode, workflowOf } from './workflows.mts';

const routes = routesOf(parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')));
const seed = seedData() as unknown as Record<string, Array<{ id: string }>>;

/** Per operation: `resource/operation` (as its schema file is named), its workflow, route, and one item per value. */
export const OPERATIONS = operations.map((definition) => {
	const route = routes.find((entry) => entry.operationId === definition.operationId)!;
	const known =
		route.kind === 'create' ? JSON.stringify({ name: 'Smoke test' }) : seed[route.collection][0].id;
	return {
		key: `${definition.resource}/${definition.operation}`,
		workflow: `e2e-${definition.resource}-${definition.operation}`,
		route,
		values: route.kind === 'create' ? [known] : [known, 'zz-404', ''],
	};
});

/** An operation's required field, and the parameters that show it (resource, operation, a mode). */
export function requiredField({ properties }: (typeof operations)[number]) {
	const { name, displayName, displayOptions } = properties.find((property) => property.required)!;
	const show = Object.entries(displayOptions?.show ?? {});
	return {
		field: name,
		label: displayName,
		shown: Object.fromEntries(show.map(([key, values]) => [key, values?.[0]])),
	};
}

/** Manual Trigger › Input (the values as items) › Items › the operation under On Error › Continue. */
export function operationWorkflow({ key, workflow, values }: (typeof OPERATIONS)[number]) {
	const definition = operations.find((entry) => `${entry.resource}/${entry.operation}` === key)!;
	const { field, shown } = requiredField(definition);
	return workflowOf(workflow, [
		MANUAL_TRIGGER,
		{
			name: 'Input',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'raw',
				jsonOutput: JSON.stringify({ items: values.map((value) => ({ value })) }),
				options: {},
			},
		},
		{
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'items', options: {} },
		},
		outreachNode(
			'Outreach Sequences',
			{ ...shown, [field]: '={{ $json.value }}' },
			{
				onError: 'continueRegularOutput',
				credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
			},
		),
	]);
}
