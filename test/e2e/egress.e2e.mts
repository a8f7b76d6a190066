// Every request goes where n8n lets it: the node's runs and its credential test
// (POST /rest/credentials/test, as the credential dialog runs it) alike, in
// real n8n (`n8n start`, the package from its tarball). Each setting gets an
// n8n of its own:
// - a proxy that is the only way out, and the only one that knows the
//   service's host name: both go through it;
// - SSRF protection on, the service on an address it blocks (2.41.1): n8n
//   refuses both, the items fail `notActed` with n8n's reason, the test fails
//   in a sentence, and the service sees nothing;
// - the same, with the address allowed: both go through.
// With SSRF protection on, n8n resolves a host itself before it sends, so the
// proxy's own host name is kept out of those cases.
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

const CREDENTIAL = 'outreachEgress';
const WORKFLOW = 'outreach-egress';
const NODE = 'Get Use Case';
/** A host name DNS does not know (.test, RFC 6761): only the proxy maps it, to this machine. */
const PROXY_ONLY_HOST = 'outreach.proxy-only.test';
const IDS = ['uc-1', 'uc-2'];

/** n8n 2.41.1's words when SSRF protection blocks an address (SsrfBlockedIpError). */
const SSRF_BLOCKED = 'The request was blocked because it resolves to a restricted IP address';
/** n8n's words for a declarative test's success. */
const N8N_OK = { status: 'OK', message: 'Connection successful!' };

/** Webhook › Split Out (the event's ids) › Get Use Case, failed items on the regular output. */
const getsWhatTheEventLists = workflowOf(WORKFLOW, [
	webhookTrigger(WORKFLOW, { responseData: 'allEntries' }),
	{
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.ids', include: 'noOtherFields', options: {} },
	},
	outreachNode(
		NODE,
		{ resource: 'useCase', operation: 'get', useCaseId: '={{ $json.id }}' },
		{ credentials: outreachCredential(CREDENTIAL), onError: 'continueRegularOutput' },
	),
]);

interface Setting {
	label: string;
	version: string;
	env: (proxy: ForwardProxy) => Record<string, string>;
	baseUrl: (sandboxUrl: string) => string;
}

const SSRF_ON = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
const PROXY: Setting = {
	label: 'a proxy that alone resolves the service',
	version: N8N_CURRENT,
	env: (proxy) => behindProxy(proxy.url),
	baseUrl: (url) => url.replace('127.0.0.1', PROXY_ONLY_HOST),
};

/** The setting's n8n, its sandbox and its proxy, and the two ways it sends: the test and a run. */
function stage(setting: Setting) {
	const sandbox = useSandbox(TEST_API_KEYS.egress);
	let proxy: ForwardProxy | undefined;
	beforeAll(async () => {
		proxy = await startProxy({ [PROXY_ONLY_HOST]: '127.0.0.1' });
	});
	afterAll(() => proxy?.close());
	const data = () => ({ apiKey: sandbox().apiKey, baseUrl: setting.baseUrl(sandbox().url) });
	const n8n = useN8n(() => ({
		version: setting.version,
		name: `egress-${setting.label.replace(/\W+/g, '-')}-${setting.version}`,
		run: 'server',
		env: setting.env(proxy as ForwardProxy),
		credentials: [outreachApiCredential(CREDENTIAL, data().apiKey, data().baseUrl)],
		workflows: [getsWhatTheEventLists],
		publish: [WORKFLOW],
		ready: [`/webhook/${WORKFLOW}`],
	}));
	beforeEach(async () => {
		await sandbox().reset();
		(proxy as ForwardProxy).seen.length = 0;
	});
	afterAll(() => {
		expect(n8n.log()).not.toContain(sandbox().apiKey);
	});
	const credentialTest = () =>
		n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { id: CREDENTIAL, name: CREDENTIAL, type: 'outreachSequencesApi', data: data() },
		});
	return { sandbox, proxy: () => proxy as ForwardProxy, n8n, credentialTest };
}

/** The event, and what the node put out for it (the webhook answers with every item). */
async function run(n8n: N8n): Promise<Array<Record<string, unknown>>> {
	const response = await fetch(`${n8n.server.url}/webhook/${WORKFLOW}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ids: IDS.map((id) => ({ id })) }),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as Array<Record<string, unknown>>;
}

/** The hints the node left in the run's execution. */
async function hints(n8n: N8n): Promise<string[]> {
	const [latest] = await n8n.executions(WORKFLOW);
	const { data } = await n8n.execution(latest.id);
	const task = data.resultData.runData[NODE]?.[0] as { hints?: Array<{ message: string }> };
	return (task?.hints ?? []).map((hint) => hint.message);
}

describe(`n8n ${N8N_CURRENT}: ${PROXY.label}`, () => {
	const { sandbox, proxy, n8n, credentialTest } = stage(PROXY);
	const through = (path: string) =>
		`GET http://${PROXY_ONLY_HOST}:${new URL(sandbox().url).port}${path} key:yes`;
	/** What the proxy carried to the service (n8n may send other requests of its own through it). */
	const toService = () => proxy().seen.filter((line) => line.includes(PROXY_ONLY_HOST));

	test('the credential test goes through the proxy', async () => {
		expect(await credentialTest()).toEqual(N8N_OK);
		expect(toService()).toEqual([through('/v1/use_cases/n8n-credential-test')]);
	});

	test('a run goes through the proxy, each item answered', async () => {
		const items = await run(n8n);
		expect(items.map((item) => item.id)).toEqual(IDS);
		expect(toService().sort()).toEqual(IDS.map((id) => through(`/v1/use_cases/${id}`)).sort());
	});
});

describe(`n8n ${N8N_CURRENT}: SSRF protection on, the service on an address it blocks`, () => {
	const { sandbox, n8n, credentialTest } = stage({
		label: 'ssrf-blocked',
		version: N8N_CURRENT,
		env: () => SSRF_ON,
		baseUrl: (url) => url,
	});
	const browser = useChromium();

	test("the credential test sends nothing and fails with n8n's reason", async () => {
		expect(await credentialTest()).toEqual({ status: 'Error', message: SSRF_BLOCKED });
		expect(await sandbox().requests()).toEqual([]);
	});

	test("a run's items fail unsent, notActed, with n8n's reason and the setting an administrator can change; the hint names the first", async () => {
		const items = await run(n8n);
		expect(items).toHaveLength(IDS.length);
		for (const item of items) {
			expect(item.message).toMatchObject({
				statusCode: null,
				networkError: 'blocked',
				timesSent: 0,
				outcome: 'notActed',
			});
			// n8n's reason, and the n8n setting that lifts it: the refusal was read as one of an address,
			// not of a host name (the words around them: test/unit/refusal.test.mts).
			expect(item.error).toContain(SSRF_BLOCKED);
			expect(item.error).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		}
		expect(await sandbox().requests()).toEqual([]);
		expect((await hints(n8n)).join(' ')).toContain(`"${IDS[0]}"`);
	});

	test('the credential form shows the refusal', async () => {
		const context = await signedInContext(browser(), n8n.server, {
			viewport: { width: 1440, height: 900 },
		});
		const page = await context.newPage();
		await page.goto(`${n8n.server.url}/home/credentials/${CREDENTIAL}`);
		const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
		await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 60_000 });
		await dialog.getByText('More details').click();
		await dialog.getByText(SSRF_BLOCKED, { exact: true }).waitFor();
		await page.screenshot({ path: screenshotPath('credential-form-ssrf-blocked') });
		await context.close();
		expect(await sandbox().requests()).toEqual([]);
	});
});

describe(`n8n ${N8N_CURRENT}: SSRF protection on, the service's address allowed`, () => {
	const { sandbox, n8n, credentialTest } = stage({
		label: 'ssrf-allowed',
		version: N8N_CURRENT,
		env: () => ({ ...SSRF_ON, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.0/8' }),
		baseUrl: (url) => url,
	});

	test('the credential test and a run both reach the service', async () => {
		expect(await credentialTest()).toEqual(N8N_OK);
		const items = await run(n8n);
		expect(items.map((item) => item.id)).toEqual(IDS);
		expect((await sandbox().requests()).map((request) => request.url).sort()).toEqual(
			['/v1/use_cases/n8n-credential-test', ...IDS.map((id) => `/v1/use_cases/${id}`)].sort(),
		);
	});
});
