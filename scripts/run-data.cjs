// What `n8n execute --rawOutput` prints: log lines, then the run as JSON, and
// after a failed run more log lines. Shared by the e2e harness, the benchmark
// and scripts/summarize-run.mjs.

/** The JSON value at the start of `text`, ignoring whatever follows it. */
function leadingJson(text) {
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

/** The run's resultData (runData, error, …) from the output of `n8n execute --rawOutput`. */
function resultDataOf(stdout) {
	const start = stdout.search(/^\{/m);
	if (start < 0) throw new Error(`No run data in the output of n8n execute:\n${stdout.slice(-4000)}`);
	return leadingJson(stdout.slice(start)).data.resultData;
}

module.exports = { leadingJson, resultDataOf };
