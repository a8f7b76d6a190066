/**
 * The hints of a re-run: what came of the items an earlier try of this
 * execution had handled (reRun.ts), of those whose done key an earlier
 * execution had (doneKeys.ts), and of the creates this node made lately
 * (recentCreates.ts). Pure functions of a run's summary.
 */
import type { NodeExecutionHint } from 'n8n-workflow';

import { RECENT_CREATES_MINUTES } from '../../helpers/defaults';
import {
	DONE_KEYS_OPTION,
	keysPushedOutText,
	REPEAT_RECENT_OPTION,
	UNCONFIRMED_OPTION,
} from './reRunTexts';
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

/** Items a done key skipped: this node had done them in an earlier execution. */
export function keyHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { keyDoneBefore } = summary.earlierTry;
	if (keyDoneBefore === 0) return undefined;
	return {
		type: 'info',
		location: 'outputPane',
		message: `${count(keyDoneBefore, 'item was', 'items were')} not sent: this node had already carried out an item with the same key within the window of ${DONE_KEYS_OPTION}. ${keyDoneBefore === 1 ? 'Its output says' : 'Their output says'} so ("skipped": true).`,
	};
}

/** Creates this node made lately, in another execution, with the very same request: not made again. */
export function createdLatelyHint(summary: RunSummary): NodeExecutionHint | undefined {
	const { createdLately } = summary.earlierTry;
	if (createdLately === 0) return undefined;
	return {
		type: 'info',
		location: 'outputPane',
		// Which execution made each is its output's to say: the hint fits in three lines (HINT_BUDGET).
		message: `${count(createdLately, 'item was', 'items were')} not created again: this node created the very same ${createdLately === 1 ? 'one' : 'ones'} less than ${RECENT_CREATES_MINUTES} minutes ago (${createdLately === 1 ? 'its' : 'their'} output says when). ${REPEAT_RECENT_OPTION} creates ${createdLately === 1 ? 'it' : 'them'} again.`,
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

/** n8n's store for this node's keys holds `before` entries, and this run adds up to `adds`: past `max`, the oldest go. */
export function keysPushedOutHint(
	before: number,
	adds: number,
	max: number,
	maxRunKeys: number,
): NodeExecutionHint | undefined {
	if (adds === 0 || before + adds <= max) return undefined;
	const message = keysPushedOutText(before, adds, max, maxRunKeys);
	return { type: 'warning', location: 'outputPane', message };
}
