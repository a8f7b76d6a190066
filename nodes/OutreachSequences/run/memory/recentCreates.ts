/**
 * What this node created lately, in this n8n process: running the workflow
 * again by hand (Execute workflow) or a webhook delivered twice creates
 * nothing the node just created, with nothing set first.
 *
 * A create the service confirmed is remembered for RECENT_CREATES_MINUTES,
 * by its workflow, node and credential and its exact request (Base URL,
 * path, body: itemIdentity.ts's fingerprint). A new execution started by
 * hand or by a webhook does not send such a create again: it outputs
 * `{ skipped: true, id, reason }`, saying when and in which execution it was
 * created. A schedule's or another trigger's execution always sends: what a
 * schedule creates again, it means to. A create another execution of the
 * process is sending at that moment is not sent either (a webhook delivered
 * twice at once). Request Options › Repeat Recent Creates sends anyway;
 * Skip Items Done Before, when set, decides instead, with the user's key.
 *
 * It is kept in memory, as the service's pace is (pace/servicePace.ts), not
 * in n8n's database: it costs a look-up per create and no database call,
 * and knows what an entry in n8n's store for processed items can't (when,
 * which execution, the ID). So it does not outlive the process, and queue-
 * mode workers each have their own; Skip Items Done Before holds across both.
 */
import type { IDataObject } from 'n8n-workflow';

import { RECENT_CREATES_MINUTES } from '../../helpers/defaults';

export const RECENT_CREATES_MS = RECENT_CREATES_MINUTES * 60_000;
/** The most creates remembered; the oldest go first. About 200 bytes each. */
export const MOST_RECENT_CREATES = 50_000;

/** A create this node confirmed lately. */
export interface RecentCreate {
	at: number;
	execution: string;
	id: string | null;
}

/** Confirmed creates, oldest first (a Map keeps the order of insertion). */
const created = new Map<string, RecentCreate>();
/** Creates being sent now, and by which execution. */
const sending = new Map<string, string>();

/** What makes two creates the same: the workflow, the node, the credential, and the request's fingerprint. */
export function recentKey(parts: {
	workflow: string;
	node: string;
	credential: string;
	fingerprint: string;
}): string {
	return `${parts.workflow}\n${parts.node}\n${parts.credential}\n${parts.fingerprint}`;
}

function forgetOld(now: number): void {
	for (const [key, entry] of created) {
		if (now - entry.at < RECENT_CREATES_MS && created.size <= MOST_RECENT_CREATES) return;
		created.delete(key);
	}
}

/** The create this node confirmed under `key` less than RECENT_CREATES_MS ago, if any. */
export function createdLately(key: string, now: number): RecentCreate | undefined {
	forgetOld(now);
	return created.get(key);
}

/** The execution that is sending the create under `key` now, if another than `execution`. */
export function sendingElsewhere(key: string, execution: string): string | undefined {
	const by = sending.get(key);
	return by === execution ? undefined : by;
}

/** `execution` is about to send the create under `key`. */
export function startSending(key: string, execution: string): void {
	sending.set(key, execution);
}

/** `execution` is done with `key`: confirmed (`json`, the service's answer), or not. */
export function endSending(key: string, execution: string, now: number, json?: IDataObject): void {
	if (sending.get(key) === execution) sending.delete(key);
	if (!json) return;
	const id = json.id;
	created.delete(key);
	created.set(key, {
		at: now,
		execution,
		id: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
	});
	forgetOld(now);
}

/** Forgets every create, as a new n8n process would (the tests do it between tests, as with the pace). */
export function forgetRecentCreates(): void {
	created.clear();
	sending.clear();
}
