/**
 * What slowed one run down, kept as it happens: each request that waited for
 * the service's pace and for how long, each time the service pushed back,
 * which items were sent again, and how long the run's in-flight limit was
 * full and its answers took. At the end it is summed up with how each item
 * ended (summarize), for the execution hints (hints.ts).
 */
import type { FailureGroup, SettingsSaidNo } from './failedItem';

/** What came of an item an earlier try or execution handled, as the hints count it (runReport.ts). */
export type PriorEvent =
	/** Confirmed before: its earlier answer is its output. */
	| 'answered'
	/** Confirmed before, and its request changed since (the node's settings did): still not sent. */
	| 'kept'
	/** Confirmed before, its answer too large to keep or lost in a crash: not sent, whatever the user says. */
	| 'answerLost'
	| 'countedAsDone'
	/** Its outcome is unknown: it failed again, unsent. */
	| 'failedAgain'
	/** Its outcome was unknown, and the user said to send it again. */
	| 'sentAgain'
	/** The memory knew it as done within the window (memory/memory.ts). */
	| 'doneBefore';

export interface RunSummary {
	items: number;
	/** Times the service pushed back: a 429 or 503, or rate-limit headers that said stop. */
	pushBacks: number;
	/** Requests that waited for the service's pace before they went out, and the longest of their waits. */
	waitedRequests: number;
	longestWaitMs: number;
	/** How long, while this run was under way, the service's pace held every request back. */
	heldBackMs: number;
	/** Items sent more than once, and how many of those failed in the end. */
	retriedItems: number;
	retriedFailed: number;
	/** Of the items sent more than once, those sent again after a fault that was not a push-back (HTTP 500, 502, 504, a reset, a timeout). */
	transientRetried: number;
	/** Times the service's breaker opened while this run was under way (breaker.ts). */
	breakerOpened: number;
	/** Items the service pushed back on that were not sent again, per reason. */
	notSentAgain: Record<SettingsSaidNo, number>;
	/** Failed items per group. */
	failed: Record<FailureGroup, number>;
	/**
	 * The failed items by index, as n8n numbers them (from 0): those the service may
	 * have carried out, and those it did not act on; the first few with their names.
	 */
	failedItems: FailedItems;
	/**
	 * Items an earlier try or execution had handled, by what came of them
	 * (reRun.ts), and the IDs of those kept although their request changed.
	 */
	earlierTry: Record<PriorEvent, number>;
	/** Items done before whose ID this n8n process does not know. */
	doneBeforeWithoutId: number;
	keptIds: string[];
	limit: LimitSummary;
}

/** How the in-flight limit held this run: its time, the time the limit was full, and its answers' times (in ms). */
export interface LimitSummary {
	/** From the run's first request to its last answer. */
	runMs: number;
	/** While the requests in flight were as many as the limit allowed (Items per Batch, or the pace's), and more items waited. */
	fullMs: number;
	/** The highest limit it was full at. */
	heldAt: number;
	quickestAnswerMs: number;
	meanAnswerMs: number;
}

export interface FailedItems {
	mayHave: number[];
	notActed: number[];
	/** The name or identifier of the first LABELLED items of each list, where they have one. */
	labels: Record<number, string>;
}

/** How many failed items of each kind the summary keeps a name for. */
const LABELLED = 2;

/** The groups whose items the service may have carried out (outcome mayHaveActed). */
const MAY_HAVE: ReadonlySet<FailureGroup> = new Set(['mayHaveActed', 'unknownBefore']);

export class RunReport {
	private pushBacks = 0;
	private readonly waits: number[] = [];
	private readonly retried = new Set<number>();
	private readonly transient = new Set<number>();
	private breakerOpenings = 0;
	private heldBackMs = 0;
	private readonly notSentAgain: Record<SettingsSaidNo, number> = {
		disabled: 0,
		exhausted: 0,
		waitTooLong: 0,
	};
	private readonly fromEarlierTry: Record<PriorEvent, number> = {
		answered: 0,
		kept: 0,
		answerLost: 0,
		countedAsDone: 0,
		failedAgain: 0,
		sentAgain: 0,
		doneBefore: 0,
	};
	private doneBeforeWithoutId = 0;
	private readonly keptIds: string[] = [];
	private readonly limit = { fullMs: 0, heldAt: 0, firstSentAt: Infinity, lastAnsweredAt: 0 };
	private readonly answers = { count: 0, totalMs: 0, quickestMs: Infinity };

	/** The in-flight limit, at `limit` requests, was full for `ms` while more items waited. */
	limitFull(ms: number, limit: number): void {
		this.limit.fullMs += ms;
		this.limit.heldAt = Math.max(this.limit.heldAt, limit);
	}

	/** A request sent at `sentAt` was answered (with any status) at `answeredAt`. */
	answered(sentAt: number, answeredAt: number): void {
		this.limit.firstSentAt = Math.min(this.limit.firstSentAt, sentAt);
		this.limit.lastAnsweredAt = Math.max(this.limit.lastAnsweredAt, answeredAt);
		this.answers.count++;
		this.answers.totalMs += answeredAt - sentAt;
		this.answers.quickestMs = Math.min(this.answers.quickestMs, answeredAt - sentAt);
	}

	/** A request waited `ms` for the service's pace before it went out. */
	waited(ms: number): void {
		if (ms > 0) this.waits.push(ms);
	}

	/** While this run was under way, the service's pace held every request back for `ms` in all. */
	heldBack(ms: number): void {
		this.heldBackMs = Math.max(0, ms);
	}

	/** The service pushed back on this run, or its rate-limit headers said to stop. */
	pushedBack(): void {
		this.pushBacks++;
	}

	/** An item the service pushed back on is not sent again, for this reason. */
	notSendingAgain(reason: SettingsSaidNo): void {
		this.notSentAgain[reason]++;
	}

	/** What came of an item an earlier try or execution had handled; `id`, of one kept though its request changed. */
	earlierTry(event: PriorEvent, id?: unknown): void {
		this.fromEarlierTry[event]++;
		if (event === 'kept' && (typeof id === 'string' || typeof id === 'number'))
			this.keptIds.push(String(id));
		if (event === 'doneBefore' && (id === null || id === undefined)) this.doneBeforeWithoutId++;
	}

	/** The item at `index` is to be sent again, after a push-back or after another fault. */
	retrying(index: number, after: 'pushedBack' | 'transient'): void {
		this.retried.add(index);
		if (after === 'transient') this.transient.add(index);
	}

	/** While this run was under way, the service's breaker opened `times` times. */
	breakerOpened(times: number): void {
		this.breakerOpenings = Math.max(0, times);
	}

	/**
	 * The run summed up with how each item ended: its failure group, or undefined when it
	 * succeeded; `labels`, each item's name or identifier, where it has one.
	 */
	summarize(
		ends: Array<FailureGroup | undefined>,
		labels: Array<string | undefined> = [],
	): RunSummary {
		const failed: Record<FailureGroup, number> = {
			notSent: 0,
			n8nRefused: 0,
			rejected: 0,
			unreached: 0,
			mayHaveActed: 0,
			unknownBefore: 0,
			serviceDown: 0,
		};
		const failedItems: FailedItems = { mayHave: [], notActed: [], labels: {} };
		let retriedFailed = 0;
		ends.forEach((group, index) => {
			if (group === undefined) return;
			failed[group]++;
			if (this.retried.has(index)) retriedFailed++;
			const list = MAY_HAVE.has(group) ? failedItems.mayHave : failedItems.notActed;
			list.push(index);
			const label = labels[index];
			if (list.length <= LABELLED && label) failedItems.labels[index] = label;
		});
		return {
			items: ends.length,
			pushBacks: this.pushBacks,
			waitedRequests: this.waits.length,
			longestWaitMs: this.waits.reduce((longest, ms) => Math.max(longest, ms), 0),
			heldBackMs: this.heldBackMs,
			retriedItems: this.retried.size,
			retriedFailed,
			transientRetried: this.transient.size,
			breakerOpened: this.breakerOpenings,
			notSentAgain: { ...this.notSentAgain },
			failed,
			failedItems,
			earlierTry: { ...this.fromEarlierTry },
			doneBeforeWithoutId: this.doneBeforeWithoutId,
			keptIds: [...this.keptIds],
			limit: this.limitSummary(),
		};
	}

	private limitSummary(): LimitSummary {
		const { fullMs, heldAt, firstSentAt, lastAnsweredAt } = this.limit;
		const { count, totalMs, quickestMs } = this.answers;
		return {
			runMs: count > 0 ? lastAnsweredAt - firstSentAt : 0,
			fullMs,
			heldAt,
			quickestAnswerMs: count > 0 ? quickestMs : 0,
			meanAnswerMs: count > 0 ? totalMs / count : 0,
		};
	}
}
