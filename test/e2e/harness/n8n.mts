// Real n8n for the end-to-end suites, through scripts/n8n/ (the
// one place that installs n8n, packs and installs this package, imports and
// runs n8n), plus what only the suites need: owners, REST calls, readiness.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

import {
	DEFAULT_N8N_VERSION,
	MAINTAINED_N8N_VERSION,
	ROOT,
	n8nBin,
	n8nInstallDir,
} from '../../../scripts/n8n/versions.mts';
import { n8nEnv as launcherEnv } from '../../../scripts/n8n/user-folder.mts';
import { resultDataOf } from '../../../scripts/n8n/cli.mts';
import type { Daemon } from '../../../scripts/n8n/processes.mts';

export { NODE_TYPE, PACKAGE_NAME, ROOT } from '../../../scripts/n8n/versions.mts';
export {
	exampleWorkflowFiles,
	importCredentials,
	importWorkflows,
	packPackage,
	publishWorkflow,
} from '../../../scripts/n8n/user-folder.mts';
export { n8nCli } from '../../../scripts/n8n/cli.mts';
export { freePort, startDaemon } from '../../../scripts/n8n/processes.mts';
export type { CliResult } from '../../../scripts/n8n/cli.mts';
export type { Daemon } from '../../../scripts/n8n/processes.mts';

export const ARTIFACTS = path.join(ROOT, 'artifacts', 'e2e');

/** The n8n lines users run: 2.x on Node 24, and the maintained 1.123.x line. */
export const N8N_CURRENT = process.env.E2E_N8N_CURRENT ?? DEFAULT_N8N_VERSION;
export const N8N_MAINTAINED = process.env.E2E_N8N_MAINTAINED ?? MAINTAINED_N8N_VERSION;

/**
 * The lines of a suite whose subject is the node's own code, the same on both
 * lines (its outputs, hints, pace, faults, memory): the current line, and the
 * maintained one too with `E2E_BOTH_LINES=1`, so that CI stays under 45
 * minutes. Suites about n8n's seams (its retries and crash recovery, its
 * store, tools and MCP, the credential test, installs, the editor) run on both.
 */
export const N8N_NODE_LINES =
	process.env.E2E_BOTH_LINES === '1' ? [N8N_CURRENT, N8N_MAINTAINED] : [N8N_CURRENT];

/** n8n `version`'s executable, installed into .cache/ on first use (scripts/install-n8n.sh). */
export function prepareN8n(version: string): string {
	execFileSync('bash', [path.join(ROOT, 'scripts', 'install-n8n.sh'), version], {
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	return n8nBin(n8nInstallDir(version));
}

export { userFolderWithPackage } from './installed-nodes.mts';

/** n8n's environment for the suites: the launcher's, on loopback only. */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return launcherEnv(userFolder, {
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		...extra,
	});
}

/** The tool description the node declares for an operation (its `toolDescription` default), from the built node. */
export function declaredToolDescription(resource: string, operation: string): string {
	const { OutreachSequences } = createRequire(import.meta.url)(
		path.join(ROOT, 'dist', 'nodes', 'OutreachSequences', 'OutreachSequences.node.js'),
	) as {
		OutreachSequences: new () => {
			description: {
				properties: Array<{
					name: string;
					default: unknown;
					displayOptions?: { show?: Record<string, unknown[]> };
				}>;
			};
		};
	};
	const property = new OutreachSequences().description.properties.find(
		(candidate) =>
			candidate.name === 'toolDescription' &&
			candidate.displayOptions?.show?.resource?.includes(resource) &&
			candidate.displayOptions?.show?.operation?.includes(operation),
	);
	if (typeof property?.default !== 'string')
		throw new Error(`The built node declares no tool description for ${resource} › ${operation}`);
	return property.default;
}

export interface ExecutedItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }>;
}

export interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Array<ExecutedItem[] | null> };
}

export interface ExecuteRun {
	runData: Record<string, NodeRun[]>;
	error?: {
		message?: string;
		description?: string;
		node?: { name?: string };
		/** The item the error is about, as n8n numbers items, from 0. */
		context?: { itemIndex?: number };
	};
	lastNodeExecuted?: string;
}

/** The run data that `n8n execute --rawOutput` prints after its log lines. */
export function runDataOf(stdout: string): ExecuteRun {
	return resultDataOf(stdout) as ExecuteRun;
}

/** The items one node put out, per output index, from its first run. */
export function outputsOf(run: ExecuteRun, node: string): ExecutedItem[][] {
	const task = run.runData[node]?.[0];
	return (task?.data?.main ?? []).map((items) => items ?? []);
}

/** Polls `url` until it answers 2xx, or fails with the daemon's log. */
export async function waitForHttp(url: string, daemon: Daemon, timeoutMs = 180_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (daemon.child.exitCode !== null)
			throw new Error(`The process stopped before ${url} was ready:\n${daemon.log()}`);
		const ok = await fetch(url).then(
			(response) => response.ok,
			() => false,
		);
		if (ok) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} was not ready after ${timeoutMs} ms:\n${daemon.log()}`);
}

/**
 * n8n reports ready before it has registered the published workflows'
 * webhooks; until then their URLs answer 404.
 */
export async function waitForWebhook(url: URL, daemon: Daemon, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(url, { method: 'POST' });
		if (response.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`${url.href} still answered 404 after ${timeoutMs} ms:\n${daemon.log()}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** An MCP tools/call result, as the MCP SDK's client returns it. */
export interface McpToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

export interface N8nServer {
	url: string;
	daemon: Daemon;
	/** The owner's session cookie, after setupOwner. */
	cookie: string;
}

export const OWNER = {
	email: 'owner@example.test',
	password: 'Owner-password-1',
	firstName: 'Ops',
	lastName: 'Owner',
};

/**
 * Creates the owner account through the REST API and keeps its session cookie.
 * n8n 1.x reports ready a moment before its REST routes exist, so a 404 is
 * asked again for up to a minute.
 */
export async function setupOwner(url: string): Promise<string> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const response = await fetch(`${url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(OWNER),
		});
		if (response.status === 404 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			continue;
		}
		if (!response.ok)
			throw new Error(`Owner setup failed: ${response.status} ${await response.text()}`);
		const cookie = response.headers.get('set-cookie')?.split(';')[0];
		if (!cookie) throw new Error('Owner setup returned no session cookie');
		return cookie;
	}
}

/** A REST call as the owner; throws with the body on a non-2xx answer. */
export async function rest<T>(
	server: N8nServer,
	method: string,
	route: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${server.url}/rest${route}`, {
		method,
		headers: { cookie: server.cookie, 'content-type': 'application/json', 'browser-id': 'e2e' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /rest${route} → ${response.status}: ${text}`);
	const parsed = JSON.parse(text) as { data?: T };
	return (parsed.data ?? parsed) as T;
}

/** n8n 1.x reports ready a moment before its REST routes exist: asks as the owner again for up to a minute. */
export async function waitForRest(server: N8nServer): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		try {
			await rest(server, 'GET', '/login');
			return;
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}
