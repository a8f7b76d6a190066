// The credential test in real n8n, on both lines: 2.41.1 and 1.123.81 (`n8n
// start`, the package installed from its tarball) run the node's
// credentialTest when the editor asks (POST /rest/credentials/test, what the
// credential dialog sends), and answer with its sentence. On 1.x this is also
// the first time a wrong key is caught by the test. The browser view of the
// same sentences is in editor.e2e.mts (2.41.1).
import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';
import { recordLog } from './harness/logs.mts';
import {
	N8N_CURRENT,
	N8N_MAINTAINED,
	freePort,
	importCredentials,
	n8nEnv,
	packPackage,
	prepareN8n,
	rest,
	startN8nServer,
	userFolderWithPackage,
	type N8nServer,
} from './harness/n8n.mts';

interface Case {
	id: string;
	data: () => { apiKey: string; baseUrl: string };
	result: () => { status: 'OK' | 'Error'; message: string };
}

describe.each([N8N_CURRENT, N8N_MAINTAINED])('n8n %s: the credential test, as the credential dialog runs it', (version) => {
	let sandbox: SandboxProcess;
	let server: N8nServer;
	let refusedUrl: string;

	const cases: Case[] = [
		{
			id: 'credTestGood',
			data: () => ({ apiKey: sandbox.apiKey, baseUrl: sandbox.url }),
			result: () => ({ status: 'OK', message: 'The outreach service accepted the API key.' }),
		},
		{
			id: 'credTestWrongKey',
			data: () => ({ apiKey: 'not-the-key', baseUrl: sandbox.url }),
			result: () => ({
				status: 'Error',
				message: "The service rejected the API key (HTTP 401). Copy a key from the service's portal: General › Integrations › API Keys.",
			}),
		},
		{
			id: 'credTestSchemeless',
			data: () => ({ apiKey: sandbox.apiKey, baseUrl: sandbox.url.replace(/^http:\/\//, '') }),
			result: () => {
				const schemeless = sandbox.url.replace(/^http:\/\//, '');
				return {
					status: 'Error',
					message: `The credential's Base URL "${schemeless}" has no http:// or https:// at the start. Add the one the service uses, for example https://${schemeless}.`,
				};
			},
		},
		{
			id: 'credTestRefused',
			data: () => ({ apiKey: sandbox.apiKey, baseUrl: refusedUrl }),
			result: () => ({
				status: 'Error',
				message: `Could not connect to the outreach service at ${refusedUrl}: the connection was refused. Check the credential's Base URL and that the service is running.`,
			}),
		},
		{
			id: 'credTestNoHost',
			data: () => ({ apiKey: sandbox.apiKey, baseUrl: 'http://outreach-sandbox.invalid' }),
			result: () => ({
				status: 'Error',
				message: 'The host "outreach-sandbox.invalid" in the credential\'s Base URL could not be found: the DNS lookup failed.',
			}),
		},
	];

	beforeAll(async () => {
		const bin = prepareN8n(version);
		const folder = await userFolderWithPackage(packPackage());
		sandbox = await SandboxProcess.start(TEST_API_KEYS.credentialTest);
		// A free port: nothing listens there.
		refusedUrl = `http://127.0.0.1:${await freePort()}`;
		const port = await freePort();
		const env = n8nEnv(folder, { N8N_PORT: String(port), N8N_RUNNERS_BROKER_PORT: String(await freePort()) });
		await importCredentials(
			bin,
			env,
			cases.map(({ id, data }) => ({ id, name: id, type: 'outreachSequencesApi', data: data() })),
		);
		server = await startN8nServer(bin, env, port);
	});

	afterAll(async () => {
		if (server) {
			await server.daemon.stop();
			recordLog(`credential-test-${version}`, server.daemon.log());
		}
		await sandbox?.close();
	});

	test.each(cases.map((entry) => [entry.id, entry] as const))('%s', async (_, { id, data, result }) => {
		const answer = await rest<{ status: string; message: string }>(server, 'POST', '/credentials/test', {
			credentials: { id, name: id, type: 'outreachSequencesApi', data: data() },
		});
		expect(answer).toEqual(result());
		expect(answer.message).not.toContain(sandbox.apiKey);
	});

	test('only the tests whose Base URL is the sandbox reached it, each with one GET of the probe', async () => {
		const requests = await sandbox.requests();
		expect(requests.map((request) => `${request.method} ${request.url} ${request.status}`)).toEqual([
			'GET /v1/use_cases/n8n-credential-test 404',
			'GET /v1/use_cases/n8n-credential-test 401',
		]);
	});
});
