// Every request goes where n8n lets it: the node's runs and its credential test
// (POST /rest/credentials/test, as the credential dialog runs it) alike, in
// real n8n (`n8n start`, the package from its tarball). Two n8n settings:
// - a proxy that is the only way out, and the only one that knows the
//   service's host name: both go through it;
// - SSRF protection on, 127.0.0.1 allowed (N8N_SSRF_ALLOWED_IP_RANGES): a
//   service there is reached; one on 127.0.0.2, which it blocks, is not: the
//   items fail unsent, `notActed`, with n8n's reason, the test fails, and the
//   credential form shows it.
// With SSRF protection on, n8n resolves a host itself before it sends, so the
// proxy's own host name is kept out of that setting.
import { TEST_API_KEYS } from '../harness/keys.mts';
import { screenshotPath, signedInContext, useChromium } from './harness/browser.mts';
import { outreachApiCredential } from './harness/credentials.mts';
import { N8N_CURRENT } from './harness/n8n.mts';
import { behindProxy, startProxy, type ForwardProxy } from './harness/proxy.mts';
import { useN8n, useSandbox, type N8n } from './harness/stage.mts';
import {
	outreachCredential,
	outreachNode,
	webhookTrigger,
	workflowOf,
} from './harness/workflows.mts';

/** A host name DNS does not know (.test, RFC 6761): only the proxy maps it, to this machine. */
const PROXY_ONLY_HOST = 'outreach.proxy-only.test';
const IDS = ['uc-1', 'uc-2'];

/** Webhook `id` › Split Out (the event's ids) › Get Use Case with credential `id`, failed items on the regular output. */
const getsWhatTheEventLists = (id: string) =>
	workflowOf(id, [
		webhookTrigger(id, { responseData: 'allEntries' }),
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'body.ids', include: 'noOtherFields', options: {} },
		},
		outreachNode(
			'Get Use Case',
			{ resource: 'useCase', operation: 'get', useCaseId: '={{ $json.id }}' },
			{ credentials: outreachCredential(id), onError: 'continueRegularOutput' },
		),
	]);

/** n8n with `env`, a credential and workflow per Base URL in `baseUrls` (named by their ids), and the two ways it sends. */
function stage(
	label: string,
	env: () => Record<string, string>,
	baseUrls: Record<string, (url: string) => string>,
) {
	const sandbox = useSandbox(TEST_API_KEYS.egress);
	const data = (id: string) => ({ apiKey: sandbox().apiKey, baseUrl: baseUrls[id](sandbox().url) });
	const ids = Object.keys(baseUrls);
	const n8n = useN8n(() => ({
		version: N8N_CURRENT,
		name: `egress-${label}`,
		run: 'server',
		env: env(),
		credentials: ids.map((id) => outreachApiCredential(id, data(id).apiKey, data(id).baseUrl)),
		workflows: ids.map(getsWhatTheEventLists),
		publish: ids,
		ready: ids.map((id) => `/webhook/${id}`),
	}));
	beforeEach(async () => await sandbox().reset());
	afterAll(() => expect(n8n.log()).not.toContain(sandbox().apiKey));
	const credentialTest = (id: string) =>
		n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id, name: id, type: 'outreachSequencesApi', data: data(id) },
		});
	/** The event, and what the node put out for it (the webhook answers with every item). */
	const run = async (id: string) => {
		const response = await fetch(`${n8n.server.url}/webhook/${id}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ids: IDS.map((value) => ({ id: value })) }),
		});
		expect(response.status).toBe(200);
		return (await response.json()) as Array<Record<string, unknown>>;
	};
	const received = async () => (await sandbox().requests()).map((request) => request.url).sort();
	return { sandbox, n8n, credentialTest, run, received };
}

/** The hints the node left in the latest execution of workflow `id`. */
async function hints(n8n: N8n, id: string): Promise<string[]> {
	const [latest] = await n8n.executions(id);
	const { data } = await n8n.execution(latest.id);
	const task = data.resultData.runData['Get Use Case']?.[0] as {
		hints?: Array<{ message: string }>;
	};
	return (task?.hints ?? []).map((hint) => hint.message);
}

describe(`n8n ${N8N_CURRENT}: a proxy that alone resolves the service`, () => {
	let proxy: ForwardProxy | undefined;
	beforeAll(async () => {
		proxy = await startProxy({ [PROXY_ONLY_HOST]: '127.0.0.1' });
	});
	afterAll(() => proxy?.close());
	const { sandbox, credentialTest, run } = stage('proxy', () => behindProxy(proxy!.url), {
		proxied: (url) => url.replace('127.0.0.1', PROXY_ONLY_HOST),
	});
	const through = (path: string) =>
		`GET http://${PROXY_ONLY_HOST}:${new URL(sandbox().url).port}${path} key:yes`;
	/** What the proxy carried to the service (n8n may send other requests of its own through it). */
	const toService = () => proxy!.seen.filter((line) => line.includes(PROXY_ONLY_HOST)).sort();

	test('the credential test and a run go through the proxy, each item answered', async () => {
		expect((await credentialTest('proxied')).status).toBe('OK');
		expect((await run('proxied')).map((item) => item.id)).toEqual(IDS);
		expect(toService()).toEqual(
			['/v1/use_cases/n8n-credential-test', ...IDS.map((id) => `/v1/use_cases/${id}`)]
				.map(through)
				.sort(),
		);
	});
});

describe(`n8n ${N8N_CURRENT}: SSRF protection on, 127.0.0.1 allowed`, () => {
	const { sandbox, n8n, credentialTest, run, received } = stage(
		'ssrf',
		() => ({ N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' }),
		{ allowed: (url) => url, blocked: (url) => url.replace('127.0.0.1', '127.0.0.2') },
	);
	const browser = useChromium();

	test('the allowed address: the credential test and a run both reach the service', async () => {
		expect((await credentialTest('allowed')).status).toBe('OK');
		expect((await run('allowed')).map((item) => item.id)).toEqual(IDS);
		expect(await received()).toEqual(
			['/v1/use_cases/n8n-credential-test', ...IDS.map((id) => `/v1/use_cases/${id}`)].sort(),
		);
	});

	test("a blocked address: the test fails, a run's items fail unsent, notActed, naming the setting an administrator can change; the hint names the first", async () => {
		expect((await credentialTest('blocked')).status).toBe('Error');
		const items = await run('blocked');
		expect(items.map((item) => item.message)).toEqual(
			IDS.map(() => ({
				statusCode: null,
				networkError: 'blocked',
				timesSent: 0,
				retryAfterSeconds: null,
				outcome: 'notActed',
			})),
		);
		for (const item of items) expect(item.error).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect((await hints(n8n, 'blocked')).join(' ')).toContain(`"${IDS[0]}"`);
		expect(await sandbox().requests()).toEqual([]);
	});

	test('the credential form shows the refusal', async () => {
		const context = await signedInContext(browser(), n8n.server, {
			viewport: { width: 1440, height: 900 },
		});
		const page = await context.newPage();
		await page.goto(`${n8n.server.url}/home/credentials/blocked`);
		const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
		await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 60_000 });
		await page.screenshot({ path: screenshotPath('credential-form-ssrf-blocked') });
		await context.close();
		expect(await sandbox().requests()).toEqual([]);
	});
});
