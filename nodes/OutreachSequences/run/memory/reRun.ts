/** What an earlier try's or run's outcome means for an item now; an unknown one waits for the user's say. */
import type { IDataObject } from 'n8n-workflow';

import type { UnconfirmedName, OutreachRequest } from '../../helpers/interfaces';
import type { ItemFailure } from '../outcome/failedItem';
import type { EarlierTry } from './record';
import type { PriorEvent } from '../outcome/runReport';
import type { Prior } from '../loop/items';
import { answerLostItem, countedAsDoneItem } from '../outcome/reRunTexts';

const answer = (json: IDataObject, event: PriorEvent): Prior => ({ kind: 'answer', json, event });

export function priorOf(
	earlier: EarlierTry | undefined,
	request: OutreachRequest,
	itemIndex: number,
	choice: () => UnconfirmedName,
): Prior | undefined {
	if (earlier === undefined) return undefined;
	if (earlier.kind === 'confirmed')
		return answer(earlier.answer, earlier.requestChanged ? 'kept' : 'answered');
	if (earlier.kind === 'countedAsDone')
		return answer(countedAsDoneItem(request.subject), 'countedAsDone');
	// What the service confirmed is final: the user's say is only for an unknown outcome.
	if (earlier.kind === 'confirmedWithoutAnswer')
		return answer(answerLostItem(request.subject), 'answerLost');
	const failure: ItemFailure = {
		kind: 'unknownBefore',
		request,
		earlier: earlier.earlier,
		itemIndex,
	};
	let said: UnconfirmedName;
	try {
		said = choice();
	} catch (unconfirmedError) {
		return { kind: 'fail', failure: { ...failure, unconfirmedError }, event: 'failedAgain' };
	}
	if (said === 'countAsDone') return answer(countedAsDoneItem(request.subject), 'countedAsDone');
	if (said === 'sendAgain') return { kind: 'send', event: 'sentAgain' };
	return { kind: 'fail', failure, event: 'failedAgain' };
}

export function unconfirmedOf(value: unknown): UnconfirmedName {
	return value === 'sendAgain' || value === 'countAsDone' ? value : 'fail';
}
