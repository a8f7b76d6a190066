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

/** A run's report as the hints read it. */
export type RunSummary = ReturnType<RunReport['summarize']>;

export class RunReport {
	private readonly counts = {
		pushBacks: 0,
		waitedRequests: 0,
		longestWaitMs: 0,
		heldBackMs: 0,
		breakerOpened: 0,
	};
	private readonly retried = new Set<number>();
	private readonly transient = new Set<number>();
	private readonly notSentAgain: Partial<Record<SettingsSaidNo, number>> = {};
	private readonly earlier: Partial<Record<PriorEvent, number>> = {};
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
		if (ms <= 0) return;
		this.counts.waitedRequests++;
		this.counts.longestWaitMs = Math.max(this.counts.longestWaitMs, ms);
	}

	// heldBack and breakerOpened get the run's totals so far, so they set rather than add.
	heldBack(ms: number): void {
		this.counts.heldBackMs = Math.max(0, ms);
	}

	breakerOpened(times: number): void {
		this.counts.breakerOpened = Math.max(0, times);
	}

	pushedBack(): void {
		this.counts.pushBacks++;
	}

	notSendingAgain(reason: SettingsSaidNo): void {
		this.notSentAgain[reason] = (this.notSentAgain[reason] ?? 0) + 1;
	}

	earlierTry(event: PriorEvent, id?: unknown): void {
		this.earlier[event] = (this.earlier[event] ?? 0) + 1;
		if (event === 'kept' && (typeof id === 'string' || typeof id === 'number'))
			this.keptIds.push(String(id));
	}

	retrying(index: number, after: 'pushedBack' | 'transient'): void {
		this.retried.add(index);
		if (after === 'transient') this.transient.add(index);
	}

	/** `ends`: how each item failed, or undefined; `labels`: the name or ID each item goes by. */
	summarize(ends: Array<FailureGroup | undefined>, labels: Array<string | undefined> = []) {
		const { fullMs, heldAt, firstSentAt, lastAnsweredAt } = this.limit;
		const { count, totalMs, quickestMs } = this.answers;
		return {
			...this.counts,
			items: ends.length,
			ends,
			labels,
			retriedItems: this.retried.size,
			transientRetried: this.transient.size,
			notSentAgain: { ...this.notSentAgain },
			earlierTry: { ...this.earlier },
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
