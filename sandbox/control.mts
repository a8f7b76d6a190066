// The routes under /__sandbox/, for tests and scripts in other processes:
// the recorded requests, a summary, faults, the rate limit, the capacity, a
// reset, records one by one or all of a kind. `GET /__sandbox/held?count=N`, which waits
// until N requests are held (Fault.holdUntil), is server.mts's.
import type http from 'node:http';

import type { Capacity } from './capacity.mts';
import { describeFault, type Fault } from './faults.mts';
import type { RateLimit } from './rate-limit.mts';
import type { RecordedRequest } from './server.mts';
import type { Json, JsonObject } from './seed.mts';
import { message, NOT_FOUND } from './store.mts';
import type { Answer, Kind } from './store.mts';

export const CONTROL_PREFIX = '/__sandbox/';

/** What the control routes act on: the sandbox. */
export interface Controlled {
	requests: RecordedRequest[];
	maxInFlight: number;
	peek(kind: Kind, id: string): JsonObject | undefined;
	list(kind: Kind): JsonObject[];
	summary(): JsonObject;
	setRateLimit(limit: RateLimit | undefined): void;
	setCapacity(capacity: Capacity | undefined): void;
	addFault(fault: Fault): void;
	reset(): void;
}

const apiRequests = (requests: RecordedRequest[]) =>
	requests.filter((entry) => !entry.url.startsWith(CONTROL_PREFIX));

export function control(sandbox: Controlled, req: http.IncomingMessage, body: string): Answer {
	const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
	const record =
		/^GET \/__sandbox\/records\/(contacts|contactLists|useCases|sequences)\/(.+)$/.exec(route);
	if (record) {
		const found = sandbox.peek(record[1] as Kind, decodeURIComponent(record[2]));
		return found ? { status: 200, body: found } : message(404, NOT_FOUND);
	}
	const all = /^GET \/__sandbox\/records\/(contacts|contactLists|useCases|sequences)$/.exec(route);
	if (all) return { status: 200, body: { records: sandbox.list(all[1] as Kind) } };
	if (route === 'GET /__sandbox/requests') {
		return {
			status: 200,
			body: {
				requests: apiRequests(sandbox.requests) as unknown as Json,
				maxInFlight: sandbox.maxInFlight,
			},
		};
	}
	if (route === 'GET /__sandbox/summary') return { status: 200, body: sandbox.summary() };
	if (route === 'POST /__sandbox/rate-limit') {
		const limit = JSON.parse(body || 'null') as RateLimit | null;
		sandbox.setRateLimit(limit ?? undefined);
		return { status: 204 };
	}
	if (route === 'POST /__sandbox/capacity') {
		try {
			sandbox.setCapacity((JSON.parse(body || 'null') as Capacity | null) ?? undefined);
		} catch (error) {
			return message(400, (error as Error).message);
		}
		return { status: 204 };
	}
	if (route === 'POST /__sandbox/faults') {
		const fault = JSON.parse(body || '{}') as Fault;
		sandbox.addFault(fault);
		return {
			status: 200,
			body: { message: describeFault(fault), fault: fault as unknown as Json },
		};
	}
	// Its arrival lets go the requests a fault holds until it (holdUntil); `GET /__sandbox/held?count=N` waits for N held.
	if (route === 'POST /__sandbox/release') return { status: 204 };
	if (route === 'POST /__sandbox/reset') {
		sandbox.reset();
		return { status: 204 };
	}
	return message(404, 'Unknown sandbox control route');
}

/** Counts over the recorded API requests: by status, and creates of the same sequence name. */
export function summarize(
	recorded: RecordedRequest[],
	sequences: JsonObject[],
	maxInFlight: number,
): JsonObject {
	const requests = apiRequests(recorded);
	const byStatus: Record<string, number> = {};
	for (const entry of requests)
		byStatus[String(entry.status)] = (byStatus[String(entry.status)] ?? 0) + 1;
	const created = new Map<string, number>();
	for (const sequence of sequences) {
		const name = JSON.stringify(sequence.name);
		created.set(name, (created.get(name) ?? 0) + 1);
	}
	const repeatedNames = [...created.values()].reduce((sum, count) => sum + count - 1, 0);
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
		sequencesCreated: sequences.length,
		duplicateNames: repeatedNames,
		repeatedSuccesses,
		maxInFlight,
	};
}
