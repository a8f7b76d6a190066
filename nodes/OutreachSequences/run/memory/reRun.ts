/** What an earlier try's or run's outcome means for an item now; what the service may have done waits for the user's say (RFC 9110 §9.2.2). */
import type { IDataObject } from 'n8n-workflow';

import type { UnconfirmedName } from '../../helpers/names';
import { Unconfirmed } from '../../helpers/names';
import type { OutreachRequest } from '../../helpers/interfaces';
import type { ItemFailure } from '../outcome/failedItem';
import type { EarlierTry } from './record';
import type { PriorEvent } from '../outcome/runReport';
import type { Prior } from '../loop/items';
import { answerLostItem, countedAsDoneItem } from '../outcome/reRunTexts';

const answer = (json: IDataObject, event: PriorEvent): Prior => ({ kind: 'answer', json, event });

/**
 * What an earlier try's `earlier` means for the item now; `choice` reads the
 * user's say, only when it is needed, and may throw (its expression failed).
 */
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
		// Its expression failed for this item alone: the item is not sent, as with Fail, and its error says why.
		return { kind: 'fail', failure: { ...failure, unconfirmedError }, event: 'failedAgain' };
	}
	if (said === Unconfirmed.CountAsDone)
		return answer(countedAsDoneItem(request.subject), 'countedAsDone');
	if (said === Unconfirmed.SendAgain) return { kind: 'send', event: 'sentAgain' };
	return { kind: 'fail', failure, event: 'failedAgain' };
}

/** The user's say, as the option gives it: anything else is "fail", which sends nothing. */
export function unconfirmedOf(value: unknown): UnconfirmedName {
	return value === Unconfirmed.SendAgain || value === Unconfirmed.CountAsDone
		? value
		: Unconfirmed.Fail;
}
