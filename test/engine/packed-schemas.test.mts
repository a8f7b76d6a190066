// The packed package carries the output schemas where n8n looks for them:
// the tarball is unpacked, and n8n-core's own resolver (the one n8n's server
// and AI workflow builder use) finds each operation's file next to the node
// file that package.json's n8n.nodes names.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { loadOutputSchema, resolveOutputSchemaPath } from 'n8n-core';

import { PACKAGE_DIR } from '../harness/engine.mts';

const OPERATIONS = ['sequence/create', 'contact/archive', 'contactList/archive', 'useCase/get'];
let unpacked: string;
let work: string;

beforeAll(() => {
	work = mkdtempSync(path.join(tmpdir(), 'outreach-packed-'));
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: PACKAGE_DIR,
		encoding: 'utf8',
	}).trim();
	execFileSync('tar', ['xzf', path.join(work, tarball), '-C', work]);
	unpacked = path.join(work, 'package');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test.each(OPERATIONS)(
	'%s: n8n-core resolves the shipped schema for node version 1, and it is the built file',
	(resourceOperation) => {
		const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[] };
		};
		const nodeDir = path.dirname(path.join(unpacked, manifest.n8n.nodes[0]));
		const [resource, operation] = resourceOperation.split('/');
		const file = resolveOutputSchemaPath({ nodeDir, version: 1, resource, operation });
		expect(file).toBe(path.join(nodeDir, '__schema__', 'v1.0.0', resource, `${operation}.json`));
		const loaded = loadOutputSchema({ nodeDir, version: 1, resource, operation });
		const built = JSON.parse(
			readFileSync(
				path.join(
					PACKAGE_DIR,
					'dist',
					'nodes',
					'OutreachSequences',
					'__schema__',
					'v1.0.0',
					`${resourceOperation}.json`,
				),
				'utf8',
			),
		);
		expect(loaded).toEqual(built);
		expect(loaded).toMatchObject({ type: 'object', version: 1 });
	},
);
