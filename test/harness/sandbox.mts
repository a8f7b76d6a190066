// The sandbox as the tests use it: a separate Node process (the service's
// stand-in runs on Node's own TypeScript support, as `npm run sandbox` does),
// reached over loopback sockets, with its test-support routes under /__sandbox/.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readline from 'node:readline';

import type { Fault, RateLimit, RecordedRequest } from '../../sandbox/server.mts';
import { TEST_API_KEYS } from './keys.mts';

const here = path.dirname(fileURLToPath(import.meta.url));

export type { Fault, RateLimit, RecordedRequest };

export interface SandboxSummary {
	requests: number;
	byStatus: Record<string, number>;
	sequencesCreated: number;
	duplicateNames: number;
	/** Requests (method, target, body) answered 2xx more than once. */
	repeatedSuccesses: number;
	maxInFlight: number;
}

const ROOT = path.resolve(here, '..', '..');

export class SandboxProcess {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly apiKey: string,
	) {}

	static async start(apiKey: string = TEST_API_KEYS.engine): Promise<SandboxProcess> {
		const child = spawn(
			process.execPath,
			['sandbox/cli.mts', '--port', '0', '--key', apiKey],
			{ cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
		);
		const firstLine = await new Promise<string>((resolve, reject) => {
			const lines = readline.createInterface({ input: child.stdout! });
			lines.once('line', resolve);
			child.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}`)));
		});
		const { url } = JSON.parse(firstLine) as { url: string };
		return new SandboxProcess(child, url, apiKey);
	}

	private async control(method: string, route: string, body?: unknown): Promise<Response> {
		return await fetch(`${this.url}/__sandbox/${route}`, {
			method,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	/** The requests the service received, oldest first. */
	async requests(): Promise<RecordedRequest[]> {
		return ((await (await this.control('GET', 'requests')).json()) as { requests: RecordedRequest[] }).requests;
	}

	async maxInFlight(): Promise<number> {
		return ((await (await this.control('GET', 'requests')).json()) as { maxInFlight: number }).maxInFlight;
	}

	async addFault(fault: Fault): Promise<void> {
		await this.control('POST', 'faults', fault);
	}

	/** Limit API requests to a token bucket; undefined lifts the limit. */
	async setRateLimit(limit: RateLimit | undefined): Promise<void> {
		await this.control('POST', 'rate-limit', limit ?? null);
	}

	async summary(): Promise<SandboxSummary> {
		return (await (await this.control('GET', 'summary')).json()) as SandboxSummary;
	}

	async reset(): Promise<void> {
		await this.control('POST', 'reset');
	}

	async record(kind: 'contacts' | 'contactLists' | 'useCases' | 'sequences', id: string): Promise<Record<string, unknown> | undefined> {
		const response = await this.control('GET', `records/${kind}/${encodeURIComponent(id)}`);
		return response.ok ? ((await response.json()) as Record<string, unknown>) : undefined;
	}

	async close(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.kill('SIGTERM');
		await exited;
	}
}
