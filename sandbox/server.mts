// A loopback stand-in for the outreach service, driven by the contract's
// OpenAPI document (api.mts, routes.mts): each request is recorded, then meets the
// rate limit, the capacity (capacity.mts) and any scripted fault before the
// document's route answers it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Capacity } from './capacity.mts';
import { Workers } from './capacity.mts';
import { CONTROL_PREFIX, control, summarize } from './control.mts';
import { Faults, sendFault } from './faults.mts';
import type { Fault } from './faults.mts';
import { quotaHeaders, retryAfterHeader, TokenBucket } from './rate-limit.mts';
import type { RateLimit } from './rate-limit.mts';
import { DocumentRoutes } from './api.mts';
import type { JsonObject } from './seed.mts';
import { Store } from './store.mts';
import type { Answer, Kind, SeedOptions } from './store.mts';

export { OPENAPI_DOCUMENT } from './routes.mts';
export { quotaHeaders, retryAfterHeader };
export type { Capacity, Fault, RateLimit };

export const DEFAULT_API_KEY = 'sandbox-key-0123456789';

export interface RecordedRequest {
	method: string;
	/** The request target exactly as received: encoded path plus any query. */
	url: string;
	headers: http.IncomingHttpHeaders;
	/** The raw body; '' when none was sent. */
	body: string;
	operationId?: string;
	status?: number;
	/**
	 * When it arrived and when its answer was sent, as places in one count of
	 * both events since the last reset: request a overlapped request b when
	 * a.arrived < b.answered and b.arrived < a.answered.
	 */
	arrived: number;
	answered?: number;
}

export interface SandboxOptions extends SeedOptions {
	port?: number;
	host?: string;
	apiKey?: string;
	rateLimit?: RateLimit;
}

export class Sandbox {
	readonly apiKey: string;
	requests: RecordedRequest[] = [];
	/** Arrivals and answers so far, for RecordedRequest's order. */
	private events = 0;
	inFlight = 0;
	maxInFlight = 0;
	private readonly faults = new Faults();
	private bucket?: TokenBucket;
	private workers?: Workers;
	private readonly store: Store;
	private readonly routes: DocumentRoutes;
	private server?: http.Server;
	private readonly options: SandboxOptions;

	constructor(options: SandboxOptions = {}) {
		this.options = options;
		this.store = new Store(options);
		this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
		this.setRateLimit(options.rateLimit);
		this.routes = new DocumentRoutes(this.store, this.apiKey);
	}

	get url(): string {
		const address = this.server?.address() as AddressInfo | undefined;
		if (!address) throw new Error('The sandbox is not listening');
		return `http://${address.address}:${address.port}`;
	}

	async start(): Promise<this> {
		await this.routes.init();
		// Long identifiers (many kilobytes, encoded) must reach the route, not a 431.
		this.server = http.createServer(
			{ maxHeaderSize: 1 << 20 },
			(req, res) => void this.handle(req, res),
		);
		this.server.keepAliveTimeout = 5_000;
		await new Promise<void>((resolve, reject) => {
			this.server!.once('error', reject);
			this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve);
		});
		return this;
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		this.server = undefined;
	}

	/** Back to the seed data, with no faults and no recorded requests. */
	reset(): void {
		this.store.reset();
		this.faults.clear();
		this.requests = [];
		this.events = 0;
		this.maxInFlight = 0;
		this.setRateLimit(this.options.rateLimit);
		this.workers = undefined;
	}

	/** Start (or, with undefined, stop) limiting the rate of API requests. */
	setRateLimit(limit: RateLimit | undefined): void {
		this.bucket = limit ? new TokenBucket(limit) : undefined;
	}

	/** Work on so many API requests at once, so long each, the others in line (or, with undefined, on all at once). */
	setCapacity(capacity: Capacity | undefined): void {
		this.workers = capacity ? new Workers(capacity) : undefined;
	}

	addFault(fault: Fault): void {
		this.faults.add(fault);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	/** Read a record as the service holds it now. */
	peek(kind: Kind, id: string): JsonObject | undefined {
		return this.store.collection(kind).get(id);
	}

	/** Every record of a kind, as the service holds them now, oldest first. */
	list(kind: Kind): JsonObject[] {
		return [...this.store.collection(kind).values()];
	}

	/** Counts over the recorded API requests: by status, and creates of the same sequence name. */
	summary(): JsonObject {
		return summarize(
			this.requests,
			[...this.store.collection('sequences').values()],
			this.maxInFlight,
		);
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		let counted = true;
		const done = () => {
			if (counted) this.inFlight--;
			counted = false;
		};
		res.once('close', done);

		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const record: RecordedRequest = {
			method: req.method ?? '',
			url: req.url ?? '',
			headers: req.headers,
			body: Buffer.concat(chunks).toString('utf8'),
			arrived: this.events++,
		};
		res.once('finish', () => (record.answered = this.events++));
		this.requests.push(record);
		this.faults.arrived(record.url);

		if (record.url.startsWith(CONTROL_PREFIX)) {
			const held = /^\/__sandbox\/held\?count=(\d+)$/.exec(record.url);
			if (held && req.method === 'GET') {
				const count = await this.faults.whenHeld(Number(held[1]));
				this.send(res, record, { status: 200, body: { held: count } });
				return;
			}
			this.send(res, record, control(this, req, record.body));
			return;
		}

		const wait = this.bucket?.take();
		const quota = this.bucket ? quotaHeaders(this.bucket.limit, this.bucket.state()) : {};
		if (wait !== undefined && this.bucket) {
			record.status = 429;
			res.writeHead(429, {
				'Content-Type': 'application/json',
				...retryAfterHeader(this.bucket.limit, wait),
				...quota,
			});
			res.end(JSON.stringify({ message: 'Too many requests' }));
			return;
		}
		await this.workers?.work();
		const fault = this.faults.take(req, record.body);
		if (fault?.afterWrite) await this.routes.answer(req, record);
		if (fault) await this.faults.hold(fault);
		if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
		if (res.destroyed) return;
		if (fault?.drop === 'before-response') {
			req.socket.destroy();
			return;
		}
		if (fault?.status !== undefined || fault?.drop === 'mid-body') {
			sendFault(res, record, fault);
			return;
		}
		this.send(res, record, await this.routes.answer(req, record), quota);
	}

	private send(
		res: http.ServerResponse,
		record: RecordedRequest,
		answer: Answer,
		headers: Record<string, string> = {},
	): void {
		record.status = answer.status;
		const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
		res.writeHead(answer.status, { 'Content-Type': 'application/json', ...headers });
		res.end(text);
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await new Sandbox(options).start();
}
