/**
 * The parts of the node's memory (memory.ts) that read n8n: the run index,
 * the record in the node's context, Request Options › Skip Items Done
 * Before, what the record keeps of each item at the end of a try, and what a
 * crashed try's journal mark means for an item.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { DEFAULT_WINDOW_MINUTES } from '../../helpers/defaults';
import { Field } from '../../helpers/names';
import type { ItemState } from '../loop/loop';
import { failureFacts } from '../outcome/failedItem';
import type { Journaled } from './journal';
import type { EarlierFailure, EarlierTry, ItemForRecord } from './record';
import { ExecutionRecord } from './record';
import type { PriorEvent } from './reRun';
import { DONE_KEYS_OPTION } from '../outcome/reRunTexts';

/** The run index of this run of the node: above 0 when it runs again in the same execution (a loop). */
export function runIndexOf(context: IExecuteFunctions): number {
	try {
		const runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
		return Number.isInteger(runIndex) ? runIndex : 0;
	} catch {
		return 0;
	}
}

/** The record of this run in the node's context; undefined where n8n keeps no node context. */
export function openRecord(
	context: IExecuteFunctions,
	runIndex: number,
	baseUrl: string,
): ExecutionRecord | undefined {
	try {
		return ExecutionRecord.open(context.getContext('node'), runIndex, baseUrl);
	} catch {
		return undefined;
	}
}

const SETTINGS = `${Field.requestOptions}.${Field.skipDoneBefore}.${Field.keySettings}`;

/** A Key that is one field of the item, `={{ $json.a.b }}`: its path. */
const JSON_FIELD = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*)+)\s*\}\}$/;

/**
 * For a Key that is one field of the item, the field's value where it is
 * text, a finite number or true/false: what n8n's evaluation of the
 * expression gives for such a value, without its cost (about half a
 * millisecond a key, a third of an archive's own time). Undefined otherwise:
 * n8n evaluates it.
 */
function fieldOf(raw: string, context: IExecuteFunctions) {
	const path = JSON_FIELD.exec(raw)?.[1].slice(1).split('.');
	if (!path) return undefined;
	const items = context.getInputData();
	return (index: number): string | undefined => {
		let value: unknown = items[index]?.json;
		for (const name of path) {
			if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return;
			value = (value as Record<string, unknown>)[name];
		}
		if (typeof value === 'string' || typeof value === 'boolean') return String(value);
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		return undefined;
	};
}

/** Request Options › Skip Items Done Before, when its Key is set: the window, and each item's key (undefined when empty). */
export function keySettingsOf(context: IExecuteFunctions, node: INode) {
	const options = node.parameters[Field.requestOptions] as Record<string, unknown> | undefined;
	const group = options?.[Field.skipDoneBefore] as Record<string, unknown> | undefined;
	const raw = (group?.[Field.keySettings] as Record<string, unknown> | undefined)?.[Field.doneKey];
	if (typeof raw !== 'string' || raw.trim() === '') return undefined;
	const minutes = Number(
		context.getNodeParameter(`${SETTINGS}.${Field.windowMinutes}`, 0, DEFAULT_WINDOW_MINUTES),
	);
	const field = fieldOf(raw, context);
	return {
		name: DONE_KEYS_OPTION,
		windowMs: (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_WINDOW_MINUTES) * 60_000,
		keyOf(index: number): string | undefined {
			const value =
				field?.(index) ?? context.getNodeParameter(`${SETTINGS}.${Field.doneKey}`, index, '');
			const text =
				typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '');
			return text.trim() === '' ? undefined : text;
		},
	};
}

/**
 * What the record keeps of an item at the end of a try: what the service
 * confirmed; what it may have acted on, with the failure's words; the user's
 * count as done; and what a crashed try left (`crashed`, from the journal),
 * for every item this try did not settle, reached or not, so that every later
 * retry knows it until it is settled. A failure the service did not act on
 * is forgotten, so the item goes out again; what an earlier try's entry says
 * stays for the rest.
 */
export function forRecord(
	item: ItemState,
	event: PriorEvent | undefined,
	crashed: EarlierTry | undefined,
	words: EarlierFailure | undefined,
): ItemForRecord {
	const fromCrash = crashed ? { now: crashed } : undefined;
	if (item.state === 'done') {
		if (item.sends > 0)
			return {
				request: item.request,
				now: { kind: 'confirmed', answer: item.json, requestChanged: false },
			};
		if (event === 'countedAsDone') return { request: item.request, now: { kind: 'countedAsDone' } };
		return event === 'answerLost' && fromCrash
			? { request: item.request, ...fromCrash }
			: undefined;
	}
	if (item.state !== 'failed') return fromCrash;
	const { failure } = item;
	if (failure.kind === 'unknownBefore' || failure.kind === 'notSent')
		return (
			fromCrash && { request: 'request' in failure ? failure.request : undefined, ...fromCrash }
		);
	const facts = failureFacts(failure);
	if (facts.outcome === 'mayHaveActed' && facts.timesSent > 0 && words)
		return { request: failure.request, now: { kind: 'unknown', earlier: words } };
	return 'forget';
}

/** What a crashed try's journal mark means for an item now. */
export function crashedTry(mark: Journaled): EarlierTry {
	if (mark === 'confirmed') return { kind: 'confirmedWithoutAnswer', crashed: true };
	const earlier: EarlierFailure = {
		message: '',
		description: '',
		statusCode: null,
		networkError: null,
		crashed: true,
	};
	return { kind: 'unknown', earlier };
}
