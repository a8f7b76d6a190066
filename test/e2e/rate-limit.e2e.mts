// A rate-limited service in real n8n: 300 creates on
// the node's default settings against a sandbox that allows 50 requests per
// second (burst 50, Retry-After in seconds). Every item succeeds, in order, and
// the service creates each name exactly once.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { fixtureCopy } from './harness/cli.mts';
import { N8N_CURRENT, outputsOf } from './harness/n8n.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const ITEMS = 300;
const LIMIT = { rate: 50, burst: 50, retryAfter: 'seconds' as const };
const WORKFLOW_ID = 'e2eRateLimitedCreates';

/** The e2e create fixture, with 300 named items and the node on its defaults (no Request Options). */
function workflow(): Record<string, unknown> {
	const inputs = Array.from({ length: ITEMS }, (_, index) => ({
		name: `Rate-limited ${index}`,
		hour: 9,
	}));
	const fixture = fixtureCopy('sequence-create-fields', WORKFLOW_ID, {
		onError: 'continueErrorOutput',
		inputs,
	});
	for (const node of fixture.nodes)
		if (node.name === 'Outreach Sequences')
			delete (node.parameters as Record<string, unknown>).requestOptions;
	return fixture;
}

describe.each([N8N_CURRENT])(
	'n8n %s against a service limited to 50 requests per second',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.rateLimit);
		const n8n = useN8n(() => ({
			version,
			name: `rate-limit-${version}`,
			run: 'server',
			sandbox: sandbox(),
			workflows: [workflow()],
		}));

		test('300 creates on default settings: all succeed, in order, each name created exactly once', async () => {
			await sandbox().reset();
			await sandbox().setRateLimit(LIMIT);
			const { run, log } = await n8n.execute(WORKFLOW_ID);
			const [success, failure] = outputsOf(run, 'Outreach Sequences');

			expect(failure).toEqual([]);
			expect(success).toHaveLength(ITEMS);
			expect(success.map((item) => item.json.name)).toEqual(
				Array.from({ length: ITEMS }, (_, index) => `Rate-limited ${index}`),
			);
			expect(success.map((item) => item.pairedItem)).toEqual(
				Array.from({ length: ITEMS }, (_, item) => ({ item })),
			);

			const summary = await sandbox().summary();
			expect(summary.sequencesCreated).toBe(ITEMS);
			expect(summary.duplicateNames).toBe(0);
			expect(summary.byStatus['201']).toBe(ITEMS);
			// The limit was reached, and the node slowed down instead of storming it.
			expect(summary.byStatus['429']).toBeGreaterThan(0);
			expect(summary.byStatus['429']).toBeLessThanOrEqual(ITEMS * 0.2);
			// n8n's log has a line of the node's when it starts waiting on the service, naming the status
			// (its words: test/unit/texts.test.mts).
			expect(log).toMatch(/Outreach Sequences: .*\b429\b/);
		}, 120_000);
	},
);
