/**
 * The record: what the service confirmed (a 2xx answer) in an earlier try of
 * this execution, kept in the node's context, which n8n saves with the
 * execution. When n8n runs the node again (Retry On Fail, or Executions ›
 * Retry), an item whose request is exactly one the record holds for it is
 * answered from here instead of being sent again.
 *
 * Entries are per run index and item index, each with a fingerprint of the
 * exact request (Base URL, method, path, body): a changed request is a new
 * one, and a node in a loop never takes another run's answers. It holds no
 * key. Its answers are bounded by MAX_RECORD_BYTES.
 */
import { createHash } from 'node:crypto';

import type { IContextObject, IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../describe/types';

/** Where the record lives in the node's context. */
export const RECORD_KEY = 'outreachSequencesRecord';
/**
 * The most the record of one run holds, in characters of JSON. It is saved
 * with the execution, and n8n 1.x on MySQL keeps a whole execution in 16 MiB.
 * Past it, an answer is recorded as confirmed, without its text.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** One item's entry: the request's fingerprint, and what the service did with it. */
export interface RecordEntry {
	request: string;
	/** The service's answer, when it confirmed the request. */
	answer?: IDataObject;
	/** Confirmed, but the answer was past MAX_RECORD_BYTES and is not kept. */
	answerDropped?: true;
}

/** The record as it is stored: entries by run index, then by item index. */
export interface StoredRecord {
	version: 1;
	runs: Record<string, Record<string, RecordEntry>>;
}

/** What an earlier try did with an item's request. */
export type EarlierTry =
	/** The service confirmed it: this is its answer. */
	| { kind: 'confirmed'; answer: IDataObject }
	/** The service confirmed it, but its answer was too large to keep. */
	| { kind: 'confirmedWithoutAnswer' }
	/** It was sent, and the service did not confirm it. */
	| { kind: 'sent' };

/** How one item of this try ended, as the record keeps it. */
export type ItemForRecord =
	| { request: OutreachRequest; confirmed: IDataObject }
	| { request: OutreachRequest; sent: true }
	/** Not reached in this try: what an earlier try recorded for it stays. */
	| undefined;

/** The fingerprint of a request: the same request to the same service gives the same text. */
export function fingerprint(baseUrl: string, request: OutreachRequest): string {
	return createHash('sha256')
		.update(`${baseUrl}\n${request.method} ${request.path}\n${request.body ?? ''}`)
		.digest('base64url')
		.slice(0, 22);
}

function isStoredRecord(value: unknown): value is StoredRecord {
	const candidate = value as StoredRecord | undefined;
	return (
		typeof candidate === 'object' &&
		candidate !== null &&
		candidate.version === 1 &&
		typeof candidate.runs === 'object' &&
		candidate.runs !== null
	);
}

/** The record of one run index of this node, read from and written to the node's context. */
export class ExecutionRecord {
	private constructor(
		private readonly store: IContextObject,
		private readonly runIndex: number,
		private readonly baseUrl: string,
	) {}

	/** The record of `runIndex` in the node's context `store`. */
	static open(store: IContextObject, runIndex: number, baseUrl: string): ExecutionRecord {
		return new ExecutionRecord(store, runIndex, baseUrl);
	}

	private get entries(): Record<string, RecordEntry> {
		const stored: unknown = this.store[RECORD_KEY];
		return isStoredRecord(stored) ? (stored.runs[String(this.runIndex)] ?? {}) : {};
	}

	/** Whether an earlier try left anything for this run. */
	get isEmpty(): boolean {
		return Object.keys(this.entries).length === 0;
	}

	/** What an earlier try did with exactly this request for this item; undefined when it did not send it. */
	earlierTry(itemIndex: number, request: OutreachRequest): EarlierTry | undefined {
		const entry = this.entries[String(itemIndex)];
		if (!entry || entry.request !== fingerprint(this.baseUrl, request)) return undefined;
		if (entry.answer) return { kind: 'confirmed', answer: entry.answer };
		return entry.answerDropped ? { kind: 'confirmedWithoutAnswer' } : { kind: 'sent' };
	}

	/**
	 * Keeps what this try did, over what earlier tries did: an item this try
	 * did not reach keeps its earlier entry. Answers past MAX_RECORD_BYTES are
	 * kept as confirmed, without their text. Returns the record's size, in characters of JSON.
	 */
	keep(items: ItemForRecord[]): number {
		const entries: Record<string, RecordEntry> = { ...this.entries };
		items.forEach((item, index) => {
			if (!item) return;
			const request = fingerprint(this.baseUrl, item.request);
			entries[String(index)] =
				'confirmed' in item ? { request, answer: item.confirmed } : { request };
		});
		let bytes = 0;
		for (const [index, entry] of Object.entries(entries)) {
			const size = JSON.stringify(entry).length + index.length + 4;
			if (entry.answer && bytes + size > MAX_RECORD_BYTES) {
				entries[index] = { request: entry.request, answerDropped: true };
				bytes += JSON.stringify(entries[index]).length + index.length + 4;
			} else bytes += size;
		}
		const stored: unknown = this.store[RECORD_KEY];
		const record: StoredRecord = isStoredRecord(stored) ? stored : { version: 1, runs: {} };
		record.runs[String(this.runIndex)] = entries;
		this.store[RECORD_KEY] = record;
		return bytes;
	}

	/** A run that succeeded: n8n will not run it again, so nothing is kept. */
	drop(): void {
		if (this.store[RECORD_KEY] !== undefined) delete this.store[RECORD_KEY];
	}
}
