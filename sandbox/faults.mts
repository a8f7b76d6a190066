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
}

/** The faults in force, first added first matched. */
export class Faults {
	private list: Fault[] = [];

	add(fault: Fault): void {
		this.list.push({ ...fault });
	}

	clear(): void {
		this.list = [];
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
	const wait = fault.delayMs ? `wait ${fault.delayMs} ms, then ` : '';
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
