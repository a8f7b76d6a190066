// n8n's Remove Duplicates node beside this one (issue 43 §3): a workflow per
// logic of "Remove Items Processed in Previous Executions", Scope = Workflow,
// before Create Sequence, and in the same workflow a second webhook whose
// Remove Duplicates runs "Clean Database" on the workflow's row; the runs
// the suite makes of them, and what each node put out.
import { crashAndRecover, executionIds, newExecutions, outputOf } from './crash.mts';
import { errorText, waitForEnd } from './editor-rest.mts';
import { CREATE_NODE, createNode, postEvent, type ByName } from './re-runs.mts';
import type { Execution, N8n } from './stage.mts';
import { outreachCredential, webhookTrigger, workflowOf, type WorkflowNode } from './workflows.mts';

export const DEDUPE_NODE = 'Remove Duplicates';
const CLEAN_NODE = 'Clean Database';

export type Logic = 'new' | 'higher' | 'date';

/** Each logic: its value in the node, the parameter that holds it, and the expression (an item's name, number, date). */
export const LOGICS: Record<Logic, { value: string; parameter: string; expression: string }> = {
	new: {
		value: 'removeItemsWithAlreadySeenKeyValues',
		parameter: 'dedupeValue',
		expression: '={{ $json.name }}',
	},
	higher: {
		value: 'removeItemsUpToStoredIncrementalKey',
		parameter: 'incrementalDedupeValue',
		expression: '={{ $json.n }}',
	},
	date: {
		value: 'removeItemsUpToStoredDate',
		parameter: 'dateDedupeValue',
		expression: '={{ $json.at }}',
	},
};

export const workflowIdOf = (logic: Logic) => `outreach-dedupe-${logic}`;
/** Each logic's workflow has a sandbox of its own: the node paces each service apart, so that a run of one does not wait behind another's. */
export const credentialIdOf = (logic: Logic) => `outreachSandbox-${logic}`;
export const cleanPathOf = (logic: Logic) => `${workflowIdOf(logic)}-clean`;
const prefixOf = (logic: Logic) => logic[0].toUpperCase();

/** An event item: `<prefix><n>`, its number, and a date that grows with it. */
export interface EventItem {
	name: string;
	n: number;
	at: string;
}

export const itemsOf = (logic: Logic, numbers: number[]): EventItem[] =>
	numbers.map((n) => ({
		name: `${prefixOf(logic)}${n}`,
		n,
		at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
	}));

export const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, index) => from + index);

/**
 * Webhook › Split Out › Remove Duplicates (the logic, Scope = Workflow) ›
 * Create Sequence (On Error = Continue); and Webhook (…-clean) › Remove
 * Duplicates' Clean Database, Scope = Workflow. Both webhooks answer at once.
 */
export function dedupeWorkflow(logic: Logic) {
	const id = workflowIdOf(logic);
	const { value, parameter, expression } = LOGICS[logic];
	const dedupe: WorkflowNode = {
		name: DEDUPE_NODE,
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: value,
			[parameter]: expression,
			options: { scope: 'workflow' },
		},
	};
	const split: WorkflowNode = {
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.names', include: 'noOtherFields', options: {} },
	};
	const create = createNode({
		settings: {
			onError: 'continueRegularOutput',
			credentials: outreachCredential(credentialIdOf(logic)),
		},
	});
	const workflow = workflowOf(id, [
		webhookTrigger(id, { responseMode: 'onReceived' }),
		split,
		dedupe,
		create,
	]);
	const cleanHook = { ...webhookTrigger(cleanPathOf(logic)), name: 'Clean Webhook' };
	cleanHook.parameters = { ...cleanHook.parameters, responseMode: 'onReceived' };
	const clean: WorkflowNode = {
		name: CLEAN_NODE,
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		parameters: {
			operation: 'clearDeduplicationHistory',
			mode: 'cleanDatabase',
			options: { scope: 'workflow' },
		},
	};
	workflow.nodes.push(
		{
			id: 'clean-webhook',
			position: [0, 300],
			...cleanHook,
			parameters: cleanHook.parameters ?? {},
		},
		{ id: 'clean-database', position: [220, 300], ...clean, parameters: clean.parameters ?? {} },
	);
	workflow.connections[cleanHook.name] = {
		main: [[{ node: CLEAN_NODE, type: 'main', index: 0 }]],
	};
	return workflow;
}

/** What one execution did: its status and error, and the names Remove Duplicates kept and removed, and Create Sequence put out. */
export interface Ran {
	execution: Execution;
	/** When its Remove Duplicates began and ended (ms since the epoch). */
	dedupe: { start: number; end: number };
	status: string;
	error: string;
	kept: string[];
	removed: string[];
	created: Array<Record<string, unknown>>;
}

const namesOn = (execution: Execution, output: number) =>
	outputOf(execution, DEDUPE_NODE, output).map((item) => String(item.json.name));

export function ran(execution: Execution): Ran {
	const task = (
		execution.data.resultData.runData as unknown as Record<
			string,
			Array<{ startTime: number; executionTime: number }>
		>
	)[DEDUPE_NODE]?.[0];
	return {
		execution,
		dedupe: {
			start: task?.startTime ?? 0,
			end: (task?.startTime ?? 0) + (task?.executionTime ?? 0),
		},
		status: execution.status,
		error: execution.data.resultData.error ? errorText(execution) : '',
		kept: namesOn(execution, 0),
		removed: namesOn(execution, 1),
		created: outputOf(execution, CREATE_NODE).map((item) => item.json),
	};
}

/** One webhook call of the logic's workflow with these items; resolves once its execution ended. */
export async function runOnce(n8n: N8n, logic: Logic, items: EventItem[]): Promise<Ran> {
	const [result] = await runAtOnce(n8n, logic, [items]);
	return result;
}

/** Webhook calls at the same moment, one per list; their runs, in the lists' order. */
export async function runAtOnce(n8n: N8n, logic: Logic, lists: EventItem[][]): Promise<Ran[]> {
	const id = workflowIdOf(logic);
	const before = await executionIds(n8n, id);
	await Promise.all(lists.map((list) => postEvent(n8n, id, list)));
	const ids = await newExecutions(n8n, id, before, lists.length);
	const runs = await Promise.all(ids.map(async (run) => ran(await waitForEnd(n8n, run))));
	// Which run had which list: the names Split Out put out.
	const first = (list: EventItem[]) => list[0].name;
	return lists.map(
		(list) =>
			runs.find((run) =>
				outputOf(run.execution, 'Split Out').some((item) => item.json.name === first(list)),
			) as Ran,
	);
}

/** Clean Database (Scope = Workflow) through the logic's second webhook; resolves once it ended. */
export async function cleanDatabase(n8n: N8n, logic: Logic): Promise<Execution> {
	const id = workflowIdOf(logic);
	const before = await executionIds(n8n, id);
	const answer = await fetch(`${n8n.server.url}/webhook/${cleanPathOf(logic)}`, { method: 'POST' });
	if (answer.status !== 200) throw new Error(`The clean webhook answered ${answer.status}`);
	const [run] = await newExecutions(n8n, id, before);
	return await waitForEnd(n8n, run);
}

/** Every logic's workflow called at once with its list, and n8n killed once `killNow` says so; the crashed executions, by logic. */
export async function crashMidRun<T>(
	n8n: N8n,
	lists: Record<Logic, EventItem[]>,
	killNow: () => Promise<boolean>,
	atKill: () => Promise<T>,
): Promise<{ atKill: T; crashed: Record<Logic, Execution> }> {
	const logics = Object.keys(lists) as Logic[];
	const before = await Promise.all(logics.map((logic) => executionIds(n8n, workflowIdOf(logic))));
	await Promise.all(logics.map((logic) => postEvent(n8n, workflowIdOf(logic), lists[logic])));
	const running = await Promise.all(
		logics.map(
			async (logic, index) => (await newExecutions(n8n, workflowIdOf(logic), before[index]))[0],
		),
	);
	const result = await crashAndRecover(n8n, running, killNow, atKill);
	const crashed = Object.fromEntries(logics.map((logic, index) => [logic, result.crashed[index]]));
	return { atKill: result.atKill, crashed: crashed as Record<Logic, Execution> };
}

export const namesOf = (logic: Logic, numbers: number[]) =>
	itemsOf(logic, numbers).map((item) => item.name);
const sorted = (list: string[]) => [...list].sort();

/** A run that went through: no error, and Remove Duplicates kept `kept` and removed `removed`. */
export function expectRan(run: Ran, logic: Logic, kept: number[], removed: number[]): void {
	expect({ status: run.status, error: run.error }).toEqual({ status: 'success', error: '' });
	expect(sorted(run.kept)).toEqual(sorted(namesOf(logic, kept)));
	expect(sorted(run.removed)).toEqual(sorted(namesOf(logic, removed)));
}

/** Each name held `count` times by the service. */
export function expectHeld(after: ByName, names: string[], count: number): void {
	for (const name of names)
		expect({ name, held: after.created.get(name) ?? 0 }).toEqual({ name, held: count });
}
