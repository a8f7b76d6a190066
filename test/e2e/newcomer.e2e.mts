// A new user: a fresh clone with nothing beside it, the machine's own older
// Node first on PATH, and the two commands of README › Try it without an account, read
// from the README and run as written (the second given two test files: CI's
// own `npm test` runs them all). The clone may reuse the n8n
// installs and npm's cache, nothing else: Node 24 and the dependencies are
// for the commands to fetch. What it took goes to artifacts/e2e/newcomer.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ARTIFACTS, ROOT } from './harness/n8n.mts';
import { recordLog } from './harness/logs.mts';
import {
	cloneProject,
	descendants,
	diskMb,
	newcomerEnv,
	olderNodeDir,
	portIsFree,
	runCommand,
	statusOf,
	stillRunning,
	until,
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
 * machine's ~/.npmrc. The user's own npm prints one before the project's code
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

describe('a new user: a fresh clone and the two commands of README › Try it without an account', () => {
	let clone: string;

	beforeAll(() => {
		clone = cloneProject();
	});

	afterAll(() => {
		if (clone) {
			report.cloneDiskMb = diskMb(clone);
			report.n8nInstallDiskMb = diskMb(path.join(ROOT, '.cache', 'n8n-2.41.1'));
		}
		mkdirSync(ARTIFACTS, { recursive: true });
		writeFileSync(path.join(ARTIFACTS, 'newcomer.json'), `${JSON.stringify(report, null, 2)}\n`);
	});

	test("a contributor's shell, as .ci/run starts: `source scripts/node24.sh` under set -euo pipefail fetches Node 24 and prints nothing a shell would run but exports", () => {
		// Before npm start: the clone has no Node 24 yet; npm start then finds this one.
		const script =
			'set -euo pipefail; source scripts/node24.sh; node --version; node scripts/dev.mjs --env 2>/dev/null';
		const result = spawnSync('bash', ['-c', script], {
			cwd: clone,
			env: newcomerEnv(),
			encoding: 'utf8',
		});
		const [version, ...exports] = result.stdout.trim().split('\n');
		report.sourceNode24 = { exitCode: result.status, version };
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

	test(
		'the first starts n8n with the node, the sandbox and the MCP URL; SIGINT to its process stops them all and frees every port',
		async () => {
			const started = Date.now();
			const demo = runCommand(commands[0], clone, newcomerEnv());
			try {
				await until(
					async () =>
						(await statusOf('http://localhost:5678/healthz/readiness')) === 200 &&
						(await statusOf('http://127.0.0.1:4010/v1/use_cases/uc-1', {
							headers: { 'X-API-Key': 'sandbox-key-0123456789' },
						})) === 200 &&
						// The MCP Server Trigger's URL is registered: without a token it refuses, it does not 404.
						(await statusOf('http://localhost:5678/mcp/outreach', { method: 'POST' })) === 403 &&
						demo.output().includes('Ctrl-C stops n8n and the sandbox'),
					20 * 60_000,
					() => `the demo was not ready:\n${demo.output().slice(-3000)}`,
				);
				report.start = { readyAfterMinutes: minutes(Date.now() - started) };
				const processes = descendants(demo.child.pid!);
				expect(stillRunning(processes).join('\n')).toMatch(/n8n start/);
				expect(stillRunning(processes).join('\n')).toMatch(/sandbox\/cli\.mts/);

				const stopAsked = Date.now();
				demo.child.kill('SIGINT');
				const { code, signal } = await demo.exited;
				report.start = {
					...(report.start as object),
					exitCode: code,
					signal,
					stoppedInSeconds: Math.round((Date.now() - stopAsked) / 1000),
				};
				expect(stillRunning(processes)).toEqual([]);
				for (const port of [5678, 5679, 4010])
					expect([port, await portIsFree(port)]).toEqual([port, true]);
				expect(demo.output()).toContain('Installing them with npm ci');
				expect(npmConfigWarnings(demo.output())).toBeLessThanOrEqual(1);
			} finally {
				recordLog('newcomer-start', demo.output());
				if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
			}
		},
		25 * 60_000,
	);

	test(
		'the second builds and runs the tests, exiting 0, and says that the contract check was skipped and why',
		async () => {
			const started = Date.now();
			// The command as written, given two test files: CI's own `npm test` runs every test, and
			// test/unit/needs-no-shared.test.mts holds that none but the contract check reads ../shared.
			const given = `${commands[1]} -- ${SAY_SKIPPED.join(' ')}`;
			const tests = runCommand(given, clone, newcomerEnv());
			const { code } = await tests.exited;
			recordLog('newcomer-test', tests.output());
			report.test = {
				exitCode: code,
				minutes: minutes(Date.now() - started),
				summary: /Tests:.*$/m.exec(tests.output())?.[0],
			};
			expect([code, tests.output().slice(-2000)]).toEqual([0, expect.anything()]);
			expect(tests.output()).toMatch(
				/Skipped: the check of the output schemas against the service's contract, as \.\.\/shared\/api-contract\.md is not there/,
			);
			expect(tests.output()).toMatch(/Tests: +1 skipped, [1-9]\d* passed/);
			expect(npmConfigWarnings(tests.output())).toBeLessThanOrEqual(1);
		},
		25 * 60_000,
	);
});
