/** What a failed item tells a workflow besides its error text: a few flat facts and its outcome. */
import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { Failure, NetworkFaultKind, Outcome } from '../../transport/failure';
import { outcomeOf } from '../../transport/failure';
import type { ServiceDown } from '../pace/breaker';

export interface EarlierFailure {
	message: string;
	description: string;
	statusCode: number | null;
	networkError: NetworkFaultKind | 'blocked' | null;
	/** Sent but unconfirmed per n8n's store: the claiming execution in this process, or '' when unknown. */
	claimed?: string;
	windowMs?: number;
}

export type { Outcome };

export type NotSentAgain = 'notSafe' | 'refused' | 'disabled' | 'exhausted' | 'waitTooLong';

export type SettingsSaidNo = Exclude<NotSentAgain, 'notSafe' | 'refused'>;

export function settingsSaidNo(reason: NotSentAgain): reason is SettingsSaidNo {
	return reason !== 'notSafe' && reason !== 'refused';
}

export type FailureGroup =
	| 'notSent'
	| 'n8nRefused'
	| 'rejected'
	| 'unreached'
	| 'mayHaveActed'
	| 'unknownBefore'
	| 'serviceDown';

export type ItemFailure =
	| { kind: 'notSent'; error: unknown }
	| {
			kind: 'gaveUp';
			request: OutreachRequest;
			failure: Failure;
			sends: number;
			reason: NotSentAgain;
			askedMs?: number;
	  }
	| { kind: 'broken'; request: OutreachRequest; error: unknown; sends: number }
	| {
			kind: 'unknownBefore';
			request: OutreachRequest;
			earlier: EarlierFailure;
			itemIndex: number;
			unconfirmedError?: unknown;
	  }
	| {
			kind: 'serviceDown';
			request: OutreachRequest;
			down: ServiceDown;
			sends: number;
			last?: Failure;
	  };

export interface FailureFacts extends IDataObject {
	statusCode: number | null;
	networkError: NetworkFaultKind | 'blocked' | null;
	timesSent: number;
	retryAfterSeconds: number | null;
	outcome: Outcome;
}

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

export type FailedItemShape = 'withFacts' | 'textOnly';

export function failedItemShape(asTool: boolean): FailedItemShape {
	return asTool ? 'textOnly' : 'withFacts';
}

// Facts go in message: n8n's error output takes only { error } or { error, message } (docs/errors.md).
export function failedItemJson(
	error: string,
	facts: FailureFacts,
	shape: FailedItemShape,
): IDataObject {
	if (shape === 'textOnly') return { error };
	return { error, message: { ...facts } };
}
