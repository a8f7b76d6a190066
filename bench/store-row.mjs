// `npm run bench:store-row`: n8n's own store calls (its DeduplicationHelper, on its own database
// connection) on the node's row filled to ROW_MAX_ENTRIES, on SQLite and on PostgreSQL: p50, p95
// and max of a record call (2 new keys, as a claim) and of a remove call (2 keys).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { installN8n } from '../scripts/n8n/install.mts';
import { postgresEnv, startPostgres } from '../test/e2e/harness/services.mts';
import { saveResult } from './report.mjs';
import { OUT_DIR, log, resultHeader, root, VERSION } from './setup.mjs';

const CALLS = Number(process.env.BENCH_STORE_ROW_CALLS ?? 60);

async function measure() {
	const require = createRequire(
		path.join(process.env.BENCH_N8N_DIR, 'node_modules/n8n/package.json'),
	);
	require('reflect-metadata');
	const { Container } = require('@n8n/di');
	const db = require('@n8n/db');
	const { DeduplicationHelper } = require('n8n/dist/deduplication/deduplication-helper.js');
	const { ROW_MAX_ENTRIES } = createRequire(import.meta.url)(
		path.join(root, 'dist/nodes/OutreachSequences/run/memory/store.js'),
	);
	const connection = Container.get(db.DbConnection);
	await connection.init();
	await connection.migrate();
	const id = 'benchStoreRow0001';
	await Container.get(db.WorkflowRepository).insert({
		id,
		name: id,
		active: false,
		nodes: [],
		connections: {},
		versionId: '00000000-0000-4000-8000-000000000001',
	});
	const helper = new DeduplicationHelper();
	const context = { workflow: { id }, node: { id: 'outreach' } };
	const options = { mode: 'entries', maxEntries: ROW_MAX_ENTRIES };
	const fill = Array.from(
		{ length: Number(process.env.BENCH_STORE_ROW_ENTRIES ?? ROW_MAX_ENTRIES) },
		(_, index) => `c:3600000:1:${index}`,
	);
	for (let from = 0; from < fill.length; from += 25_000)
		await helper.checkProcessedAndRecord(fill.slice(from, from + 25_000), 'node', context, options);
	const timed = async (call) => {
		const times = [];
		for (let index = 0; index < CALLS; index++) {
			const start = performance.now();
			await call(index);
			times.push(performance.now() - start);
		}
		const sorted = times.sort((a, b) => a - b);
		const at = (q) =>
			Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(1));
		return { p50: at(0.5), p95: at(0.95), max: at(1) };
	};
	const record = await timed((index) =>
		helper.checkProcessedAndRecord([`new:${index}:a`, `new:${index}:b`], 'node', context, options),
	);
	const remove = await timed((index) =>
		helper.removeProcessed([`new:${index}:a`, `new:${index}:b`], 'node', context, options),
	);
	const entries = await helper.getProcessedDataCount('node', context, options);
	// n8n's connection monitor would keep the process alive.
	process.stdout.write(JSON.stringify({ entries, record, remove }), () => process.exit(0));
}

/** One database's figures, from a child process of its own (n8n's config is read once, from its environment). */
function child(env) {
	return new Promise((resolve, reject) => {
		const run = spawn(process.execPath, [new URL(import.meta.url).pathname], {
			env: { ...process.env, ...env, BENCH_STORE_ROW_CHILD: '1', N8N_LOG_LEVEL: 'error' },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		run.stdout.on('data', (chunk) => (out += chunk));
		run.on('exit', (code) =>
			code === 0
				? resolve(JSON.parse(out.slice(out.indexOf('{'))))
				: reject(new Error(`exit ${code}`)),
		);
	});
}

if (process.env.BENCH_STORE_ROW_CHILD === '1') await measure();
else {
	const n8nDir = await installN8n(VERSION);
	const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-store-row-'));
	const rows = {};
	rows.sqlite = await child({ BENCH_N8N_DIR: n8nDir, N8N_USER_FOLDER: folder, DB_TYPE: 'sqlite' });
	const postgres = await startPostgres();
	try {
		rows.postgres = await child({
			BENCH_N8N_DIR: n8nDir,
			N8N_USER_FOLDER: path.join(folder, 'pg'),
			...postgresEnv(postgres),
		});
	} finally {
		await postgres.daemon.stop();
		rmSync(folder, { recursive: true, force: true });
	}
	for (const [database, row] of Object.entries(rows))
		log(
			`${database}, a row of ${row.entries} entries, ${CALLS} calls each: record p50/p95/max ${row.record.p50}/${row.record.p95}/${row.record.max} ms; remove ${row.remove.p50}/${row.remove.p95}/${row.remove.max} ms; load ${os
				.loadavg()
				.map((value) => value.toFixed(2))
				.join(', ')}`,
		);
	saveResult(OUT_DIR, 'store-row', {
		...resultHeader(),
		command: 'npm run bench:store-row',
		calls: CALLS,
		rows,
	});
}
