// What bench/store-cost.mjs is made of: its workflows (a big run started by a
// webhook, the probe, one archive per webhook call), a POST without a time
// limit, the probe that calls a trivial webhook while a big run goes, and a
// sampler of n8n's event-loop delay from its /metrics.
import http from 'node:http';

import { oursNode } from './workloads.mjs';

/** A webhook node at `path`; `respond`: 'lastNode' (the last node's first item) or 'onReceived' (at once). */
const webhookNode = (id, path, respond) => ({
	id: 'webhook',
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: `${id}-hook`,
	parameters: { httpMethod: 'POST', path, responseMode: respond, options: {} },
});

const codeNode = (id, name, x, jsCode) => ({
	id,
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: [x, 0],
	parameters: { jsCode },
});

/** Nodes in a row, each feeding the next. */
function chain(id, nodes, settings = {}) {
	const connections = {};
	for (let index = 1; index < nodes.length; index++)
		connections[nodes[index - 1].name] = {
			main: [[{ node: nodes[index].name, type: 'main', index: 0 }]],
		};
	return {
		id,
		name: id,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1', ...settings },
	};
}

/** Run data of the big runs and the probe is not saved: n8n writing 50,000 items to its database would be timed too. */
const UNSAVED = { saveDataSuccessExecution: 'none', saveDataErrorExecution: 'none' };

/**
 * The big run: the webhook's body says how many items (`count`); the Items
 * node makes them, `{ id: 'bulk-<n>' }`, the first with the time it ended;
 * this node archives each (with `key`, Request Options › Skip Items Done
 * Before keyed by it); the Tally node answers with the time from the end of
 * Items to its own start (this node's run, and n8n handing the items on),
 * and counts what came out.
 */
export function bigRunWorkflow(id, path, key) {
	const contender = oursNode({
		resource: 'contact',
		operation: 'archive',
		contactId: '={{ $json.id }}',
		...(key && { requestOptions: { skipDoneBefore: { keySettings: { key } } } }),
	});
	return chain(
		id,
		[
			webhookNode(id, path, 'lastNode'),
			codeNode(
				'items',
				'Items',
				220,
				`const count = Number($input.first().json.body?.count ?? 0);
const items = Array.from({ length: count }, (_, index) => ({ json: { id: 'bulk-' + index } }));
if (items.length > 0) items[0].json.endedAt = Date.now();
return items;`,
			),
			{
				id: 'contender',
				name: 'Contender',
				position: [440, 0],
				...contender,
				onError: 'continueRegularOutput',
			},
			codeNode(
				'tally',
				'Tally',
				660,
				`const startedAt = Date.now();
const items = $input.all();
const skipped = items.filter((item) => item.json.skipped === true).length;
const failed = items.filter((item) => item.json.error !== undefined).length;
return [{ json: { ms: startedAt - $('Items').first().json.endedAt, items: items.length, skipped, failed } }];`,
			),
		],
		UNSAVED,
	);
}

/** The probe: a Webhook node that answers at once, and nothing else. */
export const probeWorkflow = (id, path) =>
	chain(id, [webhookNode(id, path, 'onReceived')], UNSAVED);

/** One archive per webhook call, this node on default settings, answering with the archived contact. */
export const burstWorkflow = (id, path) =>
	chain(id, [
		webhookNode(id, path, 'lastNode'),
		{
			id: 'contender',
			name: 'Contender',
			position: [220, 0],
			...oursNode({ resource: 'contact', operation: 'archive', contactId: '={{ $json.body.id }}' }),
		},
	]);

/** POSTs `body` as JSON and resolves with the parsed answer: no time limit (fetch gives up on headers after 300 s). */
export function postJson(url, body) {
	return new Promise((resolve, reject) => {
		const request = http.request(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
		});
		request.once('error', reject);
		request.once('response', (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk) => (text += chunk));
			response.once('end', () => {
				try {
					resolve({ status: response.statusCode, json: JSON.parse(text) });
				} catch {
					reject(new Error(`${url}: ${response.statusCode} ${text.slice(0, 300)}`));
				}
			});
		});
		request.end(JSON.stringify(body));
	});
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `q` quantile (0…1) of `values`; undefined when there are none. */
export function quantile(values, q) {
	if (values.length === 0) return undefined;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** p50, p99 and max of `values`, and how many. */
export const spread = (values) => ({
	count: values.length,
	p50: quantile(values, 0.5),
	p99: quantile(values, 0.99),
	max: values.length ? Math.max(...values) : undefined,
});

/**
 * Calls the probe's webhook one call at a time, `everyMs` after the last
 * answer, and reads n8n's /metrics once a second, until `stop()`: resolves
 * with each call's latency (ms) and each second's longest event-loop delay
 * (ms, n8n_nodejs_eventloop_lag_max_seconds; prom-client resets it on each
 * read), none when n8n has no such metric.
 */
export function startProbe(baseUrl, path, everyMs) {
	let running = true;
	const latencies = [];
	const loopMax = [];
	const calls = (async () => {
		while (running) {
			const started = performance.now();
			const ok = await fetch(`${baseUrl}/webhook/${path}`, { method: 'POST' }).then(
				async (response) => (await response.arrayBuffer(), response.ok),
				() => false,
			);
			if (ok) latencies.push(performance.now() - started);
			await sleep(everyMs);
		}
	})();
	const metrics = (async () => {
		while (running) {
			const text = await fetch(`${baseUrl}/metrics`).then(
				(response) => response.text(),
				() => '',
			);
			const found = /^\w*nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(text);
			if (found) loopMax.push(Number(found[1]) * 1000);
			await sleep(1000);
		}
	})();
	return {
		async stop() {
			running = false;
			await Promise.all([calls, metrics]);
			return { latencies, loopMax };
		},
	};
}

/**
 * One run of the big-run workflow `id` with `size` items, in `target`'s n8n (`{ bench, server }`),
 * with the probe going: the node's time, its items' fate, the sandbox's count, the probe's figures.
 */
export async function runBig({ bench, server }, id, size, probeMs, load) {
	await bench.control('reset', 'POST');
	const probe = startProbe(server.url, 'store-probe', probeMs);
	const started = performance.now();
	const { status, json } = await postJson(`${server.url}/webhook/${id}`, { count: size });
	const wallMs = performance.now() - started;
	const { latencies, loopMax } = await probe.stop();
	const { requests } = await bench.control('summary');
	if (status !== 200 || json.items !== size || json.failed !== 0)
		throw new Error(`${id} × ${size}: ${status} ${JSON.stringify(json)}`);
	return {
		ms: json.ms,
		wallMs,
		skipped: json.skipped,
		sent: requests,
		probe: spread(latencies),
		loopMax: spread(loopMax),
		load: load(),
	};
}
