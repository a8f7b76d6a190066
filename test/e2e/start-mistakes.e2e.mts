// `npm start` survives a newcomer's mistakes, in a clone of its own (it
// shares the dependencies and the n8n installs with this checkout): a port
// taken before it starts, while it builds and imports, and as n8n starts; a
// wrong N8N_VERSION, a start killed during its imports and started
// again, a second start while one runs, and SIGINT to the npm process.
// Ports are moved with the variables the README names, so that this suite
// and the newcomer's (on the default ports) can run side by side.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { TEST_API_KEYS } from '../harness/keys.mts';
import { recordLog } from './harness/logs.mts';
import { useCaseOverMcp } from './harness/mcp-clients.mts';
import { freePort } from './harness/n8n.mts';
import { releasePort, takePort, takePortWhen } from './harness/ports.mts';
import {
	cloneProject,
	descendants,
	killNow,
	newcomerEnv,
	portIsFree,
	runCommand,
	statusOf,
	stillRunning,
	until,
	type Command,
} from './harness/clone.mts';

const API_KEY = TEST_API_KEYS.start;
const MCP_TOKEN = 'e2e-start-mcp-token-55d1';

describe('npm start survives mistakes', () => {
	let clone: string;
	let ports: { n8n: number; broker: number; sandbox: number };
	let env: NodeJS.ProcessEnv;
	/** The start that runs from the kill-and-restart test to the SIGINT test. */
	let running: Command | undefined;
	const logs: Array<[string, Command]> = [];

	const start = (name: string, extra: Record<string, string> = {}): Command => {
		const command = runCommand('npm start', clone, { ...env, ...extra });
		logs.push([name, command]);
		return command;
	};
	const n8nUrl = () => `http://localhost:${ports.n8n}`;
	const ready = async (command: Command) =>
		(await statusOf(`${n8nUrl()}/healthz/readiness`)) === 200 &&
		(await statusOf(`${n8nUrl()}/mcp/outreach`, { method: 'POST' })) === 403 &&
		command.output().includes('Ctrl-C stops n8n and the sandbox');

	/** A Get Use Case call through the published MCP example: n8n, its credential and the sandbox, working together. */
	const useCaseThroughMcp = (id: string) =>
		useCaseOverMcp(new URL(`${n8nUrl()}/mcp/outreach`), MCP_TOKEN, id, 'e2e-start');

	beforeAll(async () => {
		clone = cloneProject({ dependencies: true });
		ports = { n8n: await freePort(), broker: await freePort(), sandbox: await freePort() };
		env = newcomerEnv({
			N8N_PORT: String(ports.n8n),
			N8N_RUNNERS_BROKER_PORT: String(ports.broker),
			SANDBOX_PORT: String(ports.sandbox),
			SANDBOX_API_KEY: API_KEY,
			MCP_TOKEN,
		});
	});

	afterAll(async () => {
		for (const [name, command] of logs) recordLog(`start-${name}`, command.output());
		if (running && running.child.exitCode === null) {
			running.child.kill('SIGINT');
			await running.exited;
		}
	});

	test('a port taken: it names the port and its variable, says another start may run, and changes nothing', async () => {
		const blocker = await takePort(ports.broker);
		try {
			const attempt = start('port-taken');
			const { code } = await attempt.exited;
			expect(code).toBe(1);
			expect(attempt.output()).toContain(`port ${ports.broker}, for n8n's task broker`);
			expect(attempt.output()).toContain('set N8N_RUNNERS_BROKER_PORT to use another');
			expect(attempt.output()).toContain(
				'Another npm start, or another n8n, may be running. Nothing was changed.',
			);
			expect(attempt.output()).not.toContain(`port ${ports.n8n}`);
			// Nothing was built, installed or imported.
			expect(existsSync(path.join(clone, 'dist'))).toBe(false);
			expect(existsSync(path.join(clone, '.n8n-local'))).toBe(false);
		} finally {
			await releasePort(blocker);
		}
	});

	/** npm start as `name`, with the task broker's port taken once its output shows `line`: it exits with 1, and this is its output. */
	async function failsWithBrokerPortTaken(name: string, line: string): Promise<string> {
		const attempt = start(name);
		const blocker = await takePortWhen(attempt, line, ports.broker);
		try {
			const { code } = await attempt.exited;
			expect(code).toBe(1);
			return attempt.output();
		} finally {
			await releasePort(blocker);
		}
	}

	test(
		'a port taken after the start-up check, while it builds and imports: checked again before n8n starts, the port and its variable named',
		async () => {
			// The imports take n8n's CLI several seconds each: the port is taken well before n8n would start.
			const output = await failsWithBrokerPortTaken('port-taken-late', 'Importing the credentials');
			expect(output).toContain(`port ${ports.broker}, for n8n's task broker`);
			expect(output).toContain('set N8N_RUNNERS_BROKER_PORT to use another');
			expect(output).toContain('It was free when npm start began; another program took it since.');
			expect(output).not.toContain('▸ Starting n8n');
			// The sandbox it had started is stopped, and the next start finds nothing left over.
			expect(await portIsFree(ports.sandbox, '127.0.0.1')).toBe(true);
			expect(existsSync(path.join(clone, '.n8n-local', 'start.json'))).toBe(false);
		},
		12 * 60_000,
	);

	test(
		"a port taken as n8n starts: n8n's exit is told in the start-up check's words, not as 'ready' and 'stopped' run together",
		async () => {
			// n8n takes seconds to reach its task broker: the port goes between the check and n8n's bind.
			const output = await failsWithBrokerPortTaken('port-taken-by-n8n-start', '▸ Starting n8n');
			expect(output).toContain(
				`✖ n8n stopped as it started. A port that npm start needs is taken by another program:\n  • port ${ports.broker}, for n8n's task broker`,
			);
			expect(output).toContain(
				`set N8N_RUNNERS_BROKER_PORT to use another, for example N8N_RUNNERS_BROKER_PORT=${ports.broker + 100} npm start`,
			);
			expect(await portIsFree(ports.sandbox, '127.0.0.1')).toBe(true);
			expect(await portIsFree(ports.n8n)).toBe(true);
		},
		12 * 60_000,
	);

	test('a wrong N8N_VERSION: it names the tested versions and leaves no half-made n8n install', async () => {
		// The n8n installs in .cache/ (n8n-<version>, and while one is made, its .partial folder and lock).
		const n8nInstalls = () =>
			readdirSync(path.join(clone, '.cache'))
				.filter((name) => name.startsWith('n8n'))
				.sort();
		const before = n8nInstalls();
		expect(before).toContain('n8n-2.41.1');
		const attempt = start('wrong-version', { N8N_VERSION: '9.9.9' });
		const { code } = await attempt.exited;
		expect(code).toBe(1);
		expect(attempt.output()).toContain(
			'There is no n8n 9.9.9 on the npm registry. Tested versions: 2.41.1 (the default), 1.123.81',
		);
		expect(n8nInstalls()).toEqual(before);
		expect(attempt.output()).not.toMatch(/^\s+at /m);
	});

	test(
		'killed during its imports, then started again: the second start stops what the first left and works',
		async () => {
			const first = start('killed');
			await until(
				() => first.output().includes('Importing the credentials'),
				10 * 60_000,
				() => first.output().slice(-2000),
			);
			// `kill -9` of npm start's own processes (npm, the bootstrap, start.mts and the n8n import), at
			// once, with no chance to clean up. The sandbox, which it started in a process group of its own, is left.
			const processes = [first.child.pid!, ...descendants(first.child.pid!)];
			const sandbox = processes.filter((pid) =>
				stillRunning([pid]).join('').includes('sandbox/cli.mts'),
			);
			expect(sandbox).toHaveLength(1);
			killNow(processes.filter((candidate) => !sandbox.includes(candidate)));
			await first.exited;
			expect(stillRunning(processes)).toEqual(stillRunning(sandbox));
			expect(await portIsFree(ports.sandbox, '127.0.0.1')).toBe(false);

			running = start('restarted');
			await until(
				() => ready(running!),
				5 * 60_000,
				() => running!.output().slice(-3000),
			);
			expect(running.output()).toContain('An earlier npm start');
			// The key and token the user set are never echoed; the variable that holds them is named instead.
			expect(running.output()).toContain('(API key: the SANDBOX_API_KEY you set)');
			expect(running.output()).toContain('Authorization: Bearer the MCP_TOKEN you set');
			for (const command of [first, running])
				expect([command.output().includes(API_KEY), command.output().includes(MCP_TOKEN)]).toEqual([
					false,
					false,
				]);
			expect(stillRunning(processes)).toEqual([]);
			expect(JSON.parse(await useCaseThroughMcp('uc-1'))).toEqual([
				expect.objectContaining({ id: 'uc-1' }),
			]);
		},
		15 * 60_000,
	);

	test('a second start while one runs: it stops at once, and the first keeps working with its credential unchanged', async () => {
		expect(running).toBeDefined();
		const state = readFileSync(path.join(clone, '.n8n-local', 'start.json'), 'utf8');
		const second = start('second');
		const { code } = await second.exited;
		expect(code).toBe(1);
		expect(second.output()).toContain(
			`npm start is already running (process ${JSON.parse(state).pid}), with n8n at ${n8nUrl()}`,
		);
		expect(second.output()).not.toContain('Importing');
		expect(readFileSync(path.join(clone, '.n8n-local', 'start.json'), 'utf8')).toBe(state);
		// The credential still points at the running sandbox: a call through it reaches the sandbox's record.
		expect(JSON.parse(await useCaseThroughMcp('uc-2'))).toEqual([
			expect.objectContaining({ id: 'uc-2' }),
		]);
		const requests = (await (
			await fetch(`http://127.0.0.1:${ports.sandbox}/__sandbox/requests`)
		).json()) as { requests: Array<{ url: string; headers: Record<string, string> }> };
		expect(
			requests.requests
				.filter((request) => request.url === '/v1/use_cases/uc-2')
				.map((request) => request.headers['x-api-key']),
		).toEqual([API_KEY]);
	});

	test('SIGINT to the npm process stops n8n, its task runners and the sandbox, and frees every port', async () => {
		expect(running).toBeDefined();
		const command = running!;
		const processes = descendants(command.child.pid!);
		expect(stillRunning(processes).join('\n')).toMatch(/task-runner/);
		command.child.kill('SIGINT');
		const { code } = await command.exited;
		expect(code).toBe(0);
		expect(stillRunning(processes)).toEqual([]);
		for (const port of [ports.n8n, ports.sandbox])
			expect([port, await portIsFree(port)]).toEqual([port, true]);
		expect([ports.broker, await portIsFree(ports.broker, '127.0.0.1')]).toEqual([
			ports.broker,
			true,
		]);
		expect(existsSync(path.join(clone, '.n8n-local', 'start.json'))).toBe(false);
		expect(await statusOf(`${n8nUrl()}/healthz`)).toBe(0);
	});
});
