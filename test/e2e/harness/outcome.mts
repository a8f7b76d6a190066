// How an `n8n execute` run's outcome is read and expected: the facts a
// failed item carries beside its error, the execution hints n8n keeps in the
// run data beside the node's items, and the warning a run's failures should
// give, from the node's own hint texts (run/outcome).
import type { FailureGroup } from '../../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import { failedItemsHint } from '../../../nodes/OutreachSequences/run/outcome/hints.ts';
import { earlierTryHint } from '../../../nodes/OutreachSequences/run/outcome/reRunHints.ts';
import { RunReport } from '../../../nodes/OutreachSequences/run/outcome/runReport.ts';
import type { ExecuteRun, NodeRun } from './n8n.mts';

/**
 * The facts of an item sent once that failed (its status or network fault,
 * and whether the service may have acted), as its JSON holds them beside
 * `error`: in `message`, in both Continue modes.
 */
export function sentOnce(facts: {
	statusCode?: number;
	networkError?: string;
	outcome: 'notActed' | 'mayHaveActed';
}): { message: Record<string, unknown> } {
	return {
		message: {
			statusCode: facts.statusCode ?? null,
			networkError: facts.networkError ?? null,
			timesSent: 1,
			retryAfterSeconds: null,
			outcome: facts.outcome,
		},
	};
}

/** An execution hint as n8n keeps it in the run data, beside the node's items. */
export interface Hint {
	type: string;
	location?: string;
	message: string;
}

/** What a create's hint calls its items (the default is an archive's). */
export const CREATE = { noun: 'sequence', verb: 'create', done: 'created' };

/**
 * The warning a run with these failures should show, from the hint texts
 * (unit-tested on their own) and the failed items the test's inputs and
 * faults make: each by its index, with its group and the name or ID the
 * hint names it by. What the real run has to get right is which group each
 * item is in, and its name.
 */
export function failuresWarning(
	items: number,
	failed: Record<number, readonly [FailureGroup, string?]>,
	readOnly = false,
	write = { noun: 'contact', verb: 'archive', done: 'archived' },
): Hint {
	const ends = Array.from({ length: items }, (_, index) => failed[index]?.[0]);
	const labels = Array.from({ length: items }, (_, index) => failed[index]?.[1]);
	// A write's hint says what may have been done in its verb.
	const subject = readOnly ? undefined : write;
	const hint = failedItemsHint(new RunReport().summarize(ends, labels), {
		retryOnFail: false,
		readOnly,
		subject,
	});
	if (!hint) throw new Error('no failures, no warning');
	return { type: 'warning', location: 'outputPane', message: hint.message };
}

/** The hints of a node's first run; fails when the node did not run. */
export function hintsOf(run: ExecuteRun, node: string): Hint[] {
	const task = run.runData[node]?.[0] as (NodeRun & { hints?: Hint[] }) | undefined;
	if (!task)
		throw new Error(
			`${node} did not run; the nodes that ran: ${Object.keys(run.runData).join(', ')}`,
		);
	return task.hints ?? [];
}

/**
 * The hint of a run of the node again (Retry On Fail) in which `answered`
 * items came from the record of an earlier try, not from the service.
 */
export function earlierTryAnsweredHint(answered: number) {
	const lastTry = new RunReport().summarize([]);
	return earlierTryHint({ ...lastTry, earlierTry: { ...lastTry.earlierTry, answered } });
}
