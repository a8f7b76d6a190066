/**
 * The error that stops the workflow (On Error = Stop) says, besides what
 * failed: what the service did before it, whether n8n will do that again,
 * the safe way to go on, and, with Retry On Fail on, what n8n's tries do.
 */
import type { HintSetting } from '../outcome/hints';
import { RETRY_ON_FAIL_TEXT } from '../outcome/hints';
import type { ItemState } from '../loop/loop';
import { failureFacts } from '../outcome/failedItem';
import {
	doneBeforeStopText,
	failedBeforeStopText,
	safeWayOn,
	UNKNOWN_ON_RETRY,
} from '../outcome/reRunTexts';

type Described = Error & { description?: string | null };

function prepend<T extends Described>(error: T, text: string): T {
	error.description = error.description ? `${text}\n\n${error.description}` : text;
	return error;
}

function append<T extends Described>(error: T, text: string): T {
	error.description = error.description ? `${error.description}\n\n${text}` : text;
	return error;
}

/** What was done before the stop, whether n8n will do it again, how many items failed, and the safe way on: a paragraph before the details. */
export function withDoneBeforeStop<T extends Described>(
	error: T,
	items: ItemState[],
	stoppedAt: number,
	kept: boolean,
	setting: HintSetting,
): T {
	const done = items.filter((item): item is ItemState & { state: 'done' } => item.state === 'done');
	const sentences: string[] = [];
	if (done.length > 0) {
		const ids = done
			.map((item) => item.json.id)
			.filter((id) => typeof id === 'string' || typeof id === 'number')
			.map(String);
		sentences.push(
			doneBeforeStopText(
				{ subject: done[0].request.subject, count: done.length, ids },
				items.length,
				stoppedAt,
				kept,
			),
		);
	}
	const failed = failedBeforeStopText(
		items.flatMap((item, index) => (item.state === 'failed' ? [index] : [])),
	);
	if (failed) sentences.push(failed);
	const stopped = items[stoppedAt];
	// The stopped item may have been carried out: say now what a retry will ask for it.
	if (
		!setting.readOnly &&
		stopped?.state === 'failed' &&
		stopped.failure.kind !== 'unknownBefore' &&
		failureFacts(stopped.failure).outcome === 'mayHaveActed'
	)
		sentences.push(UNKNOWN_ON_RETRY);
	if (!setting.readOnly && setting.subject)
		sentences.push(safeWayOn(setting.subject, setting.doneKeys === true));
	return sentences.length > 0 ? prepend(error, sentences.join(' ')) : error;
}

/** An error that stops the node also says when Retry On Fail will run every item again. */
export function withRetryOnFailWarning<T extends Described>(error: T, setting: HintSetting): T {
	if (!setting.retryOnFail || setting.readOnly) return error;
	return append(error, RETRY_ON_FAIL_TEXT);
}
