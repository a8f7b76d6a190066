/** What slowed one run down, recorded as it happens, then summed up with how each item ended. */
import type { FailureGroup, SettingsSaidNo } from './failedItem';
import { FAILURE_GROUPS } from './failedItem';

const PRIOR_EVENTS = [
	'answered',
	'kept',
	'answerLost',
	'countedAsDone',
	'failedAgain',
	'sentAgain',
	'doneBefore',
] as const;

export type PriorEvent = (typeof PRIOR_EVENTS)[number];

/** A run's report as the hints read it. */
export type RunSummary = ReturnType<RunReport['summarize']>;

const zeros = <K extends string>(keys: readonly K[]) =>
	Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

export class RunReport {
	private pushBacks = 0;
	private readonly waits: number[] = [];
	private readonly retried = new Set<number>();
	private readonly transient = new Set<number>();
	private breakerOpenings = 0;
	private heldBackMs = 0;
	private readonly notSentAgain = zeros<SettingsSaidNo>(['disabled', 'exhausted', 'waitTooLong']);
	private readonly fromEarlierTry = zeros(PRIOR_EVENTS);
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

	summarize(ends: Array<FailureGroup | undefined>, labels: Array<string | undefined> = []) {
		const failed = zeros(FAILURE_GROUPS);
		// Failed items by index, those the service may have acted on apart; the first of each by its label.
		const mayHave: number[] = [];
		const notActed: number[] = [];
		const named: Record<number, string> = {};
		ends.forEach((group, index) => {
			if (group === undefined) return;
			failed[group]++;
			const items = group === 'mayHaveActed' ? mayHave : notActed;
			const label = labels[index];
			if (items.length === 0 && label) named[index] = label;
			items.push(index);
		});
		const { fullMs, heldAt, firstSentAt, lastAnsweredAt } = this.limit;
		const { count, totalMs, quickestMs } = this.answers;
		return {
			items: ends.length,
			pushBacks: this.pushBacks,
			waitedRequests: this.waits.length,
			longestWaitMs: this.waits.reduce((longest, ms) => Math.max(longest, ms), 0),
			heldBackMs: this.heldBackMs,
			retriedItems: this.retried.size,
			transientRetried: this.transient.size,
			breakerOpened: this.breakerOpenings,
			notSentAgain: { ...this.notSentAgain },
			failed,
			failedItems: { mayHave, notActed, labels: named },
			earlierTry: { ...this.fromEarlierTry },
			doneBeforeWithoutId: this.doneBeforeWithoutId,
			keptIds: [...this.keptIds],
			limit: {
				runMs: count > 0 ? lastAnsweredAt - firstSentAt : 0,
				fullMs,
				heldAt,
				quickestAnswerMs: count > 0 ? quickestMs : 0,
				meanAnswerMs: count > 0 ? totalMs / count : 0,
			},
		};
	}
}
