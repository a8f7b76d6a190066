// The sandbox says what it knows and what it was told (issue 45): its start
// line names the IDs a new user can archive and get, and each fault it is
// given comes back as a sentence. Over a real socket, against its own process.
import { startSandbox } from '../../scripts/n8n/processes.mts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { SandboxProcess } from '../harness/sandbox.mts';

let sandbox: SandboxProcess;
beforeAll(async () => {
	sandbox = await SandboxProcess.start(TEST_API_KEYS.engine);
});
afterAll(async () => await sandbox.close());

test('its start line names the contacts, contact lists and use cases it knows, and the bulk ones it was given', async () => {
	const started = await startSandbox([
		'--port',
		'0',
		'--key',
		TEST_API_KEYS.engine,
		'--bulk-use-cases',
		'3',
	]);
	try {
		expect(started.knownIds).toMatch(/^Known IDs: contacts c-42, c-43, 42, /);
		expect(started.knownIds).toContain('; contact lists list-1, list-2, list/3;');
		expect(started.knownIds).toContain('; use cases uc-1, uc-2, bulk-0 … bulk-2.');
		// Each one it names is there: a get of uc-1 answers 200.
		const answer = await fetch(`${started.url}/v1/use_cases/uc-1`, {
			headers: { 'X-API-Key': TEST_API_KEYS.engine },
		});
		expect(answer.status).toBe(200);
	} finally {
		await started.daemon.stop();
	}
});

test.each([
	[
		{ bodyContains: 'Autumn', status: 500, afterWrite: true, times: 2 },
		'Fault added: The next 2 requests whose body contains "Autumn" will get HTTP 500, after a create or archive is carried out.',
	],
	[
		{ pathPrefix: '/v1/contacts', method: 'post', drop: 'before-response' as const },
		'Fault added: Every request (POST) to a path that starts with "/v1/contacts" will lose the connection before any answer, and nothing is carried out.',
	],
	[
		{ pathPrefix: '/v1/contacts/42/', holdUntil: '/v1/contacts/c-43/' },
		'Fault added: Every request to a path that starts with "/v1/contacts/42/" will wait until a request to "/v1/contacts/c-43/" arrives, then get the usual answer.',
	],
])('a fault it is given comes back as a sentence: %j', async (fault, sentence) => {
	await sandbox.reset();
	expect(await sandbox.addFault(fault)).toBe(sentence);
});
