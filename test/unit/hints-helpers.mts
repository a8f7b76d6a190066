// The summary of a clean run, which the hints tests vary, a run with failed
// items, and a create's settings.
import type { FailureGroup } from '../../nodes/OutreachSequences/run/outcome/failedItem.ts';
import type { RunSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';

/** Ten items that all succeeded, nothing in the way (run-report.test.mts checks this summary field by field). */
export const clean: RunSummary = new RunReport().summarize(
	Array.from({ length: 10 }, () => undefined),
);
export const create = { retryOnFail: false, readOnly: false };
export const sequence = { noun: 'sequence', verb: 'create', done: 'created' };

/** `items` items (10), those in `failed` failed in its group; `labels`, each item's name where it has one. */
export function failing(
	failed: Record<number, FailureGroup>,
	labels: Array<string | undefined> = [],
	items = 10,
): RunSummary {
	const ends = Array.from({ length: items }, (_, index) => failed[index]);
	return new RunReport().summarize(
		ends,
		labels.map((label) => label || undefined),
	);
}
