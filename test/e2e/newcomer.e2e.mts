// A new user: a fresh clone with nothing beside it, the machine's own older
// Node first on PATH, and the two commands of README › Try it without an
// account, read from the README and run as written (the second given two test
// files: CI's own `npm test` runs them all). The clone may reuse the n8n
// installs and npm's cache (offline first), nothing else: Node 24 and the
// dependencies are for the commands to fetch. On its way to the first start
// that works, `npm start` survives a newcomer's mistakes: a port taken before
// it starts, while it builds and imports, and as n8n starts; a wrong
// N8N_VERSION; a start killed during its imports; then a second start while
// one runs, and SIGINT. What it took goes to artifacts/e2e/newcomer.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION } from '../../scripts/n8n/versions.mts';
import { TEST_API_KEYS } from '../harness/keys.mts';
import { ARTIFACTS, ROOT } from './harness/n8n.mts';
import { recordLog } from './harness/logs.mts';
import { useCaseOverMcp } from './harness/mcp-clients.mts';
import { releasePort, takePort, takePortWhen } from './harness/ports.mts';
import {
	cloneProject,
	descendants,
	killNow,
	newcomerEnv,
	olderNodeDir,
	portIsFree,
	runCommand,
	statusOf,
	stillRunning,
	until,
	type Command,
} from './harness/clone.mts';

/** The shell commands of the code block of README › Try it without an account, comments left out. */
function quickStartCommands(): string[] {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('\n## Try it without an account'));
	const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
	if (!block) throw new Error('README › Try it without an account has no ```sh code block');
	return block
		.split('\n')
		.map((line) => line.replace(/\s+#.*$/, '').trim())
		.filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * npm's warnings about a config it does not know, such as the nodedir in this
 * machine's ~/.npmrc: the user's own npm prints one before the project's code
 * runs; none may come from the npm commands the project runs, nor any about
 * the environment ("Unknown env config").
 */
function npmConfigWarnings(output: string): number {
	expect(output).not.toMatch(/Unknown env config/);
	return (output.match(/Unknown user config/g) ?? []).length;
}

const commands = quickStartCommands();
/** The contract check, which skips in a clone with nothing beside it, and the rule that nothing else needs ../shared. */
const SAY_SKIPPED = ['test/unit/output-schemas-contract', 'test/unit/needs-no-shared'];
const report: Record<string, unknown> = {
	commands,
	node: execFileSync(path.join(olderNodeDir(), 'node'), ['--version'], { encoding: 'utf8' }).trim(),
};
const minutes = (ms: number) => Math.round(ms / 600) / 100;
/** The README's default ports: n8n, its task broker, the sandbox. */
const PORTS = { n8n: 5678, broker: 5679, sandbox: 4010 };
const N8N = `http://localhost:${PORTS.n8n}`;
/** What the user set for the start that runs: never to be echoed. */
const SET = { SANDBOX_API_KEY: TEST_API_KEYS.start, MCP_TOKEN: 'e2e-start-mcp-token-55d1' };
const LONG = 25 * 60_000;

describe('a new user: a fresh clone and the two commands of README › Try it without an account', () => {
	let clone: string;
	/** The start that runs from the restart to SIGINT. */
	let running: Command | undefined;
	const logs: Array<[string, Command]> = [];
	const start = (name: string, extra: Record<string, string> = {}): Command => {
		const command = runCommand(commands[0], clone, newcomerEnv(extra));
		logs.push([name, command]);
		return command;
	};
	const useCaseThroughMcp = (id: string) =>
		useCaseOverMcp(new URL(`${N8N}/mcp/outreach`), SET.MCP_TOKEN, id);
	/** npm start, exiting with 1, the task broker's port taken first or once its output shows `line`. */
	async function failsWithBrokerPortTaken(name: string, line?: string): Promise<string> {
		const blocker = line ? undefined : await takePort(PORTS.broker);
		const attempt = start(name);
		const taken = blocker ?? (await takePortWhen(attempt, line!, PORTS.broker));
		try {
			expect((await attempt.exited).code).toBe(1);
			// It names the port and the variable that moves it.
			expect(attempt.output()).toContain(`port ${PORTS.broker}`);
			expect(attempt.output()).toContain('N8N_RUNNERS_BROKER_PORT');
			expect(await portIsFree(PORTS.sandbox, '127.0.0.1')).toBe(true);
			return attempt.output();
		} finally {
			await releasePort(taken);
		}
	}

	beforeAll(() => {
		clone = cloneProject();
	});

	afterAll(async () => {
		for (const [name, command] of logs) recordLog(`newcomer-${name}`, command.output());
		if (running?.child.exitCode === null) {
			running.child.kill('SIGINT');
			await running.exited;
		}
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(path.join(ARTIFACTS, 'newcomer.json'), `${JSON.stringify(report, null, 2)}\n`);
	});

	test("a contributor's shell, as .ci/run starts: `source scripts/node24.sh` under set -euo pipefail fetches Node 24 and prints nothing a shell would run but exports", () => {
		const script =
			'set -euo pipefail; source scripts/node24.sh; node --version; node scripts/dev.mjs --env 2>/dev/null';
		const result = spawnSync('bash', ['-c', script], {
			cwd: clone,
			env: newcomerEnv(),
			encoding: 'utf8',
		});
		const [version, ...exports] = result.stdout.trim().split('\n');
		expect([result.status, result.stderr.slice(-1000)]).toEqual([0, expect.anything()]);
		expect(result.stderr).toContain('Fetching Node 24');
		expect(version).toMatch(/^v24\./);
		// Fetched now, the shell has Node 24 first: nothing left to export but npm's settings.
		for (const line of exports)
			expect(line).toMatch(/^(export [A-Za-z_]+='[^']*'|unset npm_config_nodedir)$/);
	});

	test('the block of Try it without an account holds exactly two commands', () => {
		expect(commands).toHaveLength(2);
	});

	test('a port taken before it starts: it names the port and its variable, and changes nothing', async () => {
		const output = await failsWithBrokerPortTaken('port-taken');
		expect(output).not.toContain(`port ${PORTS.n8n}`);
		expect(existsSync(path.join(clone, 'dist'))).toBe(false);
		expect(existsSync(path.join(clone, '.n8n-local'))).toBe(false);
	});

	test(
		'a wrong N8N_VERSION: it names the tested versions and leaves no half-made n8n install',
		async () => {
			const installs = () =>
				readdirSync(path.join(clone, '.cache')).filter((name) => /^n8n/.test(name));
			const before = installs();
			const attempt = start('wrong-version', { N8N_VERSION: '9.9.9' });
			expect((await attempt.exited).code).toBe(1);
			for (const version of ['9.9.9', DEFAULT_N8N_VERSION, MAINTAINED_N8N_VERSION])
				expect(attempt.output()).toContain(version);
			expect(attempt.output()).not.toMatch(/^\s+at /m);
			expect(installs()).toEqual(before);
			expect(npmConfigWarnings(attempt.output())).toBeLessThanOrEqual(1);
		},
		LONG,
	);

	test(
		'a port taken while it builds and imports, or as n8n starts: it stops, the sandbox it started too, and names both',
		async () => {
			await failsWithBrokerPortTaken('port-taken-late', 'Importing the credentials');
			expect(existsSync(path.join(clone, '.n8n-local', 'start.json'))).toBe(false);
			await failsWithBrokerPortTaken('port-taken-by-n8n-start', '▸ Starting n8n');
			expect(await portIsFree(PORTS.n8n)).toBe(true);
		},
		LONG,
	);

	test(
		'killed during its imports, then the first command again: it stops what the first left, and n8n, the node, the sandbox and the MCP URL work',
		async () => {
			const first = start('killed');
			await until(
				() => first.output().includes('Importing the credentials'),
				10 * 60_000,
				() => first.output().slice(-2000),
			);
			// `kill -9` of npm start's own processes, at once; the sandbox, in a process group of its own, is left.
			const processes = [first.child.pid!, ...descendants(first.child.pid!)];
			const sandbox = processes.filter((pid) =>
				stillRunning([pid]).join('').includes('sandbox/cli.mts'),
			);
			expect(sandbox).toHaveLength(1);
			killNow(processes.filter((pid) => !sandbox.includes(pid)));
			await first.exited;
			expect(await portIsFree(PORTS.sandbox, '127.0.0.1')).toBe(false);

			const started = Date.now();
			running = start('restarted', SET);
			await until(
				async () =>
					(await statusOf(`${N8N}/healthz/readiness`)) === 200 &&
					// The MCP Server Trigger's URL is registered: without a token it refuses, it does not 404.
					(await statusOf(`${N8N}/mcp/outreach`, { method: 'POST' })) === 403 &&
					running!.output().includes('Ctrl-C'),
				5 * 60_000,
				() => running!.output().slice(-3000),
			);
			report.start = { readyAfterMinutes: minutes(Date.now() - started) };
			expect(stillRunning(processes)).toEqual([]);
			// What the user set is never echoed.
			for (const command of [first, running])
				for (const value of Object.values(SET)) expect(command.output()).not.toContain(value);
			expect(JSON.parse(await useCaseThroughMcp('uc-1'))).toEqual([
				expect.objectContaining({ id: 'uc-1' }),
			]);
		},
		LONG,
	);

	test('a second start while one runs: it stops at once, and the first keeps working with its credential unchanged', async () => {
		const state = readFileSync(path.join(clone, '.n8n-local', 'start.json'), 'utf8');
		const second = start('second');
		expect((await second.exited).code).toBe(1);
		expect(second.output()).toContain(String(JSON.parse(state).pid));
		expect(readFileSync(path.join(clone, '.n8n-local', 'start.json'), 'utf8')).toBe(state);
		expect(JSON.parse(await useCaseThroughMcp('uc-2'))).toEqual([
			expect.objectContaining({ id: 'uc-2' }),
		]);
		const { requests } = (await (
			await fetch(`http://127.0.0.1:${PORTS.sandbox}/__sandbox/requests`)
		).json()) as { requests: Array<{ url: string; headers: Record<string, string> }> };
		expect(
			requests
				.filter((request) => request.url === '/v1/use_cases/uc-2')
				.map((request) => request.headers['x-api-key']),
		).toEqual([SET.SANDBOX_API_KEY]);
	});

	test('SIGINT to its process stops n8n, its task runners and the sandbox, and frees every port', async () => {
		const command = running!;
		const processes = descendants(command.child.pid!);
		expect(stillRunning(processes).join('\n')).toMatch(/task-runner/);
		command.child.kill('SIGINT');
		expect((await command.exited).code).toBe(0);
		expect(stillRunning(processes)).toEqual([]);
		for (const port of [PORTS.n8n, PORTS.sandbox])
			expect([port, await portIsFree(port)]).toEqual([port, true]);
		expect([PORTS.broker, await portIsFree(PORTS.broker, '127.0.0.1')]).toEqual([
			PORTS.broker,
			true,
		]);
		expect(existsSync(path.join(clone, '.n8n-local', 'start.json'))).toBe(false);
		expect(npmConfigWarnings(command.output())).toBeLessThanOrEqual(1);
	});

	test(
		'the second builds and runs the tests, exiting 0, and says that the contract check was skipped',
		async () => {
			const started = Date.now();
			const tests = runCommand(`${commands[1]} -- ${SAY_SKIPPED.join(' ')}`, clone, newcomerEnv());
			const { code } = await tests.exited;
			recordLog('newcomer-test', tests.output());
			report.test = { exitCode: code, minutes: minutes(Date.now() - started) };
			expect([code, tests.output().slice(-2000)]).toEqual([0, expect.anything()]);
			expect(tests.output()).toMatch(/Tests: +1 skipped, [1-9]\d* passed/);
			expect(npmConfigWarnings(tests.output())).toBeLessThanOrEqual(1);
		},
		LONG,
	);
});
