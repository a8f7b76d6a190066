// A loopback stand-in for the outreach service, driven by the OpenAPI document
// of the contract: openapi-backend routes each request, checks the X-API-Key
// security scheme and validates the request against the document. The error
// bodies ({ "message": ... }) are the sandbox's own: the contract shows none.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { OpenAPIBackend } from 'openapi-backend';
import type { Context } from 'openapi-backend';

import { bulkContacts, bulkUseCases, seedData } from './seed.mts';
import type { Json, JsonObject, SeedData } from './seed.mts';

export const OPENAPI_DOCUMENT = fileURLToPath(new URL('../openapi/outreach-sequences.openapi.yaml', import.meta.url));
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
}

/** A scripted misbehaviour for matching requests. */
export interface Fault {
	/** Matches when the request target starts with this text (default: every request). */
	pathPrefix?: string;
	method?: string;
	/** Matches only when the request body holds this text. */
	bodyContains?: string;
	/** How many requests it applies to; default: until cleared. */
	times?: number;
	/** Wait this long before answering (or before dropping). */
	delayMs?: number;
	/** Answer with this status instead of the real handler. */
	status?: number;
	/** Body text as sent, or an object sent as JSON. */
	body?: string | Json;
	headers?: Record<string, string>;
	/** Close the socket without an answer, or after half a body. */
	drop?: 'before-response' | 'mid-body';
	/** Carry the request out first (a create is stored), then answer with the fault; by default the fault comes instead. */
	afterWrite?: boolean;
	/** Apply to the first request of each request target only: every item meets the fault once. */
	oncePerTarget?: boolean;
	/** The targets it applied to, with oncePerTarget. */
	seen?: string[];
}

interface Store {
	contacts: Map<string, JsonObject>;
	contactLists: Map<string, JsonObject>;
	useCases: Map<string, JsonObject>;
	scripts: Map<string, JsonObject>;
	sequences: Map<string, JsonObject>;
}

function storeFrom(seed: SeedData): Store {
	const byId = (records: JsonObject[]) => new Map(records.map((record) => [String(record.id), record]));
	return {
		contacts: byId(seed.contacts),
		contactLists: byId(seed.contactLists),
		useCases: byId(seed.useCases),
		scripts: byId(seed.scripts),
		sequences: new Map(),
	};
}

interface Answer {
	status: number;
	body?: Json;
}

const message = (status: number, text: string, extra: JsonObject = {}): Answer => ({ status, body: { message: text, ...extra } });
const NOT_FOUND = 'Resource not found';

/**
 * A token bucket shared by every API route: `rate` requests per second, up to
 * `burst` at once. A request without a token gets 429, with Retry-After in
 * seconds, as an HTTP date, or not at all. The contract shows no limits and no
 * 429; this is the sandbox's own, for trying rate-limit handling.
 */
export interface RateLimit {
	rate: number;
	burst: number;
	retryAfter: 'seconds' | 'date' | 'none';
	/**
	 * Standard rate-limit headers on every API answer, to try the node's use
	 * of them: the IETF draft's `RateLimit` and `RateLimit-Policy`, or the
	 * common `X-RateLimit-*`. Off (none) by default: the contract shows none.
	 */
	headers?: 'ietf' | 'x' | 'none';
}

class TokenBucket {
	readonly limit: RateLimit;
	private tokens: number;
	private refilledAt = Date.now();

	constructor(limit: RateLimit) {
		this.limit = limit;
		this.tokens = limit.burst;
	}

	/** What is left now: whole tokens, and the ms until the bucket is full again. */
	state(now = Date.now()): { remaining: number; fullInMs: number } {
		const tokens = Math.min(this.limit.burst, this.tokens + ((now - this.refilledAt) * this.limit.rate) / 1000);
		return { remaining: Math.floor(tokens), fullInMs: ((this.limit.burst - tokens) * 1000) / this.limit.rate };
	}

	/** undefined when a token was taken; otherwise the ms until one is due. */
	take(): number | undefined {
		const now = Date.now();
		this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.refilledAt) * this.limit.rate) / 1000);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		return ((1 - this.tokens) * 1000) / this.limit.rate;
	}
}

/**
 * The limit as standard rate-limit headers say it, when the limit asks for
 * them. The bucket's burst is the quota, refilled in burst ÷ rate seconds;
 * what is left is its whole tokens, and the reset is when it is full again.
 */
export function quotaHeaders(limit: RateLimit, state: { remaining: number; fullInMs: number }, now = Date.now()): Record<string, string> {
	const resetSeconds = Math.ceil(state.fullInMs / 1000);
	const windowSeconds = Math.max(1, Math.ceil(limit.burst / limit.rate));
	if (limit.headers === 'ietf') {
		return {
			'RateLimit-Policy': `"default";q=${limit.burst};w=${windowSeconds}`,
			RateLimit: `"default";r=${state.remaining};t=${resetSeconds}`,
		};
	}
	if (limit.headers === 'x') {
		return {
			'X-RateLimit-Limit': String(limit.burst),
			'X-RateLimit-Remaining': String(state.remaining),
			'X-RateLimit-Reset': String(Math.ceil(now / 1000) + resetSeconds),
		};
	}
	return {};
}

/** The Retry-After header for a wait, in the form the limit asks for. */
export function retryAfterHeader(limit: RateLimit, waitMs: number, now = Date.now()): Record<string, string> {
	if (limit.retryAfter === 'none') return {};
	if (limit.retryAfter === 'seconds') return { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) };
	return { 'Retry-After': new Date(Math.ceil((now + waitMs) / 1000) * 1000).toUTCString() };
}

export interface SandboxOptions {
	port?: number;
	host?: string;
	apiKey?: string;
	/** Also seed this many contacts, bulk-0 … bulk-<n-1>. */
	bulkContacts?: number;
	/** Also seed this many use cases, bulk-0 … bulk-<n-1>. */
	bulkUseCases?: number;
	rateLimit?: RateLimit;
}

export class Sandbox {
	readonly apiKey: string;
	requests: RecordedRequest[] = [];
	inFlight = 0;
	maxInFlight = 0;
	private faults: Fault[] = [];
	private bucket?: TokenBucket;
	private store: Store;
	private server?: http.Server;
	private api: OpenAPIBackend;
	private sequenceCount = 0;
	private readonly options: SandboxOptions;

	constructor(options: SandboxOptions = {}) {
		this.options = options;
		this.store = this.seeded();
		this.apiKey = options.apiKey ?? DEFAULT_API_KEY;
		this.setRateLimit(options.rateLimit);
		this.api = new OpenAPIBackend({
			definition: OPENAPI_DOCUMENT,
			// openapi-backend checks documents against the OpenAPI 3.0 schema only;
			// sandbox/check-openapi.mts checks this 3.1 document (npm run lint).
			quick: true,
			strict: true,
			ajvOpts: { strict: false },
			handlers: {
				createSequence: (c: Context) => this.createSequence(c),
				archiveContact: (c: Context) => this.archive(this.store.contacts, c.request.params.id as string),
				archiveContactList: (c: Context) => this.archive(this.store.contactLists, c.request.params.id as string),
				getUseCase: (c: Context) => this.find(this.store.useCases, c.request.params.useCaseId as string),
				notFound: () => message(404, NOT_FOUND),
				methodNotAllowed: () => message(405, 'Method not allowed'),
				unauthorizedHandler: () => message(401, 'Invalid or missing API key'),
				validationFail: (c: Context) =>
					message(400, 'Request validation failed', { errors: (c.validation.errors ?? []) as unknown as Json }),
			},
			securityHandlers: {
				ApiKey: (c: Context) => c.request.headers['x-api-key'] === this.apiKey,
			},
		});
	}

	private seeded(): Store {
		const seed = seedData();
		seed.contacts.push(...bulkContacts(this.options.bulkContacts ?? 0));
		seed.useCases.push(...bulkUseCases(this.options.bulkUseCases ?? 0));
		return storeFrom(seed);
	}

	get url(): string {
		const address = this.server?.address() as AddressInfo | undefined;
		if (!address) throw new Error('The sandbox is not listening');
		return `http://${address.address}:${address.port}`;
	}

	async start(): Promise<this> {
		await this.api.init();
		// Long identifiers (many kilobytes, encoded) must reach the route, not a 431.
		this.server = http.createServer({ maxHeaderSize: 1 << 20 }, (req, res) => void this.handle(req, res));
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
		this.store = this.seeded();
		this.faults = [];
		this.requests = [];
		this.maxInFlight = 0;
		this.sequenceCount = 0;
		this.setRateLimit(this.options.rateLimit);
	}

	/** Start (or, with undefined, stop) limiting the rate of API requests. */
	setRateLimit(limit: RateLimit | undefined): void {
		this.bucket = limit ? new TokenBucket(limit) : undefined;
	}

	addFault(fault: Fault): void {
		this.faults.push({ ...fault });
	}

	clearFaults(): void {
		this.faults = [];
	}

	/** Read a record as the service holds it now. */
	peek(kind: 'contacts' | 'contactLists' | 'useCases' | 'sequences', id: string): JsonObject | undefined {
		return this.store[kind].get(id);
	}

	private takeFault(req: http.IncomingMessage, body: string): Fault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(candidate.pathPrefix === undefined || (req.url ?? '').startsWith(candidate.pathPrefix)) &&
				(candidate.method === undefined || candidate.method.toUpperCase() === req.method) &&
				(candidate.bodyContains === undefined || body.includes(candidate.bodyContains)) &&
				!(candidate.oncePerTarget && candidate.seen?.includes(req.url ?? '')),
		);
		if (fault?.oncePerTarget) (fault.seen ??= []).push(req.url ?? '');
		if (fault?.times !== undefined && --fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
		return fault;
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
		};
		this.requests.push(record);

		if ((req.url ?? '').startsWith('/__sandbox/')) {
			this.send(res, record, this.control(req, record.body));
			return;
		}

		const wait = this.bucket?.take();
		const quota = this.bucket ? quotaHeaders(this.bucket.limit, this.bucket.state()) : {};
		if (wait !== undefined && this.bucket) {
			record.status = 429;
			res.writeHead(429, { 'Content-Type': 'application/json', ...retryAfterHeader(this.bucket.limit, wait), ...quota });
			res.end(JSON.stringify({ message: 'Too many requests' }));
			return;
		}
		const fault = this.takeFault(req, record.body);
		if (fault?.afterWrite) await this.route(req, record);
		if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
		if (res.destroyed) return;
		if (fault?.drop === 'before-response') {
			req.socket.destroy();
			return;
		}
		if (fault?.status !== undefined || fault?.drop === 'mid-body') {
			this.sendFault(res, record, fault);
			return;
		}
		this.send(res, record, await this.route(req, record), quota);
	}

	private async route(req: http.IncomingMessage, record: RecordedRequest): Promise<Answer> {
		const operation = this.api.matchOperation({ method: record.method, path: record.url, headers: {} });
		record.operationId = operation?.operationId;
		const takesBody = Boolean(operation?.requestBody);
		if (operation && !takesBody && record.body !== '') {
			return message(400, 'This operation takes no request body');
		}
		let body: unknown;
		if (takesBody) {
			if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
				return message(415, 'The body must be sent as Content-Type: application/json');
			}
			try {
				body = JSON.parse(record.body);
			} catch {
				return message(400, 'The body is not valid JSON');
			}
		}
		return (await this.api.handleRequest({
			method: record.method,
			path: record.url,
			headers: req.headers as Record<string, string | string[]>,
			body,
		})) as Answer;
	}

	private send(res: http.ServerResponse, record: RecordedRequest, answer: Answer, headers: Record<string, string> = {}): void {
		record.status = answer.status;
		const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
		res.writeHead(answer.status, { 'Content-Type': 'application/json', ...headers });
		res.end(text);
	}

	private sendFault(res: http.ServerResponse, record: RecordedRequest, fault: Fault): void {
		const status = fault.status ?? 200;
		record.status = status;
		const text = typeof fault.body === 'string' ? fault.body : fault.body === undefined ? '' : JSON.stringify(fault.body);
		const headers: Record<string, string> = {
			'Content-Type': typeof fault.body === 'string' ? 'text/plain' : 'application/json',
			...fault.headers,
		};
		if (fault.drop === 'mid-body') {
			// Promise a longer body than is sent, then cut the connection.
			res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(text) + 100) });
			res.write(text.slice(0, Math.ceil(text.length / 2)));
			setTimeout(() => res.socket?.destroy(), 10);
			return;
		}
		res.writeHead(status, headers);
		res.end(text);
	}

	private find(records: Map<string, JsonObject>, id: string): Answer {
		const record = records.get(id);
		return record ? { status: 200, body: record } : message(404, NOT_FOUND);
	}

	// The contract says archiving removes the record from active use and that
	// lists become `archived`. The contact's status afterwards is not shown;
	// the sandbox uses `archived` for both.
	private archive(records: Map<string, JsonObject>, id: string): Answer {
		const record = records.get(id);
		if (!record) return message(404, NOT_FOUND);
		record.status = 'archived';
		return { status: 200, body: record };
	}

	// The meaning of sequenceScripts is not shown. The sandbox reads each entry
	// as a script identifier and, where it knows the script, returns it.
	private createSequence(c: Context): Answer {
		const input = (c.request.requestBody ?? {}) as JsonObject;
		const id = `seq-${++this.sequenceCount}-${randomUUID().slice(0, 8)}`;
		const schedules = Array.isArray(input.schedules)
			? input.schedules.map((entry) => this.scheduleEntry(entry as JsonObject))
			: (input.schedules ?? null);
		const sequence: JsonObject = {
			id,
			status: null,
			name: input.name ?? null,
			description: input.description ?? null,
			criteria: input.criteria ?? null,
			schedules,
			timezone: input.timezone ?? null,
		};
		this.store.sequences.set(id, sequence);
		return { status: 201, body: sequence };
	}

	private scheduleEntry(entry: JsonObject): JsonObject {
		const scripts = (Array.isArray(entry.sequenceScripts) ? entry.sequenceScripts : [])
			.map((scriptId) => this.store.scripts.get(String(scriptId)))
			.filter((script): script is JsonObject => script !== undefined);
		const result: JsonObject = {};
		for (const key of ['dayOffset', 'hour', 'minute', 'delayInMinutes']) {
			if (entry[key] !== undefined) result[key] = entry[key];
		}
		for (const script of scripts) {
			const field = `${String(script.$type).charAt(0).toLowerCase()}${String(script.$type).slice(1)}`;
			result[field] = script;
		}
		result.scripts = scripts;
		return result;
	}

	/** Counts over the recorded API requests: by status, and creates of the same sequence name. */
	summary(): JsonObject {
		const requests = this.requests.filter((entry) => !entry.url.startsWith('/__sandbox/'));
		const byStatus: Record<string, number> = {};
		for (const entry of requests) byStatus[String(entry.status)] = (byStatus[String(entry.status)] ?? 0) + 1;
		const created = new Map<string, number>();
		for (const sequence of this.store.sequences.values()) {
			const name = JSON.stringify(sequence.name);
			created.set(name, (created.get(name) ?? 0) + 1);
		}
		const duplicates = [...created.values()].reduce((sum, count) => sum + count - 1, 0);
		// The same request (method, target, body) carried out more than once.
		const succeeded = new Map<string, number>();
		for (const entry of requests) {
			if ((entry.status ?? 0) < 200 || (entry.status ?? 0) >= 300) continue;
			const key = `${entry.method} ${entry.url} ${entry.body}`;
			succeeded.set(key, (succeeded.get(key) ?? 0) + 1);
		}
		const repeatedSuccesses = [...succeeded.values()].reduce((sum, count) => sum + count - 1, 0);
		return {
			requests: requests.length,
			byStatus,
			sequencesCreated: this.store.sequences.size,
			duplicateNames: duplicates,
			repeatedSuccesses,
			maxInFlight: this.maxInFlight,
		};
	}

	/** Test support for other processes: /__sandbox/requests, /summary, /faults, /rate-limit, /reset, /records. */
	private control(req: http.IncomingMessage, body: string): Answer {
		const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
		const record = /^GET \/__sandbox\/records\/(contacts|contactLists|useCases|sequences)\/(.+)$/.exec(route);
		if (record) {
			const found = this.peek(record[1] as 'contacts', decodeURIComponent(record[2]));
			return found ? { status: 200, body: found } : message(404, NOT_FOUND);
		}
		if (route === 'GET /__sandbox/requests') {
			const requests = this.requests.filter((entry) => !entry.url.startsWith('/__sandbox/'));
			return { status: 200, body: { requests: requests as unknown as Json, maxInFlight: this.maxInFlight } };
		}
		if (route === 'GET /__sandbox/summary') return { status: 200, body: this.summary() };
		if (route === 'POST /__sandbox/rate-limit') {
			const limit = JSON.parse(body || 'null') as RateLimit | null;
			this.setRateLimit(limit ?? undefined);
			return { status: 204 };
		}
		if (route === 'POST /__sandbox/faults') {
			this.addFault(JSON.parse(body || '{}') as Fault);
			return { status: 204 };
		}
		if (route === 'POST /__sandbox/reset') {
			this.reset();
			return { status: 204 };
		}
		return message(404, 'Unknown sandbox control route');
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await new Sandbox(options).start();
}
