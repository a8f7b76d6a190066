/**
 * The recent creates (recentCreates.ts) as one run of the node sees them,
 * opened for the node's memory (memory.ts): whether they apply to this run,
 * what to do with each create instead of sending it, and what each sent
 * create came to.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Field } from '../../helpers/names';
import type { OutreachRequest } from '../../helpers/interfaces';
import type { Prior } from '../loop/items';
import { createdLatelyItem, sendingElsewhereText } from '../outcome/reRunTexts';
import { fingerprint } from './itemIdentity';
import {
	createdLately,
	endSending,
	recentKey,
	sendingElsewhere,
	startSending,
} from './recentCreates';

/** The executions that look the recent creates up: started by hand (Execute workflow) or by a webhook. */
const LOOKING_UP: ReadonlySet<string> = new Set(['manual', 'webhook']);

export interface RunRecent {
	/** A new execution started by hand or by a webhook would skip what this run creates (Repeat Recent Creates is off). */
	skipsLately: boolean;
	/** What to do with item `index` instead of sending `request`; undefined: send it. */
	prior(index: number, request: OutreachRequest): Prior | undefined;
	/** The service confirmed item `index`, with `json`. */
	confirmed(index: number, json: IDataObject): void;
	/** The run ended: what it was sending and did not confirm is no longer being sent. */
	finish(): void;
}

/**
 * The recent creates for this run of an operation that makes something new
 * with each request; undefined when Skip Items Done Before decides instead.
 * Every such run remembers what it created; a run started by hand or by a
 * webhook also looks up, unless Request Options › Repeat Recent Creates is on.
 */
export function openRecent(
	context: IExecuteFunctions,
	baseUrl: string,
	credentialId: string,
	doneKeysSet: boolean,
): RunRecent | undefined {
	if (doneKeysSet) return undefined;
	const node = context.getNode();
	const execution = context.getExecutionId() ?? '';
	const options = node.parameters[Field.requestOptions] as Record<string, unknown> | undefined;
	const repeat = options?.[Field.repeatRecentCreates] === true;
	const looksUp = LOOKING_UP.has(context.getMode()) && !repeat;
	const keys = new Map<number, string>();
	// Identical requests of one input are as many creates: the nth is matched with an earlier run's nth.
	const places = new Map<number, string>();
	const seen = new Map<string, number>();
	const keyOf = (index: number, request: OutreachRequest) => {
		let place = places.get(index);
		if (place === undefined) {
			const print = fingerprint(baseUrl, request);
			const nth = seen.get(print) ?? 0;
			seen.set(print, nth + 1);
			place = `${print}#${nth}`;
			places.set(index, place);
		}
		return recentKey({
			workflow: context.getWorkflow().id ?? '',
			node: node.id,
			credential: credentialId,
			fingerprint: place,
		});
	};
	return {
		skipsLately: !repeat,
		prior(index, request) {
			const key = keyOf(index, request);
			if (looksUp) {
				const now = Date.now();
				const earlier = createdLately(key, now);
				if (earlier)
					return {
						kind: 'answer',
						json: createdLatelyItem(request.subject, earlier, now),
						event: 'createdLately',
					};
				const other = sendingElsewhere(key, execution);
				if (other !== undefined) {
					const text = sendingElsewhereText(request.subject, other);
					const error = new NodeOperationError(node, text.message, {
						itemIndex: index,
						description: text.description,
					});
					return { kind: 'fail', failure: { kind: 'notSent', error } };
				}
			}
			keys.set(index, key);
			startSending(key, execution);
			return undefined;
		},
		confirmed(index, json) {
			const key = keys.get(index);
			if (key === undefined) return;
			keys.delete(index);
			endSending(key, execution, Date.now(), json);
		},
		finish() {
			for (const key of keys.values()) endSending(key, execution, Date.now());
			keys.clear();
		},
	};
}
