// Scripted misbehaviour: which request meets a fault, and the answer it gets instead.
import type http from 'node:http';

import type { Json } from './seed.mts';

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
	/** Apply to every k-th matching request only (the k-th, the 2k-th, …); the others are answered as usual. */
	every?: number;
	/** The matching requests so far, with every. */
	matched?: number;
	/**
	 * Hold the answer until another request whose target starts with this
	 * arrives (`POST /__sandbox/release` is one, for a test to say when): that
	 * arrival lets every held one go, and the fault holds no more. A reset lets
	 * them go too. So a test knows a request is under way, however slow the machine.
	 */
	holdUntil?: string;
	/** Set once a request let the held ones go, with holdUntil. */
	released?: boolean;
}

/** The faults in force, first added first matched. */
export class Faults {
	private list: Fault[] = [];
	/** Requests held now (holdUntil), and the waits for a number of them (`GET /__sandbox/held`). */
	private held: Array<{ fault: Fault; release: () => void }> = [];
	private heldWaits: Array<{ count: number; wake: () => void }> = [];

	add(fault: Fault): void {
		this.list.push({ ...fault });
	}

	/** No faults, and every held request let go. */
	clear(): void {
		this.list = [];
		this.releaseWhere(() => true);
	}

	/** Holds a request that met `fault` until a request to its holdUntil target arrives. */
	async hold(fault: Fault): Promise<void> {
		if (fault.holdUntil === undefined || fault.released) return;
		await new Promise<void>((release) => {
			this.held.push({ fault, release });
			for (const wait of this.heldWaits.filter((entry) => entry.count <= this.held.length)) {
				this.heldWaits.splice(this.heldWaits.indexOf(wait), 1);
				wait.wake();
			}
		});
	}

	/** Resolves once `count` requests are held at once. */
	async whenHeld(count: number): Promise<number> {
		if (this.held.length < count)
			await new Promise<void>((wake) => this.heldWaits.push({ count, wake }));
		return this.held.length;
	}

	/** A request to `target` arrived: the requests held until it go on. */
	arrived(target: string): void {
		this.releaseWhere(({ holdUntil }) => holdUntil !== undefined && target.startsWith(holdUntil));
	}

	private releaseWhere(applies: (fault: Fault) => boolean): void {
		for (const entry of this.held.filter(({ fault }) => applies(fault))) {
			entry.fault.released = true;
			this.held.splice(this.held.indexOf(entry), 1);
			entry.release();
		}
	}

	/** The fault this request meets, counted as used; undefined when none matches. */
	take(req: http.IncomingMessage, body: string): Fault | undefined {
		const target = req.url ?? '';
		const fault = this.list.find(
			(candidate) =>
				(candidate.pathPrefix === undefined || target.startsWith(candidate.pathPrefix)) &&
				(candidate.method === undefined || candidate.method.toUpperCase() === req.method) &&
				(candidate.bodyContains === undefined || body.includes(candidate.bodyContains)) &&
				!(candidate.oncePerTarget && candidate.seen?.includes(target)),
		);
		if (fault?.every !== undefined) {
			fault.matched = (fault.matched ?? 0) + 1;
			if (fault.matched % fault.every !== 0) return undefined;
		}
		if (fault?.oncePerTarget) (fault.seen ??= []).push(target);
		if (fault?.times !== undefined && --fault.times <= 0)
			this.list.splice(this.list.indexOf(fault), 1);
		return fault;
	}
}

/** The fault in a sentence, as the sandbox confirms it: which requests meet it, and what they get. */
export function describeFault(fault: Fault): string {
	const count =
		fault.times === undefined
			? 'Every request'
			: fault.times === 1
				? 'The next request'
				: `The next ${fault.times} requests`;
	const which = [
		fault.method && `(${fault.method.toUpperCase()})`,
		fault.pathPrefix && `to a path that starts with "${fault.pathPrefix}"`,
		fault.bodyContains !== undefined && `whose body contains "${fault.bodyContains}"`,
		fault.every !== undefined && `(only one in ${fault.every})`,
		fault.oncePerTarget && '(once per path)',
	].filter(Boolean);
	const replaced = fault.status !== undefined || fault.drop !== undefined;
	const how =
		fault.drop === 'before-response'
			? 'lose the connection before any answer'
			: fault.drop === 'mid-body'
				? 'get half an answer, then lose the connection'
				: replaced
					? `get HTTP ${fault.status}`
					: 'get the usual answer';
	const wait = [
		fault.holdUntil !== undefined && `wait until a request to "${fault.holdUntil}" arrives, then `,
		fault.delayMs && `wait ${fault.delayMs} ms, then `,
	]
		.filter(Boolean)
		.join('');
	const acted = !replaced
		? ''
		: fault.afterWrite
			? ', after a create or archive is carried out'
			: ', and nothing is carried out';
	return `Fault added: ${[count, ...which].join(' ')} will ${wait}${how}${acted}.`;
}

/** Answers with the fault's status, headers and body, or cuts the connection halfway through the body. */
export function sendFault(
	res: http.ServerResponse,
	record: { status?: number },
	fault: Fault,
): void {
	const status = fault.status ?? 200;
	record.status = status;
	const text =
		typeof fault.body === 'string'
			? fault.body
			: fault.body === undefined
				? ''
				: JSON.stringify(fault.body);
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
