/**
 * The journal: what this try sent and what the service confirmed, written to
 * n8n's database (processedStore.ts) as the run goes. The record (record.ts)
 * is saved with the execution when the node ends; a crash (n8n killed, a
 * worker lost) takes it along, but not the journal. When n8n then retries
 * the crashed execution (its mode `retry`), the journal tells which items
 * that try confirmed, and which it sent without an answer.
 *
 * Items are marked sent a group at a time, before the first of them takes its
 * turn: as many as went out in the last second (GROUP_SPAN_MS), so that a
 * slow run marks few that it has not sent yet, and a fast one writes n8n's
 * database about once a second. Once the run is half-way through a group,
 * and half a second has passed since it was marked, the next group is marked,
 * so that its items find their mark written and need not wait for the
 * database. Confirmations go with the next write, or on their own once a
 * second has passed since the last. A try that ends (however it ends) takes
 * its marks out again, and the record takes over.
 *
 * A store that fails fails closed: an item whose mark could not be written is
 * not sent (its wait rejects with the store's error), and a retry whose look-up
 * failed knows nothing, so it sends nothing (memory.ts).
 */
import type { ProcessedStore } from './processedStore';
import { FEW_KEYS } from './processedStore';

/** A group is what went out in this long, so that a crash finds few items marked that were not sent. */
export const GROUP_SPAN_MS = 1000;

/** What a try that n8n could not finish left of an item. */
export type Journaled = 'confirmed' | 'sent';

const sentKey = (identity: string) => `sent:${identity}`;
const confirmedKey = (identity: string) => `confirmed:${identity}`;

export class Journal {
	/** Items [0, markedUpTo) are marked sent, or being marked; [0, writtenUpTo) are written. */
	private markedUpTo = 0;
	private writtenUpTo = 0;
	/** When the latest group was marked, where it began, the item that was going out then, and its size. */
	private lastMark: { at: number; from: number; reached: number; size: number } | undefined;
	/** When the last write went to the store. */
	private lastWriteAt = -Infinity;
	/** The writes that mark groups, until each is done: an item waits for the one that marks it. */
	private marking: Array<{ end: number; done: Promise<void> }> = [];
	private readonly confirmations: string[] = [];
	/** Every key this journal put in the store, or found there, to take out at the end. */
	private readonly written = new Set<string>();
	private queue: Promise<void> = Promise.resolve();
	/** This try's own mark, in every write: gone means the row lost what this try wrote. */
	private readonly sentinel = `alive:${Math.random().toString(36).slice(2)}:${Date.now()}`;
	private broken = false;
	/** What the store threw, once it failed. */
	private failure: unknown;

	/**
	 * `identities`: each item's identity (itemIdentity.ts); `group`: how many
	 * items the first write marks, before the pace is known; `failed`: hears
	 * once when the store fails, after which no item waits on a mark in vain:
	 * each one not yet written is refused.
	 */
	constructor(
		private readonly store: ProcessedStore,
		private readonly identities: string[],
		private readonly group: number,
		private readonly failed: (error: unknown) => void,
		private readonly now: () => number,
	) {}

	/** What a try that n8n could not finish left of each item; undefined when the store failed. The keys it finds go at the end of this try. */
	async lookUp(): Promise<Map<number, Journaled> | undefined> {
		const sent = this.identities.map(sentKey);
		const seen = await this.guard(async () => {
			const sentThere = await this.store.checkAndRecord(sent);
			const asked = this.identities
				.filter((identity) => sentThere.has(sentKey(identity)))
				.map(confirmedKey);
			const confirmedThere =
				asked.length > 0 ? await this.store.checkAndRecord(asked) : new Set<string>();
			// Checking recorded what it asked for: a confirmation for each item sent without one, and a
			// sent mark for each item never sent. Both go out at once, or a crash of this try would
			// leave every item "sent" for the next retry; an item is marked when it goes out.
			const forged = [
				...asked.filter((key) => !confirmedThere.has(key)),
				...sent.filter((key) => !sentThere.has(key)),
			];
			if (forged.length > 0) await this.store.remove(forged, await this.store.count?.());
			return { sentThere, confirmedThere };
		});
		if (!seen) return undefined;
		const found = new Map<number, Journaled>();
		this.identities.forEach((identity, index) => {
			if (seen.confirmedThere.has(confirmedKey(identity))) found.set(index, 'confirmed');
			else if (seen.sentThere.has(sentKey(identity))) found.set(index, 'sent');
		});
		for (const key of [...seen.sentThere, ...seen.confirmedThere]) this.written.add(key);
		return found;
	}

	/** Before item `index` goes out: it, and the items after it up to a group, are marked sent; it waits for its mark, which rejects when the store failed. */
	beforeSend(index: number): Promise<void> | undefined {
		if (this.broken)
			return index < this.writtenUpTo ? undefined : Promise.reject(this.failure as Error);
		if (index >= this.markedUpTo) this.mark(index + this.nextGroup(index), index);
		else if (this.halfwayThrough(index)) this.mark(this.markedUpTo + this.nextGroup(index), index);
		if (index < this.writtenUpTo) return undefined;
		return this.marking
			.find((group) => index < group.end)
			?.done.then(() => {
				if (index >= this.writtenUpTo) throw this.failure as Error;
			});
	}

	/** Half-way through the latest group, and half a span after it was marked: time to mark the next. */
	private halfwayThrough(index: number): boolean {
		if (!this.lastMark || this.markedUpTo >= this.identities.length) return false;
		const { at, from } = this.lastMark;
		return index >= from + (this.markedUpTo - from) / 2 && this.now() - at >= GROUP_SPAN_MS / 2;
	}

	/** Marks the items from markedUpTo up to `until` (at least past `reached`, the item going out). */
	private mark(until: number, reached: number): void {
		const end = Math.min(this.identities.length, Math.max(until, reached + 1));
		this.lastMark = { at: this.now(), from: this.markedUpTo, reached, size: end - this.markedUpTo };
		const keys = this.identities.slice(this.markedUpTo, end).map(sentKey);
		this.markedUpTo = end;
		const done = this.write([...keys, ...this.confirmations.splice(0)]).then(() => {
			if (this.broken) return;
			this.writtenUpTo = Math.max(this.writtenUpTo, end);
			this.marking = this.marking.filter((group) => group.end > end);
		});
		this.marking.push({ end, done });
	}

	/**
	 * How many to mark: as many as went out since the last mark, per GROUP_SPAN_MS; the first time,
	 * a whole group. At most twice the last group: the items of a burst (a run's first turns)
	 * go out in no time, and do not make a second's worth of the whole run.
	 */
	private nextGroup(reached: number): number {
		if (!this.lastMark) return this.group;
		const elapsed = Math.max(1, this.now() - this.lastMark.at);
		const perSpan = ((reached - this.lastMark.reached) * GROUP_SPAN_MS) / elapsed;
		return Math.max(1, Math.min(2 * this.lastMark.size, Math.ceil(perSpan)));
	}

	/** The service confirmed item `index`: written with the next group, or once GROUP_SPAN_MS has passed since the last write. */
	confirmed(index: number): void {
		if (this.broken) return;
		this.confirmations.push(confirmedKey(this.identities[index]));
		if (this.now() - this.lastWriteAt >= GROUP_SPAN_MS)
			void this.write(this.confirmations.splice(0));
	}

	/** The try ended: what it wrote, and what it found of a try before, is taken out. */
	async clear(): Promise<void> {
		await this.queue;
		if (this.broken || this.written.size === 0) return;
		const keys = [...this.written];
		this.written.clear();
		await this.guard(async () => {
			// A few keys go in one call, not two (count, then delete): a small execution's calls wait in
			// line at n8n's database with every other's. More, alone in the row, go in one step; beside
			// others' keys, in calls that each cost n8n at most REMOVE_COMPARISONS (processedStore.ts).
			if (keys.length <= FEW_KEYS) return await this.store.remove(keys);
			const clearing = await this.store.clearIfOnly?.(keys.length);
			if (!clearing?.cleared) await this.store.remove(keys, clearing?.length);
		});
	}

	/**
	 * Writes one at a time, in order: the store reads and writes a whole row,
	 * with no lock. Each write carries this try's sentinel: when it is gone,
	 * another execution's write at the same moment, or its clear, took this
	 * try's marks out, and all of them are written again at once.
	 */
	private write(keys: string[]): Promise<void> {
		this.lastWriteAt = this.now();
		this.queue = this.queue.then(async () => {
			if (this.broken || keys.length === 0) return;
			const there = await this.guard(
				async () => await this.store.checkAndRecord([...keys, this.sentinel]),
			);
			if (!there) return;
			const lost = this.written.has(this.sentinel) && !there.has(this.sentinel);
			for (const key of [...keys, this.sentinel]) this.written.add(key);
			if (lost) await this.guard(async () => await this.store.checkAndRecord([...this.written]));
		});
		return this.queue;
	}

	private async guard<T>(step: () => Promise<T>): Promise<T | undefined> {
		try {
			return await step();
		} catch (error) {
			if (!this.broken) {
				this.failure = error;
				this.failed(error);
			}
			this.broken = true;
			return undefined;
		}
	}
}
