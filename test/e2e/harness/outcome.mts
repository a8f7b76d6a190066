// How an `n8n execute` run's outcome is read and expected: the facts a
// failed item carries beside its error, and the execution hints n8n keeps in
// the run data beside the node's items, by their kind and whom they name
// (their words: test/unit/hints*.test.mts).
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

/** A hint of this kind in the output pane, whatever its words. */
export const hintOf = (type: 'info' | 'warning') => ({
	type,
	location: 'outputPane',
	message: expect.any(String),
});

/** The failed-items warning, which names the item to look at first by its name or ID. */
export const failuresWarning = (named: string) => ({
	...hintOf('warning'),
	message: expect.stringContaining(`"${named}"`),
});

/** The hints of a node's first run; fails when the node did not run. */
export function hintsOf(run: ExecuteRun, node: string): Hint[] {
	const task = run.runData[node]?.[0] as (NodeRun & { hints?: Hint[] }) | undefined;
	if (!task)
		throw new Error(
			`${node} did not run; the nodes that ran: ${Object.keys(run.runData).join(', ')}`,
		);
	return task.hints ?? [];
}
