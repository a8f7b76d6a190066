/** The execution's record: each item's answer or failure in the node's context, saved with the execution, for n8n's re-runs. */
import { createHash } from 'node:crypto';

import type { IContextObject, IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { EarlierFailure } from '../outcome/failedItem';

export type { EarlierFailure } from '../outcome/failedItem';

export const digest = (text: string) =>
	createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The identity of input item `itemIndex` in the record: its JSON, so that a changed setting keeps the item. */
export function itemIdentity(scope: string[], itemIndex: number, json: IDataObject): string {
	return digest([...scope, itemIndex, JSON.stringify(json)].join('\n'));
}

/** The fingerprint of a request: the same request to the same service gives the same text. */
export function fingerprint(baseUrl: string, request: OutreachRequest): string {
	return digest(`${baseUrl}\n${request.method} ${request.path}\n${request.body ?? ''}`);
}

/** Where the record lives in the node's context. */
export const RECORD_KEY = 'outreachSequencesRecord';
/**
 * The most the record of one run holds, in characters of JSON. It is saved
 * with the execution, and n8n 1.x on MySQL keeps a whole execution in 16 MiB.
 * Past it, an answer is recorded as confirmed, without its text.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** What an earlier try did with an item. */
export type EarlierTry =
	/** The service confirmed it: this is its answer; the request may have changed since. */
	| { kind: 'confirmed'; answer: IDataObject; requestChanged: boolean }
	/** The service confirmed it, but its answer was too large to keep. */
	| { kind: 'confirmedWithoutAnswer' }
	/** The user counted it as done (Request Options › Unconfirmed Earlier Try). */
	| { kind: 'countedAsDone' }
	/** It was sent, and the service may have acted on it: nobody knows whether it did. */
	| { kind: 'unknown'; earlier: EarlierFailure };

/** One item's entry: whose it is, its last request's fingerprint, and what came of it. */
export interface RecordEntry {
	/** The item's identity (itemIdentity.ts); absent in records written before identities. */
	item?: string;
	request: string;
	answer?: IDataObject;
	/** Confirmed, without its answer: past MAX_RECORD_BYTES. */
	answerDropped?: true;
	countedAsDone?: true;
	unknown?: EarlierFailure;
}

/** The record as it is stored: entries by run index, then by item index. */
export interface StoredRecord {
	version: 1 | 2;
	runs: Record<string, Record<string, RecordEntry>>;
}

/** How one item of this try ended, as the record keeps it. */
export type ItemForRecord =
	/** What is known of the item now, and the request it was last sent or answered for (none: this try did not reach it). */
	| { request?: OutreachRequest; now: EarlierTry }
	/** Nothing to keep: the service did not act on it, so it may go out again. */
	| 'forget'
	/** Not reached in this try: what an earlier try recorded for it stays. */
	| undefined;

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

/** The record of one run index of this node, read from and written to the node's context. */
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

	/** Whether an earlier try left anything for this run. */
	get isEmpty(): boolean {
		return Object.keys(this.entries).length === 0;
	}

	/**
	 * What an earlier try did with this item (`identity`), whose request is
	 * now `request`; undefined when nothing of it is kept. An entry written
	 * before identities matches on the exact request alone.
	 */
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

	/**
	 * Keeps what this try did, over what earlier tries did: an item this try
	 * did not reach keeps its earlier entry. `identities` gives each item's
	 * identity. Answers past MAX_RECORD_BYTES are kept as confirmed, without
	 * their text. Returns the record's size, in characters of JSON.
	 */
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

	/** A run that succeeded: n8n will not run it again, so nothing is kept. */
	drop(): void {
		if (this.store[RECORD_KEY] !== undefined) delete this.store[RECORD_KEY];
	}
}
