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

export type NotSentAgain = 'notSafe' | 'refused' | 'disabled' | 'exhausted' | 'waitTooLong';

export type SettingsSaidNo = Exclude<NotSentAgain, 'notSafe' | 'refused'>;

export function settingsSaidNo(reason: NotSentAgain): reason is SettingsSaidNo {
	return reason !== 'notSafe' && reason !== 'refused';
}

/** How a failed item counts in the hints: refused by n8n and kept back by the breaker apart. */
export type FailureGroup = Outcome | 'n8nRefused' | 'serviceDown';

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

const facts = (
	timesSent: number,
	outcome: Outcome,
	more: Partial<FailureFacts> = {},
): FailureFacts => ({
	statusCode: null,
	networkError: null,
	timesSent,
	retryAfterSeconds: null,
	outcome,
	...more,
});

export function failureFacts(failure: ItemFailure): FailureFacts {
	if (failure.kind === 'notSent') return facts(0, 'notActed');
	if (failure.kind === 'unknownBefore') {
		const { statusCode, networkError } = failure.earlier;
		return facts(0, 'mayHaveActed', { statusCode, networkError });
	}
	if (failure.kind === 'broken') return facts(failure.sends, 'mayHaveActed');
	const last = failure.kind === 'gaveUp' ? failure.failure : failure.last;
	if (last === undefined) return facts(failure.sends, 'notActed');
	const outcome = outcomeOf(last);
	// The refused send never went out.
	if (last.kind === 'refusal')
		return facts(failure.sends - 1, outcome, { networkError: 'blocked' });
	if (last.kind === 'network') return facts(failure.sends, outcome, { networkError: last.fault });
	const retryAfterSeconds =
		last.retryAfterMs === undefined ? null : Math.round(last.retryAfterMs / 100) / 10;
	return facts(failure.sends, outcome, { statusCode: last.status, retryAfterSeconds });
}

export function failureGroup(failure: ItemFailure): FailureGroup {
	if (failure.kind === 'serviceDown') return 'serviceDown';
	const facts = failureFacts(failure);
	return facts.networkError === 'blocked' ? 'n8nRefused' : facts.outcome;
}

export type FailedItemShape = 'withFacts' | 'textOnly';

export const failedItemShape = (asTool: boolean): FailedItemShape =>
	asTool ? 'textOnly' : 'withFacts';

// Facts go in message: n8n's error output takes only { error } or { error, message } (docs/errors.md).
export const failedItemJson = (error: string, facts: FailureFacts, shape: FailedItemShape) =>
	shape === 'textOnly' ? { error } : { error, message: { ...facts } };
