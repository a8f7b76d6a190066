// An n8n user folder: this package packed and installed into it as n8n's
// community-package installer does, n8n's environment for it, and the
// credentials and workflows imported into it with the n8n CLI.
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { n8nCliOk } from './cli.mts';
import { npm } from './install.mts';
import { LaunchError, PACKAGE_NAME, ROOT, major } from './versions.mts';

/** `npm pack` of the built package into `destination`; returns the tarball's path. */
export function packPackage(
	destination = mkdtempSync(path.join(tmpdir(), 'outreach-pack-')),
): string {
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
		cwd: ROOT,
		encoding: 'utf8',
	}).trim();
	return path.join(destination, name);
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes with `npm install`,
 * which is what n8n's community-package installer runs.
 */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const manifest = path.join(nodesDir, 'package.json');
	if (!existsSync(manifest))
		writeFileSync(manifest, JSON.stringify({ name: 'installed-nodes', private: true }, null, 2));
	await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
		cwd: nodesDir,
		what: `Installing ${path.basename(tarball)}`,
	});
	if (!existsSync(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'))) {
		throw new LaunchError(`npm install did not install ${PACKAGE_NAME} into ${nodesDir}`);
	}
}

/** n8n's environment for a user folder: no telemetry, no update checks, SQLite with one connection. */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	// Jest sets NODE_ENV=test, which silences n8n's CLI output; users' n8n runs without it.
	const { NODE_ENV: _nodeEnv, JEST_WORKER_ID: _worker, ...inherited } = process.env;
	return {
		...inherited,
		N8N_USER_FOLDER: userFolder,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		DB_SQLITE_POOL_SIZE: '1',
		...extra,
	};
}

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** Imports credentials, replacing those with the same ids. */
export async function importCredentials(
	bin: string,
	env: NodeJS.ProcessEnv,
	credentials: StoredCredential[],
): Promise<void> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-credentials-'));
	try {
		const file = path.join(folder, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials));
		await n8nCliOk(bin, ['import:credentials', `--input=${file}`], env);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** Whether an n8n version publishes workflows (2.x) rather than activating them (1.x). */
const publishes = (version: string) => major(version) >= 2;

/** Makes an imported workflow's triggers live: `publish:workflow` on 2.x, `update:workflow --active=true` on 1.x. */
export async function publishWorkflow(
	bin: string,
	version: string,
	id: string,
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const args = publishes(version)
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
	await n8nCliOk(bin, args, env);
}

/** Takes a workflow's triggers down again: `unpublish:workflow` on 2.x, `update:workflow --active=false` on 1.x. */
export async function unpublishWorkflow(
	bin: string,
	version: string,
	id: string,
	env: NodeJS.ProcessEnv,
): Promise<void> {
	const args = publishes(version)
		? ['unpublish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=false'];
	await n8nCliOk(bin, args, env);
}

/** The example workflows `npm start` imports: examples/*.workflow.json. */
export function exampleWorkflowFiles(): string[] {
	const dir = path.join(ROOT, 'examples');
	return readdirSync(dir)
		.filter((file) => file.endsWith('.workflow.json'))
		.map((file) => path.join(dir, file));
}

/** Imports workflows (files, or workflow objects), each replacing the workflow with the same id. */
export async function importWorkflows(
	bin: string,
	env: NodeJS.ProcessEnv,
	workflows: Array<string | object>,
): Promise<void> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-workflows-'));
	try {
		for (const [index, workflow] of workflows.entries()) {
			const text =
				typeof workflow === 'string' ? readFileSync(workflow, 'utf8') : JSON.stringify(workflow);
			writeFileSync(path.join(folder, `${index}.json`), text);
		}
		await n8nCliOk(bin, ['import:workflow', '--separate', `--input=${folder}`], env);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
