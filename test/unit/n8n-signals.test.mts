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

const EVERY_SIGNAL = {
	'node_modules/n8n/dist/tool-generation/ai-tools.js':
		"function convertNodeToAiTool(item) {\n    item.description.name += 'Tool';\n}",
	'node_modules/n8n-core/dist/execution-engine/node-execution-context/base-execute-context.js':
		'class B { getExecuteData() { return this.executeData; } }',
	'node_modules/n8n-core/dist/execution-engine/node-execution-context/execute-context.js':
		'class E {\n    isToolExecution() {\n        return false;\n    }\n}',
	'node_modules/@n8n/n8n-nodes-langchain/dist/nodes/mcp/McpTrigger/McpTrigger.node.js':
		'description = { displayName: "MCP Server Trigger", name: "mcpTrigger" }',
};

test('every signal tool mode reads has a way to be found', () => {
	expect(Object.keys(FINDERS).sort()).toEqual(Object.keys(N8N_SIGNALS).sort());
});

test('an n8n that has every signal passes', () => {
	const checks = checkN8nSignals(fakeInstall('2.41.1', EVERY_SIGNAL));
	expect(checks.map((check) => [check.signal, check.foundIn !== undefined])).toEqual(
		Object.keys(N8N_SIGNALS).map((signal) => [signal, true]),
	);
	expect(missingSignals(checks)).toEqual([]);
});

test.each(Object.keys(EVERY_SIGNAL))(
	'an n8n from 2.3 on without %s fails, naming the signal',
	(file) => {
		const files = { ...EVERY_SIGNAL, [file]: '// changed' };
		const missing = missingSignals(checkN8nSignals(fakeInstall('2.41.1', files)));
		expect(missing).toHaveLength(1);
		expect(file).toContain(
			{
				toolVariantSuffix: 'ai-tools',
				getExecuteData: 'base-execute-context',
				isToolExecution: '/execute-context',
				mcpTriggerType: 'McpTrigger',
			}[missing[0].signal],
		);
	},
);

test('an n8n older than a signal may lack it: isToolExecution before 2.3', () => {
	const files: Record<string, string> = { ...EVERY_SIGNAL };
	delete files[
		'node_modules/n8n-core/dist/execution-engine/node-execution-context/execute-context.js'
	];
	expect(missingSignals(checkN8nSignals(fakeInstall('1.123.81', files)))).toEqual([]);
	expect(
		missingSignals(checkN8nSignals(fakeInstall('2.3.0', files))).map((check) => check.signal),
	).toEqual(['isToolExecution']);
});

test('versions compare by number, not as text', () => {
	expect(compareVersions('1.123.81', '1.88.0')).toBe(1);
	expect(compareVersions('2.0.3', '2.3.0')).toBe(-1);
	expect(compareVersions('2.3.0', '2.3.0')).toBe(0);
});
