/** The hints of a re-run and of the node's memory: pure functions of a run's summary. */
import type { NodeExecutionHint } from 'n8n-workflow';

import { memoryOffText, REPEAT_OPTION, rowFullText, span, UNCONFIRMED_OPTION } from './reRunTexts';
import type { RunSummary } from './runReport';
import { capitalize, fitted } from './words';

const count = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;
const was = (value: number) => (value === 1 ? 'was' : 'were');

const IDS_NAMED = 2;

function ids(list: string[]): string {
	if (list.length === 0) return '';
	const more = list.length > IDS_NAMED ? ` and ${list.length - IDS_NAMED} more` : '';
	return ` (${list.slice(0, IDS_NAMED).join(', ')}${more})`;
}

// failedAgain items are left to the failed-items hint (hints.ts).
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
		// What the user said comes first: fitted keeps what fits, and the items' outputs say the rest.
		message: fitted(first, saidText && capitalize(saidText), keptText, lostText),
	};
}

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

export function unconfirmedForAllHint(setting: {
	readOnly: boolean;
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

export function memoryOffHint(): NodeExecutionHint {
	return { type: 'warning', location: 'outputPane', message: memoryOffText() };
}

export function rowFullHint(items: number, most: number, windowMs: number): NodeExecutionHint {
	return { type: 'warning', location: 'outputPane', message: rowFullText(items, most, windowMs) };
}
