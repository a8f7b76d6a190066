// Checks one n8n install for every n8n signal the node's tool mode reads
// (N8N_SIGNALS below, read by run/n8n/tool.ts): each must be there
// from the n8n version its `since` names. It reads n8n's own shipped code, as
// none of these is a documented API. `npm run try:n8n` runs it for the
// version it tries; so does the e2e suite for the versions CI installs.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import {
	MCP_SERVER_TRIGGER_TYPE,
	TOOL_VARIANT_SUFFIX,
} from '../nodes/OutreachSequences/run/n8n/tool.ts';

/** The undocumented n8n behaviour the node's tool mode reads, and the n8n version each is there from. */
export const N8N_SIGNALS = {
	toolVariantSuffix: {
		reads: `a node's AI tool variant is its type plus "${TOOL_VARIANT_SUFFIX}" (n8n's convertNodeToAiTool)`,
		since: '1.60.0',
	},
	getExecuteData: {
		reads:
			"getExecuteData().node: the node whose execution data n8n hands this node (the tool's caller)",
		since: '1.0.0',
	},
	isToolExecution: {
		reads:
			'isToolExecution(): whether the node runs as a tool call rather than a workflow step (queue mode, MCP)',
		since: '2.3.0',
	},
	mcpTriggerType: {
		reads: `the MCP Server Trigger's node type, ${MCP_SERVER_TRIGGER_TYPE}`,
		since: '1.88.0',
	},
} as const;

export type N8nSignal = keyof typeof N8N_SIGNALS;

export interface SignalCheck {
	signal: N8nSignal;
	reads: string;
	since: string;
	/** Whether this n8n is at or after `since`, so that the signal must be there. */
	expected: boolean;
	/** Where it was found: a file of the install, or undefined. */
	foundIn: string | undefined;
}

/** -1, 0 or 1, comparing release versions like 1.123.81. */
export function compareVersions(a: string, b: string): number {
	const [x, y] = [a, b].map((version) =>
		version.split('.').map((part) => Number.parseInt(part, 10) || 0),
	);
	for (let index = 0; index < 3; index++)
		if (x[index] !== y[index]) return Math.sign(x[index] - y[index]);
	return 0;
}

/** A package of the install: beside n8n, or nested in it. */
function packageDir(installDir: string, name: string): string | undefined {
	const candidates = [
		path.join(installDir, 'node_modules', 'n8n', 'node_modules', name),
		path.join(installDir, 'node_modules', name),
	];
	return candidates.find((candidate) => existsSync(path.join(candidate, 'package.json')));
}

function* javascriptFiles(dir: string): Generator<string> {
	if (!existsSync(dir)) return;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory() && entry.name !== 'node_modules') yield* javascriptFiles(full);
		else if (entry.isFile() && entry.name.endsWith('.js')) yield full;
	}
}

/** The first .js file under the packages' dist folders whose text matches. */
function findInPackages(
	installDir: string,
	packages: string[],
	pattern: RegExp,
): string | undefined {
	for (const name of packages) {
		const dir = packageDir(installDir, name);
		if (!dir) continue;
		for (const file of javascriptFiles(path.join(dir, 'dist'))) {
			if (pattern.test(readFileSync(file, 'utf8'))) return path.relative(installDir, file);
		}
	}
	return undefined;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How each signal is found in an install. */
export const FINDERS: Record<N8nSignal, (installDir: string) => string | undefined> = {
	toolVariantSuffix: (dir) =>
		findInPackages(
			dir,
			['n8n', 'n8n-workflow'],
			new RegExp(`description\\.name \\+= ['"]${escape(TOOL_VARIANT_SUFFIX)}['"]`),
		),
	getExecuteData: (dir) => findInPackages(dir, ['n8n-core'], /\bgetExecuteData(\(\)\s*\{|:)/),
	isToolExecution: (dir) => findInPackages(dir, ['n8n-core'], /^\s+isToolExecution\(\)\s*\{/m),
	mcpTriggerType: (dir) => {
		const [packageName, nodeName] = MCP_SERVER_TRIGGER_TYPE.split('.');
		const langchain = packageDir(dir, packageName);
		if (!langchain) return undefined;
		const nodes =
			(
				JSON.parse(readFileSync(path.join(langchain, 'package.json'), 'utf8')) as {
					n8n?: { nodes?: string[] };
				}
			).n8n?.nodes ?? [];
		const declares = new RegExp(`\\bname: ['"]${escape(nodeName)}['"]`);
		const file = nodes
			.map((node) => path.join(langchain, node))
			.find((node) => existsSync(node) && declares.test(readFileSync(node, 'utf8')));
		return file && path.relative(dir, file);
	},
};

/** The n8n version of an install folder (.cache/n8n-<version>). */
export function installedN8nVersion(installDir: string): string {
	const dir = packageDir(installDir, 'n8n');
	if (!dir) throw new Error(`${installDir} holds no n8n`);
	return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
		.version;
}

export function checkN8nSignals(installDir: string): SignalCheck[] {
	const version = installedN8nVersion(installDir);
	return (Object.keys(N8N_SIGNALS) as N8nSignal[]).map((signal) => ({
		signal,
		...N8N_SIGNALS[signal],
		expected: compareVersions(version, N8N_SIGNALS[signal].since) >= 0,
		foundIn: FINDERS[signal](installDir),
	}));
}

/** The checks that fail: a signal missing from an n8n that should have it. */
export function missingSignals(checks: SignalCheck[]): SignalCheck[] {
	return checks.filter((check) => check.expected && check.foundIn === undefined);
}

/** One line per signal, for people. */
export function signalReport(version: string, checks: SignalCheck[]): string {
	return checks
		.map((check) => {
			const state = check.foundIn
				? `found in ${check.foundIn}`
				: check.expected
					? 'MISSING'
					: `not in n8n ${version} (since ${check.since}); tool mode works without it`;
			return `  ${check.foundIn || !check.expected ? 'ok' : '✖ '} ${check.signal}: ${state}`;
		})
		.join('\n');
}
