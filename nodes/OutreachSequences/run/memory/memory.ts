/** The node's memory of what the service did: the execution's record for retries, n8n's store for every run. */
import type { IDataObject, IExecuteFunctions, INode, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { DEFAULT_WINDOW_MINUTES } from '../../helpers/defaults';
import type { OperationDefinition, OutreachRequest } from '../../helpers/interfaces';
import type { ItemState } from '../loop/loop';
import type { ItemFailure } from '../outcome/failedItem';
import { failureFacts } from '../outcome/failedItem';
import { memoryOffHint, rowFullHint } from '../outcome/hints';
import { doneBeforeItem, storeFailedText } from '../outcome/reRunTexts';
import type { Connection } from '../../transport/index';
import type { EarlierFailure, ItemForRecord } from './record';
import { digest, ExecutionRecord, fingerprint, itemIdentity } from './record';
import type { Prior } from '../loop/items';
import type { PriorEvent } from '../outcome/runReport';
import { priorOf, unconfirmedOf } from './reRun';
import type { ProcessedStore } from './store';
import { MOST_ITEMS, processedStoreOf } from './store';

// fresh: nobody met the entry within the Window; unknown: met, never confirmed.
type State = 'fresh' | 'confirmed' | 'unknown';

export interface Memory {
	prior(index: number, request: OutreachRequest): Prior | undefined;
	claim(index: number, request: OutreachRequest): Promise<Prior | undefined>;
	confirmed(index: number, json: IDataObject): void;
	/** `kept`: n8n may run the node again, so the record keeps what this run did. */
	finish(
		items: ItemState[],
		words: (index: number) => EarlierFailure | undefined,
		kept: boolean,
	): Promise<void>;
	windowMs?: number;
	hints: NodeExecutionHint[];
	earlierTry: boolean;
}

const NONE: Memory = {
	prior: () => undefined,
	claim: async () => undefined,
	confirmed: () => undefined,
	finish: async () => undefined,
	hints: [],
	earlierTry: false,
};

// This process's own table: who claimed or confirmed an entry, when, and the ID the service gave it.
interface Known {
	at: number;
	execution: string;
	id: string | null;
	sending?: true;
}
const known = new Map<string, Known>();
const MOST_KNOWN = 50_000;

export function forgetKnown(): void {
	known.clear();
}

function runIndexOf(context: IExecuteFunctions): number {
	try {
		const runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
		return Number.isInteger(runIndex) ? runIndex : 0;
	} catch {
		return 0;
	}
}

function settingsOf(context: IExecuteFunctions, node: INode) {
	const options = (node.parameters.requestOptions ?? {}) as IDataObject;
	const group = (options.skipDoneBefore as IDataObject | undefined)?.keySettings as
		| IDataObject
		| undefined;
	const minutes = Number(group?.windowMinutes ?? DEFAULT_WINDOW_MINUTES);
	const hasKey = typeof group?.key === 'string' && group.key.trim() !== '';
	return {
		windowMs: (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_WINDOW_MINUTES) * 60_000,
		keyOf: hasKey
			? (index: number) => {
					const value = context.getNodeParameter(
						'requestOptions.skipDoneBefore.keySettings.key',
						index,
						'',
					) as unknown;
					const text = typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
					return text.trim() === '' ? undefined : `key\n${text}`;
				}
			: undefined,
		// A schedule or a polling trigger that creates again means to; the user's own Key says what is the same.
		skipsConfirmed:
			options.repeatRecentCreates !== true && (hasKey || context.getMode() !== 'trigger'),
	};
}

/** Reads keep no memory, nor do tool calls: whether to call again is the caller's choice. */
export async function openMemory(
	context: IExecuteFunctions,
	definition: OperationDefinition,
	connection: Connection,
	asTool: boolean,
): Promise<Memory> {
	if (definition.readOnly || asTool) return NONE;
	const node = context.getNode();
	const items = context.getInputData();
	const runIndex = runIndexOf(context);
	const execution = context.getExecutionId() ?? '';
	const settings = settingsOf(context, node);
	const scope = [
		`${definition.resource}.${definition.operation}`,
		connection.baseUrl,
		connection.credentials.id ?? '',
		String(runIndex),
	];
	let record: ExecutionRecord | undefined;
	try {
		record = new ExecutionRecord(context.getContext('node'), runIndex, connection.baseUrl);
	} catch {
		record = undefined;
	}
	const recordKnows = record !== undefined && !record.isEmpty;
	const identities: string[] = [];
	const identityOf = (index: number) =>
		(identities[index] ??= itemIdentity(scope, index, items[index].json));
	const store = processedStoreOf(context);
	const rows = store && new Row(store, settings.windowMs, `${execution}:${node.id}:${runIndex}`);
	const hints: NodeExecutionHint[] = [];
	if (!store) hints.push(memoryOffHint());
	else if (items.length > MOST_ITEMS)
		hints.push(rowFullHint(items.length, MOST_ITEMS, settings.windowMs));
	const events: Array<PriorEvent | undefined> = [];
	const choice = (index: number) => () =>
		unconfirmedOf(context.getNodeParameter('requestOptions.unconfirmedEarlierTry', index, ''));

	// The same item: the same request (or the user's Key), and its place among identical ones of this input.
	const entryIds: string[] = [];
	const seen = new Map<string, number>();
	const entryFor = (index: number, text: string) => {
		const place = seen.get(text) ?? 0;
		seen.set(text, place + 1);
		return (entryIds[index] = digest([...scope, text, place].join('\n')));
	};
	const entryOf = (index: number, request: OutreachRequest) =>
		entryIds[index] ??
		entryFor(index, settings.keyOf?.(index) ?? fingerprint(connection.baseUrl, request));
	const claimed = new Map<number, number>();
	const decided = new Set<number>();
	const forced = new Set<number>();
	const storeFailed = (index: number, error: unknown): Prior => ({
		kind: 'fail',
		failure: {
			kind: 'notSent',
			error: new NodeOperationError(
				node,
				`Not sent: ${storeFailedText((error as Error)?.message ?? String(error))}`,
				{ itemIndex: index },
			),
		},
	});

	let keyed: Map<string, State> | undefined;
	let keyedFailure: unknown;
	if (rows && settings.keyOf) {
		for (let index = 0; index < items.length; index++) {
			if (index > 0 && index % 32 === 0) await sleep(0);
			const text = settings.keyOf(index);
			if (text !== undefined) entryFor(index, text);
		}
		const bucket = rows.bucket();
		try {
			keyed = await rows.claimAll(entryIds.filter((id) => id !== undefined));
			entryIds.forEach((id, index) => {
				if (keyed?.get(id) === 'fresh') claimed.set(index, bucket);
			});
		} catch (error) {
			keyedFailure = error;
		}
	}

	return {
		windowMs: rows ? settings.windowMs : undefined,
		hints,
		earlierTry: recordKnows,
		prior(index, request) {
			entryOf(index, request);
			const earlier = recordKnows
				? record?.earlierTry(index, identityOf(index), request)
				: undefined;
			const prior = priorOf(earlier, request, index, choice(index));
			events[index] = prior?.event;
			if (prior?.kind === 'send') forced.add(index);
			return prior;
		},
		async claim(index, request) {
			if (!rows || decided.has(index)) return undefined;
			decided.add(index);
			const id = entryOf(index, request);
			let state: State;
			if (keyedFailure !== undefined && settings.keyOf?.(index) !== undefined)
				return storeFailed(index, keyedFailure);
			const fromStart = keyed?.get(id);
			if (fromStart !== undefined) state = forced.has(index) ? 'fresh' : fromStart;
			else
				try {
					claimed.set(index, rows.bucket());
					state = await rows.claim(id, forced.has(index));
				} catch (error) {
					claimed.delete(index);
					return storeFailed(index, error);
				}
			const by = known.get(id);
			if (state === 'fresh') {
				known.set(id, { at: Date.now(), execution, id: null, sending: true });
				return undefined;
			}
			if (state === 'unknown') {
				const earlier: EarlierFailure = {
					message: '',
					description: '',
					statusCode: null,
					networkError: null,
					claimed: by?.sending && by.execution !== execution ? by.execution : '',
					windowMs: settings.windowMs,
				};
				const prior = priorOf({ kind: 'unknown', earlier }, request, index, choice(index));
				events[index] = prior?.event;
				if (prior?.kind === 'answer') rows.confirm(id);
				return prior?.kind === 'send' ? undefined : prior;
			}
			if (!settings.skipsConfirmed) return undefined;
			const json = doneBeforeItem(
				request.subject,
				by?.sending ? undefined : by,
				settings.windowMs,
				Date.now(),
			);
			return { kind: 'answer', json, event: 'doneBefore' };
		},
		confirmed(index, json) {
			const id = entryIds[index];
			if (!rows || id === undefined) return;
			rows.confirm(id, claimed.get(index));
			known.delete(id);
			known.set(id, {
				at: Date.now(),
				execution,
				id: typeof json.id === 'string' || typeof json.id === 'number' ? String(json.id) : null,
			});
			for (const [key, entry] of known) {
				if (known.size <= MOST_KNOWN && Date.now() - entry.at < 2 * settings.windowMs) break;
				known.delete(key);
			}
		},
		async finish(loopItems, words, kept) {
			if (record && kept)
				record.keep(
					loopItems.map((item, index) => forRecord(item, events[index], words(index))),
					identityOf,
				);
			else record?.drop();
			if (!rows) return;
			const freed: string[] = [];
			for (const [index, bucket] of claimed) {
				const id = entryIds[index];
				const entry = known.get(id);
				if (entry?.sending && entry.execution === execution) known.delete(id);
				if (givenBack(loopItems[index])) freed.push(...rows.claimEntries(id, bucket));
			}
			await rows
				.settle(freed)
				.catch((error: unknown) =>
					context.logger.warn(
						`Outreach Sequences: n8n's store for processed items failed (${(error as Error)?.message ?? String(error)}); what this run confirmed may not be kept: a later run fails it as unknown.`,
					),
				);
		},
	};
}

// Sent, and the service may have acted on it: it stays claimed, and its record keeps its words.
function sentUnconfirmed(failure: ItemFailure): boolean {
	const facts = failureFacts(failure);
	return facts.outcome === 'mayHaveActed' && facts.timesSent > 0;
}

/** The service did not act on it (an item waiting to go again met a failure safe to send again): its claim goes. */
function givenBack(item: ItemState): boolean {
	if (item.state === 'done' || item.state === 'inFlight') return false;
	if (item.state !== 'failed') return true;
	return item.failure.kind !== 'unknownBefore' && !sentUnconfirmed(item.failure);
}

/** A failure the service did not act on is forgotten, so a retry sends the item again. */
function forRecord(
	item: ItemState,
	event: PriorEvent | undefined,
	words: EarlierFailure | undefined,
): ItemForRecord {
	if (item.state === 'done') {
		const { request } = item;
		if (item.sends > 0)
			return { request, now: { kind: 'confirmed', answer: item.json, requestChanged: false } };
		return event === 'countedAsDone' ? { request, now: { kind: 'countedAsDone' } } : undefined;
	}
	if (item.state !== 'failed') return undefined;
	const { failure } = item;
	if (failure.kind === 'unknownBefore' || failure.kind === 'notSent') return undefined;
	if (sentUnconfirmed(failure) && words)
		return { request: failure.request, now: { kind: 'unknown', earlier: words } };
	return 'forget';
}

// Row format: a claim is a c: key in this Window-long bucket and the next; a confirmation, a d: key in its bucket.
// Each write re-checks the run's write before: a key gone (an older read replaced the row) rewrites all it wrote.
class Row {
	private readonly written = new Set<string>();
	private readonly pending: string[] = [];
	private readonly name: string;
	private previous: string[] = [];
	private lastWriteAt = -Infinity;
	private readonly writing = new Set<Promise<unknown>>();

	constructor(
		private readonly store: ProcessedStore,
		private readonly windowMs: number,
		tag: string,
	) {
		this.name = `t:${tag}:${Math.random().toString(36).slice(2)}`;
	}

	bucket(at = Date.now()): number {
		return Math.floor(at / this.windowMs);
	}

	claimEntries(id: string, bucket: number): string[] {
		return [`c:${this.windowMs}:${bucket}:${id}`, `c:${this.windowMs}:${bucket + 1}:${id}`];
	}

	private done(id: string, bucket: number): string {
		return `d:${this.windowMs}:${bucket}:${id}`;
	}

	async claim(id: string, forced: boolean): Promise<State> {
		const claim = this.claimEntries(id, this.bucket());
		const there = await this.write(claim);
		if (forced || !claim.some((entry) => there.has(entry))) return 'fresh';
		return (await this.looks([id])).get(id) ?? 'unknown';
	}

	/** Claims every id at once and checks a second later that the claim stood; unclaimed after three tries, an id is unknown. */
	async claimAll(ids: string[]): Promise<Map<string, State>> {
		const states = new Map<string, State>();
		const bucket = this.bucket();
		let claiming = ids;
		for (let round = 0; claiming.length > 0 && round < 3; round++) {
			const tag = `${this.name}:${round}`;
			// Not kept until the check: a write of this run's own must not bring back a claim another's replaced.
			const claims = claiming.flatMap((id) => this.claimEntries(id, bucket));
			const there = await this.write([], [...claims, tag]);
			const met = claiming.filter((id) =>
				this.claimEntries(id, bucket).some((entry) => there.has(entry)),
			);
			for (const [id, state] of await this.looks(met)) states.set(id, state);
			await sleep(1000);
			const mine = claiming.filter((id) => !states.has(id));
			if ((await this.store.checkAndRecord([tag])).has(tag)) {
				for (const entry of claims) this.written.add(entry);
				for (const id of mine) states.set(id, 'fresh');
				claiming = [];
			} else claiming = mine;
		}
		for (const id of claiming) states.set(id, 'unknown');
		return states;
	}

	/** Looks for d: in this bucket, then the one before; checking records the key, so misses are removed again. */
	private async looks(ids: string[]): Promise<Map<string, State>> {
		const states = new Map<string, State>();
		const bucket = this.bucket();
		let left = ids;
		for (const at of [bucket, bucket - 1]) {
			if (left.length === 0) break;
			const found = await this.write(
				[],
				left.map((id) => this.done(id, at)),
			);
			for (const id of left) if (found.has(this.done(id, at))) states.set(id, 'confirmed');
			left = left.filter((id) => !states.has(id));
		}
		const forged = left.flatMap((id) => [this.done(id, bucket), this.done(id, bucket - 1)]);
		if (forged.length > 0) await this.store.remove(forged);
		for (const id of left) states.set(id, 'unknown');
		return states;
	}

	confirm(id: string, claimedIn?: number): void {
		const bucket = this.bucket();
		this.pending.push(this.done(id, bucket));
		if (claimedIn !== undefined && claimedIn < bucket)
			this.pending.push(...this.claimEntries(id, bucket));
		if (Date.now() - this.lastWriteAt >= 1000) void this.write([]).catch(() => undefined);
	}

	async settle(givenBack: string[]): Promise<void> {
		await Promise.allSettled(this.writing);
		if (this.pending.length > 0 || this.written.size > 0) await this.write([]);
		const gone = givenBack.filter((entry) => this.written.delete(entry));
		if (gone.length > 0) await this.store.remove(gone);
	}

	/** Writes `kept` and what is confirmed, checking the write before; `unkept` is recorded, never written again. */
	private write(kept: string[], unkept: string[] = []): Promise<Set<string>> {
		this.lastWriteAt = Date.now();
		const mine = [...kept, ...this.pending.splice(0)];
		const check = this.previous;
		if (mine.length > 0) this.previous = mine;
		const keys = [...new Set([...unkept, ...mine, ...check])];
		const call = (async () => {
			if (keys.length === 0) return new Set<string>();
			const there = await this.store.checkAndRecord(keys);
			for (const key of mine) this.written.add(key);
			if (check.some((key) => !there.has(key))) await this.write([...this.written]);
			return there;
		})();
		this.writing.add(call);
		void call.finally(() => this.writing.delete(call)).catch(() => undefined);
		return call;
	}
}
