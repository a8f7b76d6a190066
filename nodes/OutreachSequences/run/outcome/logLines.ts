/** The log lines of a run that waits for the service's pace; the API key is never in them. */
import type { Failure } from '../../transport/failure';
import { header } from '../../transport/index';
import type { Quota } from '../pace/quota';
import { duration } from './words';

export function pushedBackLogLine(
	failure: Failure,
	waitMs: number,
	remaining: number,
	inFlight: number,
): string {
	const retryAfter =
		failure.kind === 'http' ? header(failure.answer.headers, 'retry-after') : undefined;
	const why =
		failure.kind === 'refusal'
			? 'refused by n8n'
			: failure.kind === 'network'
				? `network: ${failure.fault}`
				: `HTTP ${failure.status}${retryAfter === undefined ? '' : `, Retry-After: ${retryAfter}`}`;
	return `Outreach Sequences: the service pushed back (${why}); ${waitText(waitMs, remaining, inFlight)}`;
}

export function quotaLogLine(quota: Quota, remaining: number, inFlight: number): string {
	const state =
		quota.remaining === 0 ? 'its quota is used up' : 'the requests under way will use up its quota';
	return `Outreach Sequences: the service's rate-limit headers say ${state} (${quota.remaining} left, refilled in ${duration(quota.resetMs)}); ${waitText(quota.resetMs, remaining, inFlight)}`;
}

export function sharedPaceLogLine(
	baseUrl: string,
	pausedMs: number,
	rate: number,
	inFlight: number,
): string {
	const pause = pausedMs > 0 ? `no new request starts for ${duration(pausedMs)}, then ` : '';
	const pace =
		rate === Infinity
			? `up to ${inFlight} in flight`
			: `about ${Math.round(rate * 10) / 10} requests per second, up to ${inFlight} in flight`;
	return `Outreach Sequences: this execution waits its turn at the pace that ${baseUrl} set for this n8n process: ${pause}${pace}`;
}

function waitText(waitMs: number, remaining: number, inFlight: number): string {
	const goOn = remaining === 1 ? '1 item goes on' : `${remaining} items go on`;
	return `no new request starts for ${duration(waitMs)}, then ${goOn} at up to ${inFlight} in flight`;
}
