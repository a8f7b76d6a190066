// Many executions, one service: a burst of webhook events, each its own
// execution archiving one contact, against a service that allows fewer
// requests per second than n8n runs webhook executions (about 13 per second
// on CI's 2 cores). In real n8n (`n8n start`, the workflow published), once
// for each form of Retry-After, and once with the IETF rate-limit headers.
// Every execution must succeed, each contact be archived once, and only the
// rejected requests be sent again: what holds however loaded the machine is.
// How few are rejected, and how near the ideal time, is the benchmark's
// (bench/burst.mjs). The figures go to artifacts/e2e/burst-<version>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';
import type { RateLimit } from '../harness/sandbox.mts';
import { burstOutcome, expectEachArchivedOnce, postBurst } from './harness/burst.mts';
import { ARTIFACTS, ROOT, N8N_NODE_LINES } from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const WORKFLOW = path.join(ROOT, 'test', 'e2e', 'workflows', 'burst-webhook.workflow.json');
/** Events at once, and what the service allows: 5 per second, so the ideal is EVENTS ÷ RATE seconds. */
const EVENTS = 60;
const RATE = 5;

interface BurstResult {
	limit: RateLimit;
	succeeded: number;
	rejected: number;
	others: number;
	duplicates: number;
	seconds: number;
	ideal: number;
}

describe.each(N8N_NODE_LINES)(
	'n8n %s: a burst of webhook executions against one rate-limited service',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.burst, ['--bulk-contacts', String(EVENTS)]);
		// Info logging: the figures are n8n's pace under a burst, without debug logging's cost.
		const n8n = useN8n(() => ({
			version,
			name: `burst-${version}`,
			run: 'server',
			sandbox: sandbox(),
			workflows: [WORKFLOW],
			publish: ['outreach-burst-webhook'],
			ready: ['/webhook/outreach-burst'],
			env: { N8N_LOG_LEVEL: 'info' },
		}));
		const results: BurstResult[] = [];
		// Each rate limit's round archives the same contacts afresh: n8n's memory starts empty for each.
		beforeEach(async () => await n8n.forgetMemory());

		afterAll(() => {
			mkdirSync(ARTIFACTS, { recursive: true });
			writeFileSync(
				path.join(ARTIFACTS, `burst-${version}.json`),
				`${JSON.stringify(results, null, 2)}\n`,
			);
		});

		test.each<RateLimit>([
			{ rate: RATE, burst: RATE, retryAfter: 'seconds' },
			{ rate: RATE, burst: RATE, retryAfter: 'date' },
			{ rate: RATE, burst: RATE, retryAfter: 'none' },
			{ rate: RATE, burst: RATE, retryAfter: 'none', headers: 'ietf' },
		])(
			'%j: every execution succeeds, each contact is archived once, only the rejected are sent again',
			async (limit) => {
				await sandbox().reset();
				await sandbox().setRateLimit(limit);
				const { answers, seconds } = await postBurst(
					`${n8n.server.url}/webhook/outreach-burst`,
					EVENTS,
				);
				await sandbox().setRateLimit(undefined);

				const { archived, ...outcome } = burstOutcome(answers, await sandbox().requests());
				const result = { limit, ...outcome, seconds, ideal: EVENTS / RATE };
				results.push(result);
				expectEachArchivedOnce(answers, { archived, ...outcome });
			},
			180_000,
		);

		test("n8n's log says when an execution starts behind the pace others learned, and never holds the key", () => {
			const log = n8n.log();
			expect(log).toContain(
				`Outreach Sequences: this execution waits its turn at the pace that ${sandbox().url}`,
			);
			expect(log).not.toContain(sandbox().apiKey);
		});
	},
);
