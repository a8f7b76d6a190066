/** What slowed one run down, recorded as it happens, then summed up with how each item ended. */
import type { FailureGroup, SettingsSaidNo } from './failedItem';

export type PriorEvent =
	| 'answered'
	| 'kept'
	| 'answerLost'
	| 'countedAsDone'
	| 'failedAgain'
	| 'sentAgain'
	| 'doneBefore';

export interface RunSummary {
	items: number;
	pushBacks: number;
	waitedRequests: number;
	longestWaitMs: number;
	heldBackMs: number;
	retriedItems: number;
	retriedFailed: number;
	transientRetried: number;
	breakerOpened: number;
	notSentAgain: Record<SettingsSaidNo, number>;
	failed: Record<FailureGroup, number>;
	failedItems: FailedItems;
	earlierTry: Record<PriorEvent, number>;
	doneBeforeWithoutId: number;
	keptIds: string[];
	limit: LimitSummary;
}

export interface LimitSummary {
	runMs: number;
	fullMs: number;
	heldAt: number;
	quickestAnswerMs: number;
	meanAnswerMs: number;
}

export interface FailedItems {
	mayHave: number[];
	notActed: number[];
	labels: Record<number, string>;
}

const LABELLED = 2;

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

	limitFull(ms: number, limit: number): void {
		this.limit.fullMs += ms;
		this.limit.heldAt = Math.max(this.limit.heldAt, limit);
	}

	answered(sentAt: number, answeredAt: number): void {
		this.limit.firstSentAt = Math.min(this.limit.firstSentAt, sentAt);
		this.limit.lastAnsweredAt = Math.max(this.limit.lastAnsweredAt, answeredAt);
		this.answers.count++;
		this.answers.totalMs += answeredAt - sentAt;
		this.answers.quickestMs = Math.min(this.answers.quickestMs, answeredAt - sentAt);
	}

	waited(ms: number): void {
		if (ms > 0) this.waits.push(ms);
	}

	// heldBack and breakerOpened get the run's totals so far, so they set rather than add.
	heldBack(ms: number): void {
		this.heldBackMs = Math.max(0, ms);
	}

	pushedBack(): void {
		this.pushBacks++;
	}

	notSendingAgain(reason: SettingsSaidNo): void {
		this.notSentAgain[reason]++;
	}

	earlierTry(event: PriorEvent, id?: unknown): void {
		this.fromEarlierTry[event]++;
		if (event === 'kept' && (typeof id === 'string' || typeof id === 'number'))
			this.keptIds.push(String(id));
		if (event === 'doneBefore' && (id === null || id === undefined)) this.doneBeforeWithoutId++;
	}

	retrying(index: number, after: 'pushedBack' | 'transient'): void {
		this.retried.add(index);
		if (after === 'transient') this.transient.add(index);
	}

	breakerOpened(times: number): void {
		this.breakerOpenings = Math.max(0, times);
	}

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
