/**
 * The node's memory of what it did, opened from n8n for one run: the record
 * (earlier tries of this execution, memory/record.ts, in the node's
 * context), the journal (a try n8n could not finish, memory/journal.ts) and
 * the done keys (earlier executions, memory/doneKeys.ts), both in n8n's
 * store for processed items, and the creates this node made lately, in this
 * n8n process (memory/recentCreates.ts). Before an item is sent, it says what to do with
 * it instead (memory/reRun.ts); at the end, it keeps what the run did.
 */
import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Field } from '../../helpers/names';
import type { OperationDefinition, OutreachRequest } from '../../helpers/interfaces';
import type { ItemState } from '../loop/loop';
import { keyOutcomes } from './doneKeys';
import type { IdentityScope } from './itemIdentity';
import { itemIdentity } from './itemIdentity';
import { Journal } from './journal';
import type { Journaled } from './journal';
import type { EarlierFailure, ExecutionRecord } from './record';
import type { Prior, PriorEvent } from './reRun';
import { keyPriorOf, priorOf, unconfirmedOf } from './reRun';
import { storeFailedText } from '../outcome/reRunTexts';
import type { Connection } from '../../transport/index';
import { crashedTry, forRecord, openRecord, runIndexOf } from './memoryParts';
import { keyOutcomeOf, openKeys } from './memoryKeys';
import { openRecent } from './memoryRecent';
import { processedStoreOf } from './store';

export interface Memory {
	/** What to do with item `index` instead of sending `request`; undefined: send it. */
	prior(index: number, request: OutreachRequest): Prior | undefined;
	/** Before item `index` goes out (the journal's mark). */
	beforeSend(index: number): Promise<void> | undefined;
	/** The service confirmed item `index`, answering `json`. */
	confirmed(index: number, json: IDataObject): void;
	/** The run ended: keep what it did (`kept`: n8n may run the node again), `words` being each failed item's. */
	finish(
		items: ItemState[],
		words: (index: number) => EarlierFailure | undefined,
		kept: boolean,
	): Promise<void>;
	/** Request Options › Skip Items Done Before is set. */
	doneKeysSet: boolean;
	/** Running the workflow again by hand or by a webhook skips what this run creates, for a while (recentCreates.ts). */
	recentCreates: boolean;
	/** Warnings for the output pane from opening the memory (keys pushed out of the row). */
	hints: NodeExecutionHint[];
	/** An earlier try of this execution left something for this run: in the record, or in the journal. */
	earlierTry: boolean;
}

const NONE: Memory = {
	prior: () => undefined,
	beforeSend: () => undefined,
	confirmed: () => undefined,
	finish: async () => undefined,
	doneKeysSet: false,
	recentCreates: false,
	hints: [],
	earlierTry: false,
};

/**
 * The memory of this run. Get Use Case, which changes nothing, and a tool
 * call, the caller's to repeat, keep none. `meanwhile`: what the run does
 * while its keys' claim settles (memoryKeys.ts).
 */
export async function openMemory(
	context: IExecuteFunctions,
	definition: OperationDefinition,
	connection: Connection,
	asTool: boolean,
	groupSize: number,
	meanwhile?: (ms: number) => Promise<void>,
): Promise<Memory> {
	if (definition.readOnly || asTool) return NONE;
	const node = context.getNode();
	const items = context.getInputData();
	const runIndex = runIndexOf(context);
	const scope: IdentityScope = {
		operation: `${definition.resource}.${definition.operation}`,
		baseUrl: connection.baseUrl,
		credentialId: connection.credentials.id ?? '',
		runIndex,
	};
	let identities: string[] | undefined;
	const allIdentities = () =>
		(identities ??= items.map((item, index) => itemIdentity(scope, index, item.json)));
	const opened = openRecord(context, runIndex, connection.baseUrl);
	const record: ExecutionRecord | undefined = opened;
	const recordKnows = opened !== undefined && !opened.isEmpty;
	const reasonOf = (error: unknown) => (error as Error)?.message ?? String(error);
	const warn = (what: string) => (error: unknown) =>
		context.logger.warn(
			`Outreach Sequences: n8n's store for processed items failed (${reasonOf(error)}); ${what}`,
		);
	const runKeys = await openKeys(
		context,
		`${scope.operation}\n${scope.baseUrl}\n${scope.credentialId}`,
		`${context.getExecutionId()}:${node.id}:${runIndex}:${Math.random()}`,
		warn,
		meanwhile,
	);
	const keySettings = runKeys?.settings;
	const recent = definition.makesNew
		? openRecent(context, connection.baseUrl, scope.credentialId, keySettings !== undefined)
		: undefined;
	const keys = runKeys?.keys ?? [];
	const doneKeys = runKeys?.doneKeys;
	const keyProblem = runKeys?.problem;

	let journalError: unknown;
	const store = processedStoreOf(context);
	// With Skip Items Done Before, the keys are the run's journal: their claims say what it was about to
	// send, their done marks what the service confirmed, and both fit the row (doneKeys.ts).
	const journal =
		store && !runKeys
			? new Journal(
					store,
					allIdentities(),
					groupSize,
					(error) => {
						journalError = error;
						warn('the items not yet written down as about to be sent are not sent.')(error);
					},
					Date.now,
				)
			: undefined;
	const lookedUp =
		journal && context.getMode() === 'retry'
			? await journal.lookUp()
			: new Map<number, Journaled>();
	// A retry that can't read what a crashed try sent sends nothing: it can't tell what is safe.
	const journalProblem = lookedUp ? undefined : storeFailedText(reasonOf(journalError));
	const crashed = lookedUp ?? new Map<number, Journaled>();

	const crashedEarlier = (index: number) => {
		const mark = crashed.get(index);
		return mark && crashedTry(mark);
	};
	const events: Array<PriorEvent | undefined> = [];
	/** What each item's done key led to, when it led to anything. */
	const keyEvents: Array<PriorEvent | undefined> = [];
	const notSentError = (index: number, problem: string) =>
		new NodeOperationError(node, `Not sent: ${problem}`, { itemIndex: index });
	const unsent = (index: number, problem: string): Prior => ({
		kind: 'fail',
		failure: { kind: 'notSent', error: notSentError(index, problem) },
	});
	return {
		doneKeysSet: keySettings !== undefined,
		recentCreates: recent?.skipsLately === true,
		hints: runKeys?.hint ? [runKeys.hint] : [],
		earlierTry: recordKnows || crashed.size > 0,
		prior(index, request) {
			const earlier =
				crashedEarlier(index) ??
				(recordKnows ? record?.earlierTry(index, allIdentities()[index], request) : undefined);
			const choice = () =>
				unconfirmedOf(
					context.getNodeParameter(`${Field.requestOptions}.${Field.unconfirmed}`, index, ''),
				);
			const byKey = (key: string) => {
				const verdict = runKeys?.verdicts.get(key);
				const found = keyPriorOf(verdict, key, request, keySettings?.windowMs ?? 0, index, choice);
				keyEvents[index] = found?.event;
				return found;
			};
			const prior = priorOf(earlier, request, index, choice);
			events[index] = prior?.event;
			if (journalProblem) return unsent(index, journalProblem);
			if (prior && prior.kind !== 'send') return prior;
			if (!keySettings) return recent?.prior(index, request) ?? prior;
			if (keyProblem) return unsent(index, keyProblem);
			const key = keys[index];
			if (key === undefined)
				return unsent(index, `the Key of ${keySettings.name} is empty for this item.`);
			return byKey(key) ?? prior;
		},
		beforeSend: (index) => {
			doneKeys?.tick();
			return journal?.beforeSend(index)?.catch((error: unknown) => {
				throw notSentError(index, storeFailedText(reasonOf(error)));
			});
		},
		confirmed: (index, json) => {
			const key = keys[index];
			if (key !== undefined) doneKeys?.confirmed(key);
			journal?.confirmed(index);
			recent?.confirmed(index, json);
		},
		async finish(loopItems, words, kept) {
			recent?.finish();
			if (record && kept)
				record.keep(
					loopItems.map((item, index) =>
						forRecord(item, events[index], crashedEarlier(index), words(index)),
					),
					(index) => allIdentities()[index],
				);
			else record?.drop();
			await journal?.clear();
			const outcomes = keyOutcomes(keys, (index) =>
				keyOutcomeOf(loopItems[index], keyEvents[index]),
			);
			await doneKeys
				?.settle(outcomes)
				.catch(
					warn(
						'the keys of this run may not be kept: the next execution fails those it finds unsettled as unknown.',
					),
				);
		},
	};
}
