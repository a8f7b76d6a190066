// Reads `n8n execute --rawOutput` output (log lines, then the run as JSON),
// prints one line per node, and exits 1 if the run or any node failed.
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2], 'utf8');
const start = text.search(/^\{/m);
if (start < 0) {
	console.error('No run data in the output.');
	process.exit(1);
}
// A failed run prints another log line after the JSON.
const run = parseLeadingJson(text.slice(start));
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

/** The JSON value at the start of `text`, ignoring whatever follows it. */
function parseLeadingJson(text) {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') depth++;
		else if ((char === '}' || char === ']') && --depth === 0) return JSON.parse(text.slice(0, index + 1));
	}
	return JSON.parse(text);
}
