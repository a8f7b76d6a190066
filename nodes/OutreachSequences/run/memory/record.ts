/** The execution's record: each item's answer or failure, kept in the node's context for n8n's re-runs. */
import { createHash } from 'node:crypto';

import type { IContextObject, IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { EarlierFailure } from '../outcome/failedItem';

export type { EarlierFailure } from '../outcome/failedItem';

export const digest = (text: string) =>
	createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The item's JSON, not its request, so that a changed setting still finds the item. */
export function itemIdentity(scope: string[], itemIndex: number, json: IDataObject): string {
	return digest([...scope, itemIndex, JSON.stringify(json)].join('\n'));
}

export function fingerprint(baseUrl: string, request: OutreachRequest): string {
	return digest(`${baseUrl}\n${request.method} ${request.path}\n${request.body ?? ''}`);
}

export const RECORD_KEY = 'outreachSequencesRecord';
// Saved with the execution, which n8n on MySQL caps at 16 MiB; past this, answers are kept without their text.
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

export type EarlierTry =
	| { kind: 'confirmed'; answer: IDataObject; requestChanged: boolean }
	| { kind: 'confirmedWithoutAnswer' }
	| { kind: 'countedAsDone' }
	| { kind: 'unknown'; earlier: EarlierFailure };

export interface RecordEntry {
	/** Absent in records written before identities: such an entry matches on the exact request alone. */
	item?: string;
	request: string;
	answer?: IDataObject;
	answerDropped?: true;
	countedAsDone?: true;
	unknown?: EarlierFailure;
}

export interface StoredRecord {
	version: 1 | 2;
	runs: Record<string, Record<string, RecordEntry>>;
}

// 'forget': the service did not act on it, so it may go out again; undefined: not reached, its earlier entry stays.
export type ItemForRecord = { request?: OutreachRequest; now: EarlierTry } | 'forget' | undefined;

function isStoredRecord(value: unknown): value is StoredRecord {
	const { version, runs } = (value ?? {}) as Partial<StoredRecord>;
	return (version === 1 || version === 2) && typeof runs === 'object' && runs !== null;
}

function entryOf(item: string, request: string, now: EarlierTry): RecordEntry {
	if (now.kind === 'confirmed') return { item, request, answer: now.answer };
	if (now.kind === 'confirmedWithoutAnswer') return { item, request, answerDropped: true };
	if (now.kind === 'countedAsDone') return { item, request, countedAsDone: true };
	return { item, request, unknown: now.earlier };
}

function earlierTryOf(entry: RecordEntry, requestChanged: boolean): EarlierTry | undefined {
	if (entry.answer) return { kind: 'confirmed', answer: entry.answer, requestChanged };
	if (entry.answerDropped) return { kind: 'confirmedWithoutAnswer' };
	if (entry.countedAsDone) return { kind: 'countedAsDone' };
	return entry.unknown ? { kind: 'unknown', earlier: entry.unknown } : undefined;
}

export class ExecutionRecord {
	constructor(
		private readonly store: IContextObject,
		private readonly runIndex: number,
		private readonly baseUrl: string,
	) {}

	private get entries(): Record<string, RecordEntry> {
		const stored: unknown = this.store[RECORD_KEY];
		return isStoredRecord(stored) ? (stored.runs[String(this.runIndex)] ?? {}) : {};
	}

	get isEmpty(): boolean {
		return Object.keys(this.entries).length === 0;
	}

	earlierTry(
		itemIndex: number,
		identity: string,
		request: OutreachRequest,
	): EarlierTry | undefined {
		const entry = this.entries[String(itemIndex)];
		if (!entry) return undefined;
		const requestChanged = entry.request !== fingerprint(this.baseUrl, request);
		if (entry.item === undefined ? requestChanged : entry.item !== identity) return undefined;
		return earlierTryOf(entry, requestChanged);
	}

	keep(items: ItemForRecord[], identities: (index: number) => string): number {
		const entries: Record<string, RecordEntry> = { ...this.entries };
		items.forEach((item, index) => {
			if (item === 'forget') delete entries[String(index)];
			else if (item)
				entries[String(index)] = entryOf(
					identities(index),
					item.request ? fingerprint(this.baseUrl, item.request) : '',
					item.now,
				);
		});
		let bytes = 0;
		for (const [index, entry] of Object.entries(entries)) {
			const size = JSON.stringify(entry).length + index.length + 4;
			if (entry.answer && bytes + size > MAX_RECORD_BYTES) {
				const kept: RecordEntry = { ...entry, answerDropped: true };
				delete kept.answer;
				entries[index] = kept;
				bytes += JSON.stringify(entries[index]).length + index.length + 4;
			} else bytes += size;
		}
		const stored: unknown = this.store[RECORD_KEY];
		const record: StoredRecord = isStoredRecord(stored) ? stored : { version: 2, runs: {} };
		record.version = 2;
		record.runs[String(this.runIndex)] = entries;
		this.store[RECORD_KEY] = record;
		return bytes;
	}

	drop(): void {
		if (this.store[RECORD_KEY] !== undefined) delete this.store[RECORD_KEY];
	}
}
