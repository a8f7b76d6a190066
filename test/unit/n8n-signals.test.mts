// The n8n signals tool mode reads (N8N_SIGNALS) and their check
// (scripts/n8n-signals.mts), against n8n installs made up here: the check
// names a signal that an n8n from its `since` on lacks. `npm run try:n8n`
// runs the same check on real n8n installs.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	FINDERS,
	N8N_SIGNALS,
	checkN8nSignals,
	compareVersions,
	missingSignals,
} from '../../scripts/n8n-signals.mts';

/** A folder shaped like an n8n install: packages with the given dist files. */
function fakeInstall(version: string, files: Record<string, string>): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'outreach-fake-n8n-'));
	const write = (file: string, text: string) => {
		mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		writeFileSync(path.join(dir, file), text);
	};
	write('node_modules/n8n/package.json', JSON.stringify({ name: 'n8n', version }));
	write('node_modules/n8n-core/package.json', JSON.stringify({ name: 'n8n-core' }));
	write(
		'node_modules/@n8n/n8n-nodes-langchain/package.json',
		JSON.stringify({
			name: '@n8n/n8n-nodes-langchain',
			n8n: { nodes: ['dist/nodes/mcp/McpTrigger/McpTrigger.node.js'] },
		}),
	);
	for (const [file, text] of Object.entries(files)) write(file, text);
	return dir;
}

const CONTEXTS = 'node_modules/n8n-core/dist/execution-engine/node-execution-context';
/** Each signal: the file of an n8n install it is found in, and what the file holds. */
const SIGNALS = {
	toolVariantSuffix: [
		'node_modules/n8n/dist/tool-generation/ai-tools.js',
		"function convertNodeToAiTool(item) {\n    item.description.name += 'Tool';\n}",
	],
	getExecuteData: [
		`${CONTEXTS}/base-execute-context.js`,
		'class B { getExecuteData() { return this.executeData; } }',
	],
	isToolExecution: [
		`${CONTEXTS}/execute-context.js`,
		'class E {\n    isToolExecution() {\n        return false;\n    }\n}',
	],
	mcpTriggerType: [
		'node_modules/@n8n/n8n-nodes-langchain/dist/nodes/mcp/McpTrigger/McpTrigger.node.js',
		'description = { displayName: "MCP Server Trigger", name: "mcpTrigger" }',
	],
};
const EVERY_SIGNAL: Record<string, string> = Object.fromEntries(Object.values(SIGNALS));

test('every signal tool mode reads has a way to be found, and an n8n that has every one passes', () => {
	expect(Object.keys(FINDERS).sort()).toEqual(Object.keys(N8N_SIGNALS).sort());
	const checks = checkN8nSignals(fakeInstall('2.41.1', EVERY_SIGNAL));
	expect(checks.filter((check) => check.foundIn === undefined)).toEqual([]);
	expect(checks).toHaveLength(Object.keys(N8N_SIGNALS).length);
});

test.each(Object.entries(SIGNALS))(
	'an n8n from 2.3 on without %s fails, naming it',
	(signal, [file]) => {
		const files = { ...EVERY_SIGNAL, [file]: '// changed' };
		const missing = missingSignals(checkN8nSignals(fakeInstall('2.41.1', files)));
		expect(missing.map((check) => check.signal)).toEqual([signal]);
	},
);

test('an n8n older than a signal may lack it, compared by number: isToolExecution before 2.3', () => {
	const files = { ...EVERY_SIGNAL };
	delete files[SIGNALS.isToolExecution[0]];
	const missing = (version: string) =>
		missingSignals(checkN8nSignals(fakeInstall(version, files))).map((check) => check.signal);
	expect(missing('1.123.81')).toEqual([]);
	expect(missing('2.3.0')).toEqual(['isToolExecution']);
	expect([compareVersions('1.123.81', '1.88.0'), compareVersions('2.0.3', '2.3.0')]).toEqual([
		1, -1,
	]);
});
