/** The hints of a re-run and of the node's memory: pure functions of a run's summary. */
import type { NodeExecutionHint } from 'n8n-workflow';

import { memoryOffText, REPEAT_OPTION, rowFullText, span, UNCONFIRMED_OPTION } from './reRunTexts';
import type { RunSummary } from './runReport';
import { capitalize, fitted } from './words';

const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;
const was = (value: number) => (value === 1 ? 'was' : 'were');

/** How many IDs the hint names before it gives a count. */
const IDS_NAMED = 2;

function ids(list: string[]): string {
	if (list.length === 0) return '';
	const more = list.length > IDS_NAMED ? ` and ${list.length - IDS_NAMED} more` : '';
	return ` (${list.slice(0, IDS_NAMED).join(', ')}${more})`;
}

/**
 * n8n ran the node again: what the service had carried out in an earlier try
 * was not sent again, and what Unconfirmed Earlier Try said. An item that
 * failed again, unsent, is the failed-items hint's (hints.ts).
 */
export function earlierTryHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { answered, kept, answerLost, countedAsDone, sentAgain } = summary.earlierTry;
	const done = answered + kept + answerLost;
	if (done + countedAsDone + sentAgain === 0) return undefined;
	const first =
		done > 0
			? `n8n ran this node again: ${count(done, 'item', 'items')} carried out in an earlier try ${was(done)} not sent again.`
			: 'n8n ran this node again.';
	const keptText =
		kept > 0
			? `${kept} kept ${kept === 1 ? 'its' : 'their'} earlier answer though the settings changed${ids(summary.keptIds)}.`
			: undefined;
	const lostText =
		answerLost > 0
			? `${answerLost} of them had no answer kept: ${answerLost === 1 ? 'its' : 'their'} output says "skipped": true.`
			: undefined;
	const said = [
		countedAsDone > 0 ? `${count(countedAsDone, 'item was', 'items were')} counted as done` : '',
		sentAgain > 0
			? `${countedAsDone > 0 ? sentAgain : count(sentAgain, 'item was', 'items were')} sent again`
			: '',
	].filter(Boolean);
	const saidText =
		said.length > 0 ? `${said.join(' and ')}, as ${UNCONFIRMED_OPTION} says.` : undefined;
	return {
		type: 'info',
		location: 'outputPane',
		// What the user said comes first: the items' own outputs say the rest.
		message: fitted(first, saidText && capitalize(saidText), keptText, lostText),
	};
}

/** Items the memory knew as done within the window: not sent again. */
export function doneBeforeHint(
	summary: RunSummary,
	windowMs: number | undefined,
): NodeExecutionHint | undefined {
	const { doneBefore } = summary.earlierTry;
	if (doneBefore === 0 || windowMs === undefined) return undefined;
	const noId = summary.doneBeforeWithoutId;
	const one = doneBefore === 1;
	return {
		type: 'info',
		location: 'outputPane',
		message: fitted(
			`${count(doneBefore, 'item was', 'items were')} not sent again: done within the last ${span(windowMs)} (${one ? 'its' : 'their'} output says "skipped": true).`,
			noId > 0
				? `${noId === doneBefore ? (one ? 'It gives' : 'They give') : `${noId} give`} "id": null: later nodes get no ID for ${noId === 1 ? 'it' : 'them'}.`
				: undefined,
			`${REPEAT_OPTION} sends ${one ? 'it' : 'them'} again.`,
		),
	};
}

/**
 * Unconfirmed Earlier Try left at one value for every item: it was meant for
 * one retry, and would decide, unchecked, for every item a later retry finds.
 */
export function unconfirmedForAllHint(setting: {
	/** The operation changes nothing at the service. */
	readOnly: boolean;
	/** Request Options › Unconfirmed Earlier Try, when it is one value for every item other than Fail. */
	unconfirmedForAll?: 'sendAgain' | 'countAsDone';
}): NodeExecutionHint | undefined {
	const said = setting.unconfirmedForAll;
	if (said === undefined || setting.readOnly) return undefined;
	const what =
		said === 'countAsDone'
			? 'at Count as Done for every item, a later retry counts every unchecked item as done'
			: 'at Send Again for every item, a later retry sends every unchecked item again, and may carry it out twice';
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Set ${UNCONFIRMED_OPTION} back to Fail after this retry: ${what}.`,
	};
}

/** The memory is off for this run: the workflow is not saved. */
export function memoryOffHint(): NodeExecutionHint {
	return { type: 'warning', location: 'outputPane', message: memoryOffText() };
}

/** A run with more items than the row keeps for one window. */
export function rowFullHint(items: number, most: number, windowMs: number): NodeExecutionHint {
	return { type: 'warning', location: 'outputPane', message: rowFullText(items, most, windowMs) };
}
