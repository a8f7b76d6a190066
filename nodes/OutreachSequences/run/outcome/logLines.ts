/** The log lines of a run that waits for the service's pace; the API key is never in them. */
import type { Failure } from '../../transport/failure';
import { header } from '../../transport/index';
import type { Quota } from '../pace/quota';
import { count, duration } from './words';

const waitLine = (why: string, waitMs: number, remaining: number, inFlight: number) =>
	`Outreach Sequences: ${why}; no new request starts for ${duration(waitMs)}, then ${count(remaining, 'item goes', 'items go')} on at up to ${inFlight} in flight`;

export function pushedBackLogLine(
	failure: Failure,
	waitMs: number,
	left: number,
	inFlight: number,
) {
	const retryAfter = failure.kind === 'http' && header(failure.answer.headers, 'retry-after');
	const why =
		failure.kind === 'refusal'
			? 'refused by n8n'
			: failure.kind === 'network'
				? `network: ${failure.fault}`
				: `HTTP ${failure.status}${retryAfter ? `, Retry-After: ${retryAfter}` : ''}`;
	return waitLine(`the service pushed back (${why})`, waitMs, left, inFlight);
}

export function quotaLogLine(quota: Quota, left: number, inFlight: number): string {
	const state = quota.remaining === 0 ? 'is used up' : 'will be used up by the requests under way';
	const why = `the service's rate-limit headers say its quota ${state} (${quota.remaining} left, refilled in ${duration(quota.resetMs)})`;
	return waitLine(why, quota.resetMs, left, inFlight);
}

export function sharedPaceLogLine(
	baseUrl: string,
	pausedMs: number,
	rate: number,
	inFlight: number,
) {
	const pause = pausedMs > 0 ? `no new request starts for ${duration(pausedMs)}, then ` : '';
	const pace = rate === Infinity ? '' : `about ${Math.round(rate * 10) / 10} requests per second, `;
	return `Outreach Sequences: this execution waits its turn at the pace that ${baseUrl} set for this n8n process: ${pause}${pace}up to ${inFlight} in flight`;
}
