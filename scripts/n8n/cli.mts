// The n8n CLI: one command run to the end, what n8n said when it failed, and
// the run data `n8n execute --rawOutput` printed.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { LaunchError } from './versions.mts';

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs one n8n CLI command to the end. Its stdout goes to a file, not a pipe:
 * through a pipe, the megabytes of run data that `n8n execute --rawOutput`
 * prints came back cut short, or with a task runner's line inside.
 */
export function n8nCli(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
	const folder = mkdtempSync(path.join(tmpdir(), 'outreach-n8n-cli-'));
	const file = path.join(folder, 'stdout.txt');
	const out = openSync(file, 'w');
	return new Promise<CliResult>((resolve, reject) => {
		const child = spawn(bin, args, { env, stdio: ['ignore', out, 'pipe'] });
		let stderr = '';
		child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.once('error', reject);
		child.once('exit', (code) => resolve({ code, stdout: readFileSync(file, 'utf8'), stderr }));
	}).finally(() => {
		closeSync(out);
		rmSync(folder, { recursive: true, force: true });
	});
}

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * What n8n said when a command failed, in a line or two: its own last
 * messages, without colours or the stack frames of a Node error.
 */
export function n8nReason(result: CliResult): string {
	const lines = `${result.stdout}\n${result.stderr}`
		.split('\n')
		.map((line) => line.replace(ANSI_COLOUR, '').trim())
		.filter((line) => line !== '' && !/^at\s/.test(line) && !/^\^+$/.test(line));
	return lines.length ? lines.slice(-2).join(' ') : `exit code ${result.code}`;
}

/** n8n CLI command that must succeed: a failure is a LaunchError with n8n's own words. */
export async function n8nCliOk(
	bin: string,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<CliResult> {
	const result = await n8nCli(bin, args, env);
	if (result.code !== 0)
		throw new LaunchError(
			`n8n ${args[0]} failed: ${n8nReason(result)}`,
			`${result.stdout}\n${result.stderr}`,
		);
	return result;
}

/** The JSON value at the start of `text`, ignoring whatever follows it. */
function leadingJson(text: string): unknown {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{' || char === '[') depth++;
		else if ((char === '}' || char === ']') && --depth === 0)
			return JSON.parse(text.slice(0, index + 1));
	}
	return JSON.parse(text);
}

/**
 * The run's resultData (runData, error, …) from what `n8n execute
 * --rawOutput` printed: log lines, the run as JSON, and after a failed run
 * more log lines.
 */
export function resultDataOf(stdout: string): unknown {
	const start = stdout.search(/^\{/m);
	if (start < 0)
		throw new LaunchError(`No run data in the output of n8n execute:\n${stdout.slice(-4000)}`);
	return (leadingJson(stdout.slice(start)) as { data: { resultData: unknown } }).data.resultData;
}
