// The credential test in real n8n, on both lines: 2.41.1 and 1.123.81 (`n8n
// start`, the package installed from its tarball) run the credential's own
// test, a request n8n sends itself, when the editor asks (POST
// /rest/credentials/test, what the credential dialog sends), and answer with
// a rule's sentence or n8n's own words (harness/credentials.mts). The browser
// view of the same results is in editor.e2e.mts (2.41.1); the test behind a
// proxy and under SSRF protection is in egress.e2e.mts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { TEST_API_KEYS } from '../harness/keys.mts';
import type { Fault } from '../harness/sandbox.mts';
import { N8N_CURRENT, N8N_MAINTAINED, freePort } from './harness/n8n.mts';
import { major } from '../../scripts/n8n/versions.mts';
import { UNKNOWN_HOST_URL, credentialTestSays, shownText } from './harness/credentials.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

const PROBE = 'GET /v1/use_cases/n8n-credential-test';
const webPage = (status: number): Fault => ({
	status,
	body: '<html><body>Not the API</body></html>',
	headers: { 'Content-Type': 'text/html' },
});

type Says = ReturnType<typeof credentialTestSays>;

interface Case {
	id: string;
	/** The sentence the credential shows, of those `credentialTestSays` lists. */
	says: keyof Says;
	data: () => { apiKey: string; baseUrl: string; [field: string]: string };
	/** How the sandbox answers the probe, when not as the service would. */
	fault?: () => Fault;
	/** What the sandbox received: `PROBE status` lines. */
	reached: string[];
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s: the credential test, as the credential dialog runs it',
	(version) => {
		const says = credentialTestSays(version);
		const sandbox = useSandbox(TEST_API_KEYS.credentialTest);
		const good = () => ({ apiKey: sandbox().apiKey, baseUrl: sandbox().url });
		let refusedUrl: string;
		/** Where the redirect points: another host, which must never get the key. */
		const elsewhere: string[] = [];
		let elsewhereServer: http.Server;
		let elsewhereUrl: string;

		const cases: Case[] = [
			{ id: 'credTestGood', says: 'accepted', data: good, reached: [`${PROBE} 404`] },
			{
				id: 'credTestTrailingV1',
				says: 'accepted',
				data: () => ({ ...good(), baseUrl: ` ${sandbox().url}/v1/ ` }),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWrongKey',
				says: 'wrongKey',
				data: () => ({ ...good(), apiKey: 'not-the-key' }),
				// n8n sends a credential's request again after a 401, as for a key it could refresh.
				reached: [`${PROBE} 401`, `${PROBE} 401`],
			},
			{
				id: 'credTestForbidden',
				says: 'forbidden',
				data: good,
				fault: () => ({ status: 403, body: { message: 'forbidden' } }),
				reached: [`${PROBE} 403`],
			},
			{
				id: 'credTestServerError',
				says: 'serverError',
				data: good,
				// A service that quotes the key back. n8n 1.x's debug log holds a failed test's answer
				// as it came (CredentialsTester), so there the answer quotes nothing.
				fault: () => ({
					status: 500,
					body: { message: major(version) >= 2 ? `no such key ${sandbox().apiKey}` : 'down' },
				}),
				reached: [`${PROBE} 500`],
			},
			{
				id: 'credTestDomains',
				says: 'accepted',
				// Allowed HTTP Request Domains names other hosts: n8n still lets the test reach the Base URL.
				data: () => ({
					...good(),
					allowedHttpRequestDomains: 'domains',
					allowedDomains: 'api.example.com',
				}),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestNoDomains',
				says: 'accepted',
				data: () => ({ ...good(), allowedHttpRequestDomains: 'none' }),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWebPage404',
				says: 'webPage404',
				data: good,
				fault: () => webPage(404),
				reached: [`${PROBE} 404`],
			},
			{
				id: 'credTestWebPage200',
				says: 'webPage200',
				data: good,
				fault: () => webPage(200),
				reached: [`${PROBE} 200`],
			},
			{
				id: 'credTestRedirect',
				says: 'redirect',
				data: good,
				fault: () => ({ status: 302, headers: { Location: `${elsewhereUrl}/v1/use_cases/x` } }),
				reached: [`${PROBE} 302`],
			},
			{
				id: 'credTestSchemeless',
				says: 'schemeless',
				data: () => ({ ...good(), baseUrl: sandbox().url.replace(/^http:\/\//, '') }),
				reached: [],
			},
			{
				id: 'credTestRefused',
				says: 'refused',
				data: () => ({ ...good(), baseUrl: refusedUrl }),
				reached: [],
			},
			{
				id: 'credTestNoHost',
				says: 'unknownHost',
				data: () => ({ ...good(), baseUrl: UNKNOWN_HOST_URL }),
				reached: [],
			},
		];

		beforeAll(async () => {
			// A free port: nothing listens there.
			refusedUrl = `http://127.0.0.1:${await freePort()}`;
			elsewhereServer = http.createServer((req, res) => {
				elsewhere.push(String(req.headers['x-api-key']));
				res.end('{}');
			});
			await new Promise<void>((resolve) => elsewhereServer.listen(0, '127.0.0.2', resolve));
			elsewhereUrl = `http://127.0.0.2:${(elsewhereServer.address() as AddressInfo).port}`;
		});
		afterAll(() => elsewhereServer.close());
		const n8n = useN8n(() => ({
			version,
			name: `credential-test-${version}`,
			run: 'server',
			credentials: cases.map(({ id, data }) => ({
				id,
				name: id,
				type: 'outreachSequencesApi',
				data: data(),
			})),
		}));

		test.each(cases.map((entry) => [entry.id, entry] as const))(
			'%s',
			async (_, { id, says: which, data, fault, reached }) => {
				await sandbox().reset();
				if (fault) await sandbox().addFault({ pathPrefix: '/v1/use_cases/', ...fault() });
				const answer = await n8n.rest<{ status: string; message: string }>(
					'POST',
					'/credentials/test',
					{
						credentials: { id, name: id, type: 'outreachSequencesApi', data: data() },
					},
				);
				const { status } = says[which];
				const message = await shownText(n8n.server, says[which].message);
				expect(answer).toEqual({
					status,
					message: typeof message === 'string' ? message : expect.stringMatching(message),
				});
				expect(answer.message).not.toContain(sandbox().apiKey);
				const requests = await sandbox().requests();
				expect(
					requests.map((request) => `${request.method} ${request.url} ${request.status}`),
				).toEqual(reached);
				for (const request of requests) expect(request.headers['x-api-key']).toBe(data().apiKey);
			},
		);

		test('a redirect is not followed: the other host never got the key', () => {
			expect(elsewhere).toEqual([]);
		});

		afterAll(() => {
			expect(n8n.log()).not.toContain(sandbox().apiKey);
		});
	},
);
