// Reads `n8n execute --rawOutput` output (log lines, then the run as JSON),
// prints one line per node, and exits 1 if the run or any node failed.
import { readFileSync } from 'node:fs';

import { leadingJson } from './run-data.cjs';

const text = readFileSync(process.argv[2], 'utf8');
const start = text.search(/^\{/m);
if (start < 0) {
	console.error('No run data in the output.');
	process.exit(1);
}
// A failed run prints another log line after the JSON.
const run = leadingJson(text.slice(start));
const { runData, error } = run.data.resultData;
for (const [name, [task]] of Object.entries(runData)) {
	const items = task.data?.main?.flat() ?? [];
	const shown = items.map((item) => item.json.id ?? item.json.error ?? '').join(', ');
	console.log(`${task.executionStatus.padEnd(7)} ${name}: ${items.length} item(s) ${shown}`);
}
const failed = Object.values(runData).some(([task]) => task.executionStatus !== 'success');
if (error || failed) {
	console.error(`The run failed: ${error?.message ?? 'a node did not succeed'}`);
	process.exit(1);
}
