// The credential test in real n8n, on both lines: 2.41.1 and 1.123.81 (`n8n
// start`, the package installed from its tarball) run the node's
// credentialTest when the editor asks (POST /rest/credentials/test, what the
// credential dialog sends), and answer with its sentence. On 1.x this is also
// the first time a wrong key is caught by the test. The browser view of the
// same sentences is in editor.e2e.mts (2.41.1).
import { TEST_API_KEYS } from '../harness/keys.mts';
import { N8N_CURRENT, N8N_MAINTAINED, freePort } from './harness/n8n.mts';
import { SAYS, UNKNOWN_HOST_URL, outreachApiCredential } from './harness/credentials.mts';
import { useN8n, useSandbox } from './harness/stage.mts';

interface Case {
	id: string;
	data: () => { apiKey: string; baseUrl: string };
	result: () => { status: 'OK' | 'Error'; message: string };
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])(
	'n8n %s: the credential test, as the credential dialog runs it',
	(version) => {
		const sandbox = useSandbox(TEST_API_KEYS.credentialTest);
		let refusedUrl: string;
		const schemeless = () => sandbox().url.replace(/^http:\/\//, '');

		const cases: Case[] = [
			{
				id: 'credTestGood',
				data: () => ({ apiKey: sandbox().apiKey, baseUrl: sandbox().url }),
				result: () => ({ status: 'OK', message: SAYS.accepted }),
			},
			{
				id: 'credTestWrongKey',
				data: () => ({ apiKey: 'not-the-key', baseUrl: sandbox().url }),
				result: () => ({ status: 'Error', message: SAYS.wrongKey }),
			},
			{
				id: 'credTestSchemeless',
				data: () => ({ apiKey: sandbox().apiKey, baseUrl: schemeless() }),
				result: () => ({ status: 'Error', message: SAYS.schemeless(schemeless()) }),
			},
			{
				id: 'credTestRefused',
				data: () => ({ apiKey: sandbox().apiKey, baseUrl: refusedUrl }),
				result: () => ({ status: 'Error', message: SAYS.refused(refusedUrl) }),
			},
			{
				id: 'credTestNoHost',
				data: () => ({ apiKey: sandbox().apiKey, baseUrl: UNKNOWN_HOST_URL }),
				result: () => ({ status: 'Error', message: SAYS.unknownHost }),
			},
		];

		beforeAll(async () => {
			// A free port: nothing listens there.
			refusedUrl = `http://127.0.0.1:${await freePort()}`;
		});
		const n8n = useN8n(() => ({
			version,
			name: `credential-test-${version}`,
			run: 'server',
			credentials: cases.map(({ id, data }) =>
				outreachApiCredential(id, data().apiKey, data().baseUrl),
			),
		}));

		test.each(cases.map((entry) => [entry.id, entry] as const))(
			'%s',
			async (_, { id, data, result }) => {
				const answer = await n8n.rest<{ status: string; message: string }>(
					'POST',
					'/credentials/test',
					{
						credentials: { id, name: id, type: 'outreachSequencesApi', data: data() },
					},
				);
				expect(answer).toEqual(result());
				expect(answer.message).not.toContain(sandbox().apiKey);
			},
		);

		test('only the tests whose Base URL is the sandbox reached it, each with one GET of the probe', async () => {
			const requests = await sandbox().requests();
			expect(
				requests.map((request) => `${request.method} ${request.url} ${request.status}`),
			).toEqual([
				'GET /v1/use_cases/n8n-credential-test 404',
				'GET /v1/use_cases/n8n-credential-test 401',
			]);
		});
	},
);
