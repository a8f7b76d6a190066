// The record's cost for bench/re-runs.mjs, at unit level through record.ts's
// API as built in dist/: the record of RECORD_N confirmed items, each with
// the sandbox's own answer to a workload's first request (its size, its write
// and read times), and what a clean run does with it (open it, find it empty,
// drop it).
import path from 'node:path';

import { root } from './setup.mjs';

const RECORD_N = 10_000;
const RECORD_ROUNDS = 5;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { ExecutionRecord, MAX_RECORD_BYTES, RECORD_KEY } = await import(
	path.join(root, 'dist', 'nodes', 'OutreachSequences', 'run', 'memory', 'record.js')
);

/** Each item's identity (itemIdentity.ts), as a run would make it. */
const identity = (index) => `item-${index}`;

/** Keeps and reads back the record of RECORD_N items, each confirmed with the sandbox's own answer to `workload`'s first request. */
async function recordFigures(workload, sandboxUrl, apiKey) {
	const first = workload.floor({ n: 0, id: 'bulk-0' });
	const answer = await (
		await fetch(first.url, {
			method: first.method,
			headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
			body: first.body,
		})
	).json();
	const items = Array.from({ length: RECORD_N }, (_, index) => {
		const { method, url, body } = workload.floor({ n: index, id: `bulk-${index}` });
		return {
			request: { method, path: new URL(url).pathname, body },
			now: {
				kind: 'confirmed',
				answer: { ...answer, id: `bench-${index}` },
				requestChanged: false,
			},
		};
	});
	const runs = { write: [], read: [] };
	let store;
	for (let round = 0; round < RECORD_ROUNDS; round++) {
		store = {};
		let started = performance.now();
		new ExecutionRecord(store, 0, sandboxUrl).keep(items, identity);
		runs.write.push(performance.now() - started);
		const reopened = new ExecutionRecord(store, 0, sandboxUrl);
		started = performance.now();
		const confirmed = items.filter((item, index) =>
			reopened.earlierTry(index, identity(index), item.request)?.kind.startsWith('confirmed'),
		).length;
		runs.read.push(performance.now() - started);
		if (confirmed !== RECORD_N)
			throw new Error(`The record answered ${confirmed} of ${RECORD_N} items as confirmed`);
	}
	const entries = Object.values(store[RECORD_KEY]['0']);
	return {
		workload: workload.name,
		answerBytes: Buffer.byteLength(JSON.stringify(answer)),
		bytes: Buffer.byteLength(JSON.stringify(store)),
		answersKept: entries.filter((entry) => entry.kind === 'confirmed').length,
		answersDropped: entries.filter((entry) => entry.kind === 'confirmedWithoutAnswer').length,
		writeMs: median(runs.write),
		readMs: median(runs.read),
		runs,
	};
}

/** The record's figures for these workloads, against the sandbox at `sandboxUrl`. */
export async function recordCost(workloads, sandboxUrl, apiKey) {
	// What a clean run does with the record: open it, find it empty, drop it.
	const cleanRecord = [];
	for (let round = 0; round < RECORD_ROUNDS; round++) {
		const started = performance.now();
		for (let run = 0; run < 1000; run++) {
			const record = new ExecutionRecord({}, 0, sandboxUrl);
			if (record.isEmpty) record.drop();
		}
		cleanRecord.push(performance.now() - started); // ms for 1,000 runs: µs per run
	}
	const figures = [];
	for (const workload of workloads) figures.push(await recordFigures(workload, sandboxUrl, apiKey));
	return {
		items: RECORD_N,
		rounds: RECORD_ROUNDS,
		capBytes: MAX_RECORD_BYTES,
		workloads: figures,
		cleanRunMicros: median(cleanRecord),
		cleanRunRuns: cleanRecord,
	};
}
