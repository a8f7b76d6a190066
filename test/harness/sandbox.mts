// The sandbox as the tests use it: a separate Node process (the service's
// stand-in runs on Node's own TypeScript support, as `npm run sandbox` does),
// reached over loopback sockets, with its test-support routes under /__sandbox/.
import type { Fault, RateLimit, RecordedRequest } from '../../sandbox/server.mts';
import { startSandbox } from '../../scripts/n8n/processes.mts';
import type { Daemon } from '../../scripts/n8n/processes.mts';
import { TEST_API_KEYS } from './keys.mts';

export type { Fault, RateLimit, RecordedRequest };

/** A fault's holdUntil that only the test's release() (or a reset) meets. */
export const RELEASE = '/__sandbox/release';

export interface SandboxSummary {
	requests: number;
	byStatus: Record<string, number>;
	sequencesCreated: number;
	duplicateNames: number;
	/** Requests (method, target, body) answered 2xx more than once. */
	repeatedSuccesses: number;
	maxInFlight: number;
}

export class SandboxProcess {
	private readonly daemon: Daemon;
	readonly url: string;
	readonly apiKey: string;

	private constructor(daemon: Daemon, url: string, apiKey: string) {
		this.daemon = daemon;
		this.url = url;
		this.apiKey = apiKey;
	}

	/** `args` go to sandbox/cli.mts too, for example `--bulk-contacts 100`. */
	static async start(
		apiKey: string = TEST_API_KEYS.engine,
		args: string[] = [],
	): Promise<SandboxProcess> {
		const { url, daemon } = await startSandbox(['--port', '0', '--key', apiKey, ...args]);
		return new SandboxProcess(daemon, url, apiKey);
	}

	private async control(method: string, route: string, body?: unknown): Promise<Response> {
		return await fetch(`${this.url}/__sandbox/${route}`, {
			method,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	/** The requests the service received, oldest first. */
	async requests(): Promise<RecordedRequest[]> {
		return (
			(await (await this.control('GET', 'requests')).json()) as { requests: RecordedRequest[] }
		).requests;
	}

	async maxInFlight(): Promise<number> {
		return ((await (await this.control('GET', 'requests')).json()) as { maxInFlight: number })
			.maxInFlight;
	}

	/** Adds a fault; the sandbox's sentence confirming it. */
	async addFault(fault: Fault): Promise<string> {
		return ((await (await this.control('POST', 'faults', fault)).json()) as { message: string })
			.message;
	}

	/** Waits until `count` requests are held (Fault.holdUntil): they are under way, whatever the machine's speed. */
	async held(count: number): Promise<void> {
		await this.control('GET', `held?count=${count}`);
	}

	/** Lets go the requests held until a release (`holdUntil: RELEASE`). */
	async release(): Promise<void> {
		await this.control('POST', 'release');
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

	async record(
		kind: 'contacts' | 'contactLists' | 'useCases' | 'sequences',
		id: string,
	): Promise<Record<string, unknown> | undefined> {
		const response = await this.control('GET', `records/${kind}/${encodeURIComponent(id)}`);
		return response.ok ? ((await response.json()) as Record<string, unknown>) : undefined;
	}

	/** Every record of a kind the service holds, oldest first. */
	async records(
		kind: 'contacts' | 'contactLists' | 'useCases' | 'sequences',
	): Promise<Array<Record<string, unknown>>> {
		const response = await this.control('GET', `records/${kind}`);
		return ((await response.json()) as { records: Array<Record<string, unknown>> }).records;
	}

	async close(): Promise<void> {
		await this.daemon.stop();
	}
}
