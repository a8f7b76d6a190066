// The packed package installed once per tarball content, as n8n's installer
// does (`npm install <tarball>` into .n8n/nodes), and hard-linked into each
// suite's user folder: an install takes about 30 s, a link well under one, and
// the suites boot n8n many times.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { installPackage } from '../../../scripts/n8n/user-folder.mts';
import { PACKAGE_NAME } from '../../../scripts/n8n/versions.mts';

const CACHE = path.join(tmpdir(), 'outreach-e2e-installed');

/** A user folder whose .n8n/nodes holds this tarball, installed by npm once per content for every suite and worker. */
async function installedOnce(tarball: string): Promise<string> {
	const hash = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16);
	const folder = path.join(CACHE, hash);
	if (existsSync(path.join(folder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json')))
		return folder;
	mkdirSync(CACHE, { recursive: true });
	const staging = mkdtempSync(path.join(CACHE, `${hash}-`));
	await installPackage(staging, tarball);
	try {
		renameSync(staging, folder);
	} catch {
		// Another suite's worker installed the same tarball first: its folder is as good.
		rmSync(staging, { recursive: true, force: true });
	}
	return folder;
}

/**
 * A fresh N8N_USER_FOLDER with the tarball in <folder>/.n8n/nodes: the
 * installed packages hard-linked, the folder's own package files copied, so
 * that nothing n8n writes there reaches another suite's folder.
 */
export async function userFolderWithPackage(tarball: string): Promise<string> {
	const installed = await installedOnce(tarball);
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-n8n-'));
	execFileSync('cp', ['-al', path.join(installed, '.n8n'), folder]);
	const nodes = path.join(folder, '.n8n', 'nodes');
	for (const file of ['package.json', 'package-lock.json']) {
		const linked = path.join(nodes, file);
		if (!existsSync(linked)) continue;
		const copy = `${linked}.copy`;
		copyFileSync(linked, copy);
		unlinkSync(linked);
		renameSync(copy, linked);
	}
	return folder;
}
