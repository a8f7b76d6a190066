/** The node's memory of what the service did: the execution's record for retries, n8n's store for every run. */
import type { IDataObject, IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { DEFAULT_WINDOW_MINUTES } from '../../helpers/defaults';
import type { OperationDefinition, OutreachRequest } from '../../helpers/interfaces';
import type { Prior } from '../loop/items';
import type { ItemState } from '../loop/loop';
import type { ItemFailure } from '../outcome/failedItem';
import { failureFacts } from '../outcome/failedItem';
import { memoryOffHint, rowFullHint } from '../outcome/hints';
import { doneBeforeItem, storeFailedText } from '../outcome/reRunTexts';
import type { PriorEvent } from '../outcome/runReport';
import type { Connection } from '../../transport/index';
import type { EarlierFailure, ItemForRecord } from './record';
import { digest, ExecutionRecord, fingerprint, itemIdentity, priorOf } from './record';
import type { ProcessedStore } from './store';
import { MOST_ITEMS, processedStoreOf } from './store';

// fresh: nobody met the entry within the Window; unknown: met, never confirmed.
type State = 'fresh' | 'confirmed' | 'unknown';

// This process's own table: who claimed or confirmed an entry, when, and the ID the service gave it.
type Known = { at: number; execution: string; id: string | null; sending?: true };
const known = new Map<string, Known>();
const MOST_KNOWN = 50_000;
const NO_WORDS = { message: '', description: '', statusCode: null, networkError: null };

export const forgetKnown = () => known.clear();

/** Reads keep no memory, nor do tool calls: whether to call again is the caller's choice. */
export async function openMemory(
	context: IExecuteFunctions,
	definition: OperationDefinition,
	connection: Connection,
	asTool: boolean,
) {
	const off = definition.readOnly === true || asTool;
	const node = context.getNode();
	const items = context.getInputData();
	const runIndex = off ? 0 : Number(context.getWorkflowDataProxy(0).$runIndex) || 0;
	const execution = context.getExecutionId() ?? '';
	const options = (node.parameters.requestOptions ?? {}) as IDataObject;
	const group = ((options.skipDoneBefore as IDataObject | undefined)?.keySettings ??
		{}) as IDataObject;
	const minutes = Number(group.windowMinutes ?? DEFAULT_WINDOW_MINUTES);
	const windowMs = (minutes > 0 ? minutes : DEFAULT_WINDOW_MINUTES) * 60_000;
	const hasKey = typeof group.key === 'string' && group.key.trim() !== '';
	const keyOf = (index: number) => {
		const path = 'requestOptions.skipDoneBefore.keySettings.key';
		const value = context.getNodeParameter(path, index, '') as unknown;
		const text = typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
		return text.trim() === '' ? undefined : `key\n${text}`;
	};
	// A schedule or a polling trigger that creates again means to; the user's own Key says what is the same.
	const skipsConfirmed =
		options.repeatRecentCreates !== true && (hasKey || context.getMode() !== 'trigger');
	const operation = `${definition.resource}.${definition.operation}`;
	const { baseUrl } = connection;
	const scope = [operation, baseUrl, connection.credentials.id ?? '', String(runIndex)];
	const record = off
		? undefined
		: new ExecutionRecord(context.getContext('node'), runIndex, baseUrl);
	const earlierTry = record?.isEmpty === false;
	const identities: string[] = [];
	const identityOf = (index: number) =>
		(identities[index] ??= itemIdentity(scope, index, items[index].json));
	const store = off ? undefined : processedStoreOf(context);
	const tag = `t:${execution}:${node.id}:${runIndex}:${Math.random().toString(36).slice(2)}`;
	const rows = store && new Row(store, windowMs, tag);
	const hints: NodeExecutionHint[] = [];
	if (!off && !store) hints.push(memoryOffHint());
	else if (store && items.length > MOST_ITEMS)
		hints.push(rowFullHint(items.length, MOST_ITEMS, windowMs));
	const events: Array<PriorEvent | undefined> = [];
	const choice = (index: number) => () =>
		context.getNodeParameter('requestOptions.unconfirmedEarlierTry', index, '');

	// The same item: the same request (or the user's Key), and its place among identical ones of this input.
	const entryIds: string[] = [];
	const seen = new Map<string, number>();
	const entryFor = (index: number, text: string) => {
		const place = seen.get(text) ?? 0;
		seen.set(text, place + 1);
		return (entryIds[index] = digest([...scope, text, place].join('\n')));
	};
	const entryOf = (index: number, request: OutreachRequest) =>
		entryIds[index] ?? entryFor(index, (hasKey && keyOf(index)) || fingerprint(baseUrl, request));
	const claimed = new Map<number, number>();
	const decided = new Set<number>();
	const forced = new Set<number>();
	const storeFailed = (index: number, error: unknown): Prior => {
		const reason = storeFailedText((error as Error)?.message ?? String(error));
		const failed = new NodeOperationError(node, `Not sent: ${reason}`, { itemIndex: index });
		return { kind: 'fail', failure: { kind: 'notSent', error: failed } };
	};

	// With a Key, every keyed item is claimed at the start, and the claim checked a second later.
	let keyed: Map<string, State> | undefined;
	let keyedFailure: unknown;
	if (rows && hasKey) {
		for (let index = 0; index < items.length; index++) {
			if (index > 0 && index % 32 === 0) await sleep(0);
			const text = keyOf(index);
			if (text !== undefined) entryFor(index, text);
		}
		const bucket = rows.bucket();
		try {
			keyed = await rows.claimAll(entryIds.filter(Boolean));
			entryIds.forEach((id, index) => keyed?.get(id) === 'fresh' && claimed.set(index, bucket));
		} catch (error) {
			keyedFailure = error;
		}
	}

	return {
		windowMs: rows ? windowMs : undefined,
		hints,
		earlierTry,
		prior: (index: number, request: OutreachRequest): Prior | undefined => {
			if (rows) entryOf(index, request);
			const earlier = earlierTry
				? record?.earlierTry(index, identityOf(index), request)
				: undefined;
			const prior = priorOf(earlier, request, index, choice(index));
			events[index] = prior?.event;
			if (prior?.kind === 'send') forced.add(index);
			return prior;
		},
		claim: async (index: number, request: OutreachRequest): Promise<Prior | undefined> => {
			if (!rows || decided.has(index)) return undefined;
			decided.add(index);
			if (keyedFailure !== undefined) return storeFailed(index, keyedFailure);
			const id = entryOf(index, request);
			const fromStart = keyed?.get(id);
			let state: State;
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
				const claimedBy = by?.sending && by.execution !== execution ? by.execution : '';
				const earlier: EarlierFailure = { ...NO_WORDS, windowMs, claimed: claimedBy };
				const prior = priorOf({ kind: 'unknown', earlier }, request, index, choice(index));
				events[index] = prior?.event;
				if (prior?.kind === 'answer') rows.confirm(id);
				return prior?.kind === 'send' ? undefined : prior;
			}
			if (!skipsConfirmed) return undefined;
			const done = by?.sending ? undefined : by;
			const json = doneBeforeItem(request.subject, done, windowMs, Date.now());
			return { kind: 'answer', json, event: 'doneBefore' };
		},
		confirmed(index: number, json: IDataObject): void {
			const id = entryIds[index];
			if (!rows || id === undefined) return;
			rows.confirm(id, claimed.get(index));
			known.delete(id);
			const given = typeof json.id === 'string' || typeof json.id === 'number';
			known.set(id, { at: Date.now(), execution, id: given ? String(json.id) : null });
			for (const [key, entry] of known) {
				if (known.size <= MOST_KNOWN && Date.now() - entry.at < 2 * windowMs) break;
				known.delete(key);
			}
		},
		/** `kept`: n8n may run the node again, so the record keeps what this run did. */
		async finish(states: ItemState[], words: Array<EarlierFailure | undefined>, kept: boolean) {
			const now = states.map((item, index) => forRecord(item, events[index], words[index]));
			if (kept) record?.keep(now, identityOf);
			else record?.drop();
			if (!rows) return;
			const freed: string[] = [];
			for (const [index, bucket] of claimed) {
				const entry = known.get(entryIds[index]);
				if (entry?.sending && entry.execution === execution) known.delete(entryIds[index]);
				if (givenBack(states[index])) freed.push(...rows.claimEntries(entryIds[index], bucket));
			}
			await rows
				.settle(freed)
				.catch((error: Error) =>
					context.logger.warn(
						`Outreach Sequences: n8n's store for processed items failed (${error?.message}); what this run confirmed may not be kept: a later run fails it as unknown.`,
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
	if (item.state !== 'failed') return item.state !== 'done' && item.state !== 'inFlight';
	return item.failure.kind !== 'unknownBefore' && !sentUnconfirmed(item.failure);
}

/** A failure the service did not act on is forgotten, so a retry sends the item again. */
function forRecord(item: ItemState, event?: PriorEvent, words?: EarlierFailure): ItemForRecord {
	if (item.state === 'done' && item.sends > 0)
		return { request: item.request, now: { kind: 'confirmed', answer: item.json } };
	if (item.state === 'done' && event === 'countedAsDone')
		return { request: item.request, now: { kind: 'countedAsDone' } };
	if (item.state !== 'failed' || item.failure.kind === 'unknownBefore') return undefined;
	const { failure } = item;
	if (failure.kind === 'notSent') return undefined;
	if (!sentUnconfirmed(failure) || !words) return 'forget';
	return { request: failure.request, now: { kind: 'unknown', earlier: words } };
}

// Row format: a claim is a c: key in this Window-long bucket and the next; a confirmation, a d: key in its bucket.
// Each write re-checks the run's write before: a key gone (an older read replaced the row) rewrites all it wrote.
class Row {
	private readonly written = new Set<string>();
	private readonly pending: string[] = [];
	private readonly writing = new Set<Promise<unknown>>();
	private previous: string[] = [];
	private lastWriteAt = -Infinity;

	constructor(
		private readonly store: ProcessedStore,
		private readonly windowMs: number,
		private readonly name: string,
	) {}

	bucket = () => Math.floor(Date.now() / this.windowMs);
	private key = (kind: string, id: string, bucket: number) =>
		`${kind}:${this.windowMs}:${bucket}:${id}`;
	claimEntries = (id: string, at: number) => [this.key('c', id, at), this.key('c', id, at + 1)];

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
				left.map((id) => this.key('d', id, at)),
			);
			for (const id of left) if (found.has(this.key('d', id, at))) states.set(id, 'confirmed');
			left = left.filter((id) => !states.has(id));
		}
		const forged = left.flatMap((id) => [this.key('d', id, bucket), this.key('d', id, bucket - 1)]);
		if (forged.length > 0) await this.store.remove(forged);
		for (const id of left) states.set(id, 'unknown');
		return states;
	}

	confirm(id: string, claimedIn?: number): void {
		const bucket = this.bucket();
		this.pending.push(this.key('d', id, bucket));
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
