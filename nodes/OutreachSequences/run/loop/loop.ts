/** Runs one operation over every input item (order, batches, pace, retries) without n8n. */
import type { OutreachRequest } from '../../helpers/interfaces';
import type { Failure } from '../../transport/failure';
import { isPushBack, requestEnd } from '../../transport/failure';
import type { Attempt } from '../../transport/index';
import type { ItemFailure } from '../outcome/failedItem';
import { settingsSaidNo } from '../outcome/failedItem';
import { pushedBackLogLine, quotaLogLine } from '../outcome/logLines';
import { lostAnswerText } from '../outcome/reRunTexts';
import { RunReport } from '../outcome/runReport';
import type { ServiceDown } from '../pace/breaker';
import type { RequestEnd, Turn } from '../pace/servicePace';
import type { ItemState, LoopPorts, LoopSettings, Prior } from './items';
import { backoffMs, decideRetry } from './retry';

export type { Batching, ItemState, LoopPorts, LoopSettings } from './items';

// Unsent items await nothing: yield to n8n's event loop every this many, or thousands would block it.
const YIELD_EVERY = 32;

/** Items go as fast as the service's shared pace allows, one batch's retries before its new items. */
export class RunLoop {
	readonly items: ItemState[];
	readonly report = new RunReport();
	private stopIndex: number | undefined;
	private serviceReached = false;
	private fresh: number[] = [];
	private down: ServiceDown | undefined;
	private inFlight = 0;
	private fullSince: number | undefined;
	private unsent = 0;
	private pause: Promise<void> | undefined;
	/** An error, thrown only once every request in flight has ended, so each one is heard. */
	private thrown: { error: unknown } | undefined;

	constructor(
		count: number,
		private readonly settings: LoopSettings,
		private readonly ports: LoopPorts,
	) {
		this.items = Array.from({ length: count }, (): ItemState => ({ state: 'pending' }));
	}

	get firstFailure(): number | undefined {
		return this.stopIndex;
	}

	/** After a stop: items not reached are looked up, never sent, so what earlier tries did is counted. */
	async settle(turn: (index: number) => Promise<void> | undefined): Promise<void> {
		for (const [index, item] of this.items.entries()) {
			if (item.state === 'pending') this.prepare(index);
			await turn(index);
		}
	}

	async run(): Promise<void> {
		const { pace } = this.ports;
		const { groupSize, pauseMs } = this.settings.batching;
		const heldBackBefore = pace.heldBackMs;
		const openedBefore = pace.breaker.opened;
		try {
			for (let next = 0; next < this.items.length && !this.isStopped(next); ) {
				if (next > 0) await this.ports.sleep(pauseMs);
				// With an interval, each batch waits for the one before; without, one rolling window.
				const end = pauseMs > 0 ? Math.min(next + groupSize, this.items.length) : this.items.length;
				this.fresh = Array.from({ length: end - next }, (_, offset) => next + offset);
				next = end;
				const workers = Math.min(groupSize, this.fresh.length);
				await Promise.all(Array.from({ length: workers }, () => this.worker()));
				if (this.thrown) throw this.thrown.error;
			}
		} finally {
			// An item still in flight here means something threw: its answer was lost.
			this.items.forEach((item, index) => {
				if (item.state !== 'inFlight') return;
				const error = lostAnswerText(item.request.subject);
				this.fail(index, { kind: 'broken', request: item.request, error, sends: item.sends });
			});
			this.report.heldBack(pace.heldBackMs - heldBackBefore);
			this.report.breakerOpened(pace.breaker.opened - openedBefore);
		}
	}

	/** An item's backoff holds its worker: the batch's other items go on meanwhile. */
	private async worker(): Promise<void> {
		try {
			for (let index = this.fresh.shift(); index !== undefined && !this.thrown; ) {
				const again = await this.dispatch(index);
				if (again === undefined) index = this.fresh.shift();
				else await this.ports.sleep(again);
			}
		} catch (error) {
			this.thrown ??= { error };
		}
	}

	/** After how long the item goes again, if it does (0: as soon as the shared pace allows). */
	private async dispatch(index: number): Promise<number | undefined> {
		if (this.pause) await this.pause;
		// A turn is taken only once the item's mark is written: no turn is held while n8n's database answers.
		if (this.isStopped(index) || !this.prepare(index) || !(await this.claim(index))) {
			if (++this.unsent % YIELD_EVERY === 0)
				this.pause ??= this.ports.sleep(0).then(() => {
					this.pause = undefined;
				});
			return undefined;
		}
		if (this.down) return this.serviceDown(index, this.down);
		const { pace } = this.ports;
		const turn = await pace.turn(
			() => this.isStopped(index),
			this.ports.sleep,
			(ms) => this.report.waited(ms),
		);
		if (!turn) return undefined;
		if ('down' in turn) {
			this.down = turn.down;
			return this.serviceDown(index, turn.down);
		}
		this.inFlight++;
		this.watchLimit();
		const sentAt = this.ports.now();
		let result: { end: RequestEnd; againAfterMs?: number } = { end: 'cancelled' };
		try {
			result = await this.send(index, turn);
		} finally {
			this.inFlight--;
			if (result.end === 'answered') this.report.answered(sentAt, this.ports.now());
			pace.finished(turn, result.end);
			this.watchLimit();
		}
		return result.againAfterMs;
	}

	// Items before a failed one are still sent, as they would have been in order.
	private isStopped(index: number): boolean {
		if (this.thrown || this.ports.cancelled()) return true;
		return this.stopIndex !== undefined && index > this.stopIndex;
	}

	private prepare(index: number): boolean {
		const item = this.items[index];
		if (item.state !== 'pending') return item.state === 'prepared' || item.state === 'waiting';
		let request: OutreachRequest;
		try {
			request = this.ports.prepare(index);
		} catch (error) {
			this.fail(index, { kind: 'notSent', error });
			return false;
		}
		this.items[index] = { state: 'prepared', request, sends: 0 };
		const prior = this.ports.prior?.(index, request);
		return prior === undefined || this.apply(index, request, prior);
	}

	private async claim(index: number): Promise<boolean> {
		const item = this.items[index];
		if (item.state !== 'prepared' || !this.ports.claim) return true;
		const prior = await this.ports.claim(index, item.request);
		return prior === undefined || this.apply(index, item.request, prior);
	}

	private apply(index: number, request: OutreachRequest, prior: Prior): boolean {
		if (prior.event)
			this.report.earlierTry(prior.event, prior.kind === 'answer' ? prior.json.id : undefined);
		if (prior.kind === 'answer')
			this.items[index] = { state: 'done', request, json: prior.json, sends: 0 };
		else if (prior.kind === 'fail') this.fail(index, prior.failure);
		return prior.kind === 'send';
	}

	/** How the request ended, and after how long it goes again (0: as soon as the shared pace allows). */
	private async send(
		index: number,
		turn: Turn,
	): Promise<{ end: RequestEnd; againAfterMs?: number }> {
		const item = this.items[index];
		if ((item.state !== 'prepared' && item.state !== 'waiting') || this.isStopped(index))
			return { end: 'cancelled' };
		const sending = { state: 'inFlight' as const, request: item.request, sends: item.sends + 1 };
		this.items[index] = sending;
		let attempt: Attempt;
		try {
			attempt = await this.ports.send(sending.request, index);
		} catch (error) {
			this.fail(index, { kind: 'broken', request: sending.request, error, sends: sending.sends });
			return { end: 'cancelled' };
		}
		if (!attempt.ok) {
			if (attempt.failure.kind === 'http') this.serviceReached = true;
			const againAfterMs = this.retryOrGiveUp(index, sending, attempt.failure, turn);
			return { end: requestEnd(attempt.failure, againAfterMs !== undefined), againAfterMs };
		}
		this.serviceReached = true;
		this.ports.pace.pacer.succeeded(turn.epoch);
		this.items[index] = { ...sending, state: 'done', json: attempt.json };
		const { quota } = attempt;
		// Too few left for the requests under way: every new start waits for the refill.
		if (quota && quota.remaining <= this.ports.pace.requestsInFlight - 1) {
			this.report.pushedBack();
			this.slowDown(turn, quota.resetMs, (left, limit) => quotaLogLine(quota, left, limit));
		}
		return { end: 'answered' };
	}

	/** undefined: give up; 0: after a push-back, the shared pace waits instead; else this item's backoff ms. */
	private retryOrGiveUp(
		index: number,
		item: ItemState & { state: 'inFlight' },
		failure: Failure,
		turn: Turn,
	): number | undefined {
		const { pacer } = this.ports.pace;
		const { policy } = this.settings;
		const pushBack = isPushBack(failure);
		if (pushBack) this.report.pushedBack();
		const slowdowns = pacer.consecutiveSlowdowns + (pacer.wouldStartSlowdown(turn.epoch) ? 1 : 0);
		// A push-back's backoff grows with the service's slowdowns in a row, any other's with this item's sends.
		const backoff = backoffMs(pushBack ? slowdowns : item.sends, this.ports.random());
		const attempts = item.sends;
		const { serviceReached } = this;
		const situation = { ...this.settings, attempts, backoffMs: backoff, serviceReached };
		const decision = decideRetry(failure, situation);
		if (decision.retry) {
			this.items[index] = { ...item, state: 'waiting', last: failure };
			this.report.retrying(index, pushBack ? 'pushedBack' : 'transient');
		} else {
			const { reason, waitMs: askedMs } = decision;
			if (settingsSaidNo(reason)) this.report.notSendingAgain(reason);
			this.fail(index, {
				kind: 'gaveUp',
				request: item.request,
				failure,
				sends: attempts,
				reason,
				askedMs,
			});
		}
		if (!pushBack) return decision.retry ? decision.waitMs : undefined;
		// A create's 503 without Retry-After is not resent, but slows the pace as every 503 does.
		if (!decision.retry && decision.reason !== 'notSafe') return undefined;
		const waitMs = decision.retry
			? decision.waitMs
			: Math.min(failure.retryAfterMs ?? backoff, policy.maxWaitMs);
		this.slowDown(turn, waitMs, (left, limit) => pushedBackLogLine(failure, waitMs, left, limit));
		return decision.retry ? 0 : undefined;
	}

	/** One log line per slowdown, not per request already under way when it began. */
	private slowDown(turn: Turn, waitMs: number, line: (left: number, limit: number) => string) {
		const { pacer } = this.ports.pace;
		if (!pacer.pushedBack(turn.epoch, waitMs)) return;
		const left = this.items.filter(
			(item) => item.state !== 'done' && item.state !== 'failed',
		).length;
		this.ports.log(line(left, pacer.inFlightLimit));
	}

	private watchLimit(): void {
		const { groupSize } = this.settings.batching;
		const { pacer, requestsInFlight } = this.ports.pace;
		const full =
			this.fresh.length > 0 &&
			(this.inFlight >= groupSize || requestsInFlight >= pacer.inFlightLimit);
		const now = this.ports.now();
		if (full) this.fullSince ??= now;
		else if (this.fullSince !== undefined) {
			this.report.limitFull(now - this.fullSince, Math.min(groupSize, pacer.inFlightLimit));
			this.fullSince = undefined;
		}
	}

	private serviceDown(index: number, down: ServiceDown): undefined {
		const item = this.items[index];
		if (item.state !== 'prepared' && item.state !== 'waiting') return undefined;
		const last = item.state === 'waiting' ? item.last : undefined;
		this.fail(index, { kind: 'serviceDown', request: item.request, down, sends: item.sends, last });
		return undefined;
	}

	private fail(index: number, failure: ItemFailure): void {
		this.items[index] = { state: 'failed', failure };
		if (this.settings.stopAtFirstFailure && (this.stopIndex ?? Infinity) > index)
			this.stopIndex = index;
	}
}
