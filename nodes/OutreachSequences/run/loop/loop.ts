/** Runs one operation over every input item (order, batches, pace, retries) without n8n. */
import type { OutreachRequest } from '../../helpers/interfaces';
import type { ServiceDown } from '../pace/breaker';
import type { SendResult } from './dispatcher';
import { Dispatcher } from './dispatcher';
import type { Failure } from '../../transport/failure';
import { isPushBack, requestEnd } from '../../transport/failure';
import type { RequestPacer } from '../pace/pacer';
import type { Quota } from '../pace/quota';
import { backoffMs, decideRetry } from './retry';
import type { ItemFailure } from '../outcome/failedItem';
import { settingsSaidNo } from '../outcome/failedItem';
import { RunReport } from '../outcome/runReport';
import type { ServicePace, Turn } from '../pace/servicePace';
import { pushedBackLogLine, quotaLogLine } from '../outcome/logLines';
import { lostAnswerText } from '../outcome/reRunTexts';
import type { Attempt } from '../../transport/index';
import type { ItemState, LoopPorts, LoopSettings, Prior } from './items';

export type { Batching, ItemState, LoopPorts, LoopSettings } from './items';

export class RunLoop {
	readonly items: ItemState[];
	readonly report = new RunReport();
	private readonly pacer: RequestPacer;
	private readonly pace: ServicePace;
	private stopIndex: number | undefined;
	private serviceReached = false;

	constructor(
		count: number,
		private readonly settings: LoopSettings,
		private readonly ports: LoopPorts,
	) {
		this.items = Array.from({ length: count }, (): ItemState => ({ state: 'pending' }));
		this.pace = ports.pace;
		this.pacer = ports.pace.pacer;
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
		const dispatcher = new Dispatcher(
			this.pace,
			(index) => this.isStopped(index),
			this.ports,
			this.report,
		);
		const heldBackBefore = this.pace.heldBackMs;
		const openedBefore = this.pace.breaker.opened;
		try {
			await this.sendAll(dispatcher);
		} finally {
			// An item still in flight here means something threw: its answer was lost.
			this.items.forEach((item, index) => {
				if (item.state !== 'inFlight') return;
				const error = lostAnswerText(item.request.subject);
				this.fail(index, { kind: 'broken', request: item.request, error, sends: item.sends });
			});
			this.report.heldBack(this.pace.heldBackMs - heldBackBefore);
			this.report.breakerOpened(this.pace.breaker.opened - openedBefore);
		}
	}

	private async sendAll(dispatcher: Dispatcher): Promise<void> {
		const { batching } = this.settings;
		for (let next = 0; next < this.items.length && !this.runStopped(); ) {
			if (next > 0 && batching.pauseMs > 0) await this.ports.sleep(batching.pauseMs);
			const end = batching.batched
				? Math.min(next + batching.groupSize, this.items.length)
				: this.items.length;
			const group = Array.from({ length: end - next }, (_, offset) => next + offset);
			next = end;
			await dispatcher.run(group, batching.groupSize, {
				prepare: (index) => this.prepare(index),
				ready: async (index) => {
					const item = this.items[index];
					if (item.state !== 'prepared' || !this.ports.claim) return true;
					const prior = await this.ports.claim(index, item.request);
					return prior === undefined || this.apply(index, item.request, prior);
				},
				send: (index, turn, remaining) => this.send(index, turn, remaining),
				serviceDown: (index, down) => this.serviceDown(index, down),
			});
		}
	}

	private runStopped(): boolean {
		return this.ports.cancelled() || this.stopIndex !== undefined;
	}

	// Items before a failed one are still sent, as they would have been in order.
	private isStopped(index: number): boolean {
		return this.ports.cancelled() || (this.stopIndex !== undefined && index > this.stopIndex);
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

	private apply(index: number, request: OutreachRequest, prior: Prior): boolean {
		if (prior.event)
			this.report.earlierTry(prior.event, prior.kind === 'answer' ? prior.json.id : undefined);
		if (prior.kind === 'answer') {
			this.items[index] = { state: 'done', request, json: prior.json, sends: 0 };
			return false;
		}
		if (prior.kind === 'fail') {
			this.fail(index, prior.failure);
			return false;
		}
		return true;
	}

	private async send(index: number, turn: Turn, remaining: () => number): Promise<SendResult> {
		const item = this.items[index];
		if (item.state !== 'prepared' && item.state !== 'waiting') return { end: 'cancelled' };
		if (this.isStopped(index)) return { end: 'cancelled' };
		const sending = { state: 'inFlight' as const, request: item.request, sends: item.sends + 1 };
		this.items[index] = sending;
		let attempt: Attempt;
		try {
			attempt = await this.ports.send(sending.request, index);
		} catch (error) {
			this.fail(index, { kind: 'broken', request: sending.request, error, sends: sending.sends });
			return { end: 'cancelled' };
		}
		if (attempt.ok) {
			this.serviceReached = true;
			this.pacer.succeeded(turn.epoch);
			this.items[index] = {
				state: 'done',
				request: sending.request,
				json: attempt.json,
				sends: sending.sends,
			};
			if (attempt.quota) this.keepWithin(attempt.quota, turn, remaining);
			return { end: 'answered' };
		}
		if (attempt.failure.kind === 'http') this.serviceReached = true;
		const againAfterMs = this.retryOrGiveUp(index, sending, attempt.failure, turn, remaining);
		return { end: requestEnd(attempt.failure, againAfterMs !== undefined), againAfterMs };
	}

	/** undefined: give up; 0: after a push-back, the shared pace waits instead; else this item's backoff ms. */
	private retryOrGiveUp(
		index: number,
		item: ItemState & { state: 'inFlight' },
		failure: Failure,
		turn: Turn,
		remaining: () => number,
	): number | undefined {
		const pushBack = isPushBack(failure);
		if (pushBack) this.report.pushedBack();
		const slowdowns =
			this.pacer.consecutiveSlowdowns + (this.pacer.wouldStartSlowdown(turn.epoch) ? 1 : 0);
		// A push-back's backoff grows with the service's slowdowns in a row, any other's with this item's sends.
		const backoff = backoffMs(pushBack ? slowdowns : item.sends, this.ports.random());
		const { readOnly, policy } = this.settings;
		const decision = decideRetry(failure, {
			readOnly,
			policy,
			attempts: item.sends,
			backoffMs: backoff,
			serviceReached: this.serviceReached,
		});
		if (!decision.retry) {
			if (settingsSaidNo(decision.reason)) this.report.notSendingAgain(decision.reason);
			const { request, sends } = item;
			const { reason, waitMs: askedMs } = decision;
			this.fail(index, { kind: 'gaveUp', request, failure, sends, reason, askedMs });
			// A create's 503 without Retry-After is not resent, but slows the pace as every 503 does.
			const waitMs = pushBack ? Math.min(failure.retryAfterMs ?? backoff, policy.maxWaitMs) : 0;
			if (pushBack && reason === 'notSafe') this.slowDown(failure, waitMs, turn, remaining);
			return undefined;
		}
		this.items[index] = { ...item, state: 'waiting', last: failure };
		this.report.retrying(index, pushBack ? 'pushedBack' : 'transient');
		if (!pushBack) return decision.waitMs;
		this.slowDown(failure, decision.waitMs, turn, remaining);
		return 0;
	}

	private slowDown(failure: Failure, waitMs: number, turn: Turn, remaining: () => number): void {
		if (this.pacer.pushedBack(turn.epoch, waitMs))
			this.ports.log(pushedBackLogLine(failure, waitMs, remaining(), this.pacer.inFlightLimit));
	}

	private keepWithin(quota: Quota, turn: Turn, remaining: () => number): void {
		const othersUnderWay = this.pace.requestsInFlight - 1;
		if (quota.remaining > othersUnderWay) return;
		this.report.pushedBack();
		if (this.pacer.pushedBack(turn.epoch, quota.resetMs)) {
			this.ports.log(quotaLogLine(quota, remaining(), this.pacer.inFlightLimit));
		}
	}

	private serviceDown(index: number, down: ServiceDown): void {
		const item = this.items[index];
		if (item.state !== 'prepared' && item.state !== 'waiting') return;
		const last = item.state === 'waiting' ? item.last : undefined;
		this.fail(index, { kind: 'serviceDown', request: item.request, down, sends: item.sends, last });
	}

	private fail(index: number, failure: ItemFailure): void {
		this.items[index] = { state: 'failed', failure };
		if (
			this.settings.stopAtFirstFailure &&
			(this.stopIndex === undefined || index < this.stopIndex)
		)
			this.stopIndex = index;
	}
}
