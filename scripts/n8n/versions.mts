// The n8n versions this project runs, where each is installed, and the error
// every step of scripts/n8n/ throws.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-outreach-sequences';
/** The node's type once n8n has installed the package. */
export const NODE_TYPE = `${PACKAGE_NAME}.outreachSequences`;

/** The n8n `npm start` and the tests use unless told otherwise: the newest 2.x this registry installs. */
export const DEFAULT_N8N_VERSION = '2.41.1';
/** The maintained 1.x line, which the end-to-end suites run too. */
export const MAINTAINED_N8N_VERSION = '1.123.81';
/** Where each was tested: README › Compatibility. */
export const TESTED_N8N_VERSIONS = [DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION, '2.0.3', '1.85.4'];

/** A step that failed, in a line or two; `output` keeps everything the command printed. */
export class LaunchError extends Error {
	readonly output: string;

	constructor(message: string, output = '') {
		super(message);
		this.output = output;
	}
}

/** The major of a version, with or without its `v`. */
export const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** .cache/n8n-<version>, or .cache/n8n-<version>-node<major> for n8n run by another Node (`nodeBin`). */
export function n8nInstallDir(version: string, nodeBin?: string): string {
	const suffix = nodeBin
		? `-node${major(execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim())}`
		: '';
	return path.join(ROOT, '.cache', `n8n-${version}${suffix}`);
}

/** The n8n executable of an install folder. */
export const n8nBin = (dir: string) => path.join(dir, 'node_modules', '.bin', 'n8n');

/** Whether an install folder is complete: its executable and the mark the install leaves last. */
export const isInstalled = (dir: string) =>
	existsSync(n8nBin(dir)) && existsSync(path.join(dir, '.ready'));

export function testedVersionsText(): string {
	return `Tested versions: ${TESTED_N8N_VERSIONS.map((version) => (version === DEFAULT_N8N_VERSION ? `${version} (the default)` : version)).join(', ')} (README › Compatibility). Set N8N_VERSION to one of them, or leave it unset.`;
}
