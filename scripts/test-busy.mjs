// `npm run test:busy`: the tests on a machine kept full. It starts one busy
// loop per core (child processes that spin), runs `npm test` three times in a
// row beside them, stops the loops however it ends (a failure, Ctrl-C, kill),
// and exits non-zero when any run failed. `npm run test:busy -- e2e burst`
// runs `npm run test:e2e -- burst` once, beside one busy loop, as an e2e suite
// that boots n8n must pass. BUSY_LOOPS and BUSY_RUNS change how many loops
// and runs.
import { spawn } from 'node:child_process';
import os from 'node:os';

const args = process.argv.slice(2);
const e2e = args[0] === 'e2e';
const command = e2e ? ['npm', 'run', 'test:e2e', '--', ...args.slice(1)] : ['npm', 'test', ...args];
const count = (name, fallback) => {
	const value = Number(process.env[name] ?? fallback);
	if (!Number.isInteger(value) || value < 0) throw new Error(`${name} is a whole number`);
	return value;
};
const loops = count('BUSY_LOOPS', e2e ? 1 : os.availableParallelism());
const runs = count('BUSY_RUNS', e2e ? 1 : 3);

// Each loop spins, and leaves once this process is gone (its parent changes), even after a SIGKILL.
const SPIN = `const parent = process.ppid;
for (let turn = 1; ; turn++) if (turn % 50_000_000 === 0 && process.ppid !== parent) process.exit(0);`;
const busy = Array.from({ length: loops }, () =>
	spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }),
);
const stopLoops = () => {
	for (const loop of busy) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);

let current;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(signal, () => {
		current?.kill(signal);
		stopLoops();
		process.exit(128 + os.constants.signals[signal]);
	});

const say = (line) => console.log(`▸ test:busy: ${line}`);
say(
	`${loops} busy loop${loops === 1 ? '' : 's'} on ${os.availableParallelism()} cores; ${command.join(' ')}, ${runs} time${runs === 1 ? '' : 's'}`,
);
const results = [];
for (let run = 1; run <= runs; run++) {
	const started = Date.now();
	const code = await new Promise((resolve) => {
		current = spawn(command[0], command.slice(1), { stdio: 'inherit' });
		current.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
	});
	current = undefined;
	results.push({ run, code, seconds: Math.round((Date.now() - started) / 1000) });
	say(
		`run ${run} of ${runs}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${results.at(-1).seconds} s`,
	);
}
stopLoops();
const failed = results.filter((result) => result.code !== 0);
say(
	failed.length === 0
		? `all ${runs} runs passed beside ${loops} busy loop${loops === 1 ? '' : 's'}`
		: `${failed.length} of ${runs} runs failed: ${failed.map((result) => `run ${result.run}`).join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
