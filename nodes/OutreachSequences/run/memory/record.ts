/** The execution's record, kept in the node's context for n8n's re-runs, and what an earlier try means now. */
import { createHash } from 'node:crypto';

import type { IContextObject, IDataObject } from 'n8n-workflow';

import type { OutreachRequest, UnconfirmedName } from '../../helpers/interfaces';
import type { Prior } from '../loop/items';
import type { EarlierFailure } from '../outcome/failedItem';
import type { PriorEvent } from '../outcome/runReport';
import { answerLostItem, countedAsDoneItem } from '../outcome/reRunTexts';

export type { EarlierFailure } from '../outcome/failedItem';

export const digest = (text: string) =>
	createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The item's JSON, not its request, so that a changed setting still finds the item. */
export const itemIdentity = (scope: string[], itemIndex: number, json: IDataObject) =>
	digest([...scope, itemIndex, JSON.stringify(json)].join('\n'));

export const fingerprint = (baseUrl: string, request: OutreachRequest) =>
	digest(`${baseUrl}\n${request.method} ${request.path}\n${request.body ?? ''}`);

export const RECORD_KEY = 'outreachSequencesRecord';
// Saved with the execution, which n8n on MySQL caps at 16 MiB; past this, answers are kept without their text.
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

export type EarlierTry = (
	| { kind: 'confirmed'; answer: IDataObject }
	| { kind: 'confirmedWithoutAnswer' }
	| { kind: 'countedAsDone' }
	| { kind: 'unknown'; earlier: EarlierFailure }
) & { requestChanged?: boolean };

/** Stored by run index, then item index: the try's outcome, the item's identity and its request's fingerprint. */
type Entry = EarlierTry & { item: string; request: string };

// 'forget': the service did not act on it, so it may go out again; undefined: not reached, its earlier entry stays.
export type ItemForRecord = { request: OutreachRequest; now: EarlierTry } | 'forget' | undefined;

export class ExecutionRecord {
	constructor(
		private readonly store: IContextObject,
		private readonly runIndex: number,
		private readonly baseUrl: string,
	) {}

	private get entries(): Record<string, Entry> {
		const stored: unknown = this.store[RECORD_KEY];
		const run = (stored as Record<string, unknown> | undefined)?.[this.runIndex];
		return typeof run === 'object' && run !== null ? (run as Record<string, Entry>) : {};
	}

	get isEmpty(): boolean {
		return Object.keys(this.entries).length === 0;
	}

	earlierTry(index: number, identity: string, request: OutreachRequest): EarlierTry | undefined {
		const entry = this.entries[index];
		if (entry?.item !== identity) return undefined;
		return { ...entry, requestChanged: entry.request !== fingerprint(this.baseUrl, request) };
	}

	keep(items: ItemForRecord[], identities: (index: number) => string): number {
		const entries = { ...this.entries };
		items.forEach((item, index) => {
			if (item === 'forget') delete entries[index];
			else if (item) {
				const request = fingerprint(this.baseUrl, item.request);
				entries[index] = { ...item.now, item: identities(index), request };
			}
		});
		let bytes = 0;
		for (const [index, { kind, item, request }] of Object.entries(entries)) {
			const size = () => JSON.stringify(entries[index]).length + index.length + 4;
			if (kind === 'confirmed' && bytes + size() > MAX_RECORD_BYTES)
				entries[index] = { kind: 'confirmedWithoutAnswer', item, request };
			bytes += size();
		}
		const stored: unknown = this.store[RECORD_KEY];
		this.store[RECORD_KEY] = { ...(stored as object), [this.runIndex]: entries };
		return bytes;
	}

	drop(): void {
		if (this.store[RECORD_KEY] !== undefined) delete this.store[RECORD_KEY];
	}
}

const answer = (json: IDataObject, event: PriorEvent): Prior => ({ kind: 'answer', json, event });

/** What the service confirmed is final: the user's say is only for an unknown outcome. */
export function priorOf(
	earlier: EarlierTry | undefined,
	request: OutreachRequest,
	itemIndex: number,
	choice: () => unknown,
): Prior | undefined {
	if (earlier === undefined) return undefined;
	if (earlier.kind === 'confirmed')
		return answer(earlier.answer, earlier.requestChanged ? 'kept' : 'answered');
	if (earlier.kind === 'confirmedWithoutAnswer')
		return answer(answerLostItem(request.subject), 'answerLost');
	const counted = () => answer(countedAsDoneItem(request.subject), 'countedAsDone');
	if (earlier.kind === 'countedAsDone') return counted();
	const failure = { kind: 'unknownBefore' as const, request, earlier: earlier.earlier, itemIndex };
	let said: UnconfirmedName;
	try {
		said = unconfirmedOf(choice());
	} catch (unconfirmedError) {
		return { kind: 'fail', failure: { ...failure, unconfirmedError }, event: 'failedAgain' };
	}
	if (said === 'countAsDone') return counted();
	if (said === 'sendAgain') return { kind: 'send', event: 'sentAgain' };
	return { kind: 'fail', failure, event: 'failedAgain' };
}

export const unconfirmedOf = (value: unknown): UnconfirmedName =>
	value === 'sendAgain' || value === 'countAsDone' ? value : 'fail';
