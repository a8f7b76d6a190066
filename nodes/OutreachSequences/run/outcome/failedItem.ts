/**
 * What a failed item tells a workflow besides its error text: a few flat
 * facts (the HTTP status or the network fault, how often it was sent, the
 * wait the service last asked for) and its outcome: whether the service
 * did not act on it, or may have.
 *
 * The facts are in `message`, in both Continue modes, so one expression
 * reads them: `$json.message.outcome`. It is the one field besides `error`
 * that every supported n8n lets a failed item keep on the error output: n8n
 * routes an item there when its JSON is `{ error }` or `{ error, message }`
 * (1.x and 2.0; 2.34.4, 2.35.2 and 2.36.0 on also allow `details`). Any
 * other field beside `error` sends it down the Success output instead. An
 * item-level `error` routes it on every version too, but n8n 2.41.1 then
 * replaces that item's JSON with `{ error }`, and the facts are lost.
 * As an AI tool: the text only, as the agent has always read it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { Failure, NetworkFaultKind, Outcome } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import type { ServiceDown } from '../pace/breaker';

/** A failure after which the service may have acted: its words and facts, as the item failed with them. */
export interface EarlierFailure {
	message: string;
	description: string;
	statusCode: number | null;
	networkError: NetworkFaultKind | 'blocked' | null;
	/** n8n's store knew it as sent within `windowMs` and never confirmed: by execution `claimed` of this process, or '' (unknown). */
	claimed?: string;
	windowMs?: number;
}

export type { Outcome };

/** Why an item that met a failure is not sent again: not safe to, n8n refused it, Rate Limit Handling off, Max Retries, Max Wait. */
export type NotSentAgain = 'notSafe' | 'refused' | 'disabled' | 'exhausted' | 'waitTooLong';

/** The reasons Request Options › Rate Limit Handling gave, where the item could have been sent again. */
export type SettingsSaidNo = Exclude<NotSentAgain, 'notSafe' | 'refused'>;

export function settingsSaidNo(reason: NotSentAgain): reason is SettingsSaidNo {
	return reason !== 'notSafe' && reason !== 'refused';
}

/** Why a failed item failed, as the hints group it (failureGroup). */
export type FailureGroup =
	| 'notSent'
	| 'n8nRefused'
	| 'rejected'
	| 'unreached'
	| 'mayHaveActed'
	| 'unknownBefore'
	| 'serviceDown';

/** How a failed item ended: the one name for a failed item's end. */
export type ItemFailure =
	/** Its request could not be made (bad input, a bad credential): nothing was sent. */
	| { kind: 'notSent'; error: unknown }
	/** The service answered with a failure, or the network failed, and the item is not sent again. */
	| {
			kind: 'gaveUp';
			request: OutreachRequest;
			failure: Failure;
			sends: number;
			reason: NotSentAgain;
			askedMs?: number;
	  }
	/** Sending it threw. */
	| { kind: 'broken'; request: OutreachRequest; error: unknown; sends: number }
	/** An earlier try sent it, and the service may have acted on it: not sent again without the user's say (reRun.ts). */
	| {
			kind: 'unknownBefore';
			request: OutreachRequest;
			earlier: EarlierFailure;
			itemIndex: number;
			unconfirmedError?: unknown;
	  }
	/** The service looks down (its breaker tripped, breaker.ts): not sent, or not sent again after `last`, the failure it met. */
	| {
			kind: 'serviceDown';
			request: OutreachRequest;
			down: ServiceDown;
			sends: number;
			last?: Failure;
	  };

/** The facts of a failed item. Every field is always there; null where it does not apply. */
export interface FailureFacts extends IDataObject {
	/** The HTTP status of the service's last answer; null when it never answered. */
	statusCode: number | null;
	/** The network fault of the last send, when it got no answer, or `blocked` when n8n refused to send it; null otherwise. */
	networkError: NetworkFaultKind | 'blocked' | null;
	/** How many times the item was sent; 0 when it never was. */
	timesSent: number;
	/** The wait the service last asked for (Retry-After, or its rate-limit headers), in seconds; null when it asked none. */
	retryAfterSeconds: number | null;
	outcome: Outcome;
}

/**
 * The facts of a failure. A request that was never made, or could not be
 * sent, left nothing with the service; one an earlier try had carried out
 * did, though it was not sent this time.
 */
export function failureFacts(failure: ItemFailure): FailureFacts {
	if (failure.kind === 'notSent') {
		return {
			statusCode: null,
			networkError: null,
			timesSent: 0,
			retryAfterSeconds: null,
			outcome: 'notActed',
		};
	}
	if (failure.kind === 'unknownBefore') {
		const { earlier } = failure;
		return {
			statusCode: earlier.statusCode,
			networkError: earlier.networkError,
			timesSent: 0,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		};
	}
	if (failure.kind === 'broken') {
		return {
			statusCode: null,
			networkError: null,
			timesSent: failure.sends,
			retryAfterSeconds: null,
			outcome: 'mayHaveActed',
		};
	}
	const last = failure.kind === 'gaveUp' ? failure.failure : failure.last;
	if (last === undefined)
		return {
			statusCode: null,
			networkError: null,
			timesSent: failure.sends,
			retryAfterSeconds: null,
			outcome: 'notActed',
		};
	const outcome = outcomeOf(last);
	if (last.kind === 'refusal')
		return {
			statusCode: null,
			networkError: 'blocked',
			// The refused send never went out.
			timesSent: failure.sends - 1,
			retryAfterSeconds: null,
			outcome,
		};
	if (last.kind === 'network')
		return {
			statusCode: null,
			networkError: last.fault,
			timesSent: failure.sends,
			retryAfterSeconds: null,
			outcome,
		};
	return {
		statusCode: last.status,
		networkError: null,
		timesSent: failure.sends,
		retryAfterSeconds:
			last.retryAfterMs === undefined ? null : Math.round(last.retryAfterMs / 100) / 10,
		outcome,
	};
}

/**
 * Why an item failed, as the hints group it: never sent (its request could
 * not be made), not sent because n8n refused it, rejected by the service, never reached the service (refused,
 * DNS, TLS), may have been carried out, sent in an earlier try without a
 * confirmation, or not sent (again) because the service looked down.
 */
export function failureGroup(failure: ItemFailure): FailureGroup {
	if (
		failure.kind === 'notSent' ||
		failure.kind === 'unknownBefore' ||
		failure.kind === 'serviceDown'
	)
		return failure.kind;
	const facts = failureFacts(failure);
	if (facts.networkError === 'blocked') return 'n8nRefused';
	if (facts.outcome === 'mayHaveActed') return 'mayHaveActed';
	return facts.networkError === null ? 'rejected' : 'unreached';
}

/** What a failed item's JSON holds: the text and its facts, or (as a tool) the text only. */
export type FailedItemShape = 'withFacts' | 'textOnly';

/** The shape for a step of a workflow, whatever its On Error, or for a tool call. */
export function failedItemShape(asTool: boolean): FailedItemShape {
	return asTool ? 'textOnly' : 'withFacts';
}

/** A failed item's JSON: its error text, and its facts in `message`. */
export function failedItemJson(
	error: string,
	facts: FailureFacts,
	shape: FailedItemShape,
): IDataObject {
	if (shape === 'textOnly') return { error };
	return { error, message: { ...facts } };
}
