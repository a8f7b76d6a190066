// The summary of a clean run, which the hints tests vary, and a create's settings.
import type { RunSummary } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';
import { RunReport } from '../../nodes/OutreachSequences/run/outcome/runReport.ts';

/** Ten items that all succeeded, nothing in the way (run-report.test.mts checks this summary field by field). */
export const clean: RunSummary = new RunReport().summarize(
	Array.from({ length: 10 }, () => undefined),
);
export const create = { retryOnFail: false, readOnly: false };
