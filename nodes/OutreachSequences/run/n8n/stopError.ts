/** Adds to the error that stops the workflow: the safe way on, what was done, and what Retry On Fail does. */
import type { HintSetting } from '../outcome/hints';
import { RETRY_ON_FAIL_TEXT } from '../outcome/hints';
import type { ItemState } from '../loop/loop';
import { failureFacts } from '../outcome/failedItem';
import type { StopEnd } from '../outcome/reRunTexts';
import { stopText } from '../outcome/reRunTexts';

type Described = Error & { description?: string | null };

function described<T extends Described>(error: T, ...parts: Array<string | null | undefined>): T {
	error.description = parts.filter(Boolean).join('\n\n');
	return error;
}

export function withDoneBeforeStop<T extends Described>(
	error: T,
	items: ItemState[],
	stoppedAt: number,
	{ subject, readOnly, windowMs }: HintSetting,
): T {
	if (!subject) return error;
	const ends = items.map((item, index): StopEnd => {
		if (item.state === 'done') {
			const id = item.json.id;
			const known = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
			return { name: item.request.subject.name, id: known ?? item.request.subject.id };
		}
		if (item.state === 'pending' || item.state === 'prepared') return 'neverSent';
		if (item.state !== 'failed') return undefined;
		const mayHave = !readOnly && failureFacts(item.failure).outcome === 'mayHaveActed';
		// The stopped item's own error says how it failed, and an unknown one's the steps for it.
		if (index === stoppedAt && (!mayHave || item.failure.kind === 'unknownBefore'))
			return undefined;
		return mayHave ? 'mayHave' : 'notDone';
	});
	return described(error, stopText(subject, ends, { readOnly, windowMs }), error.description);
}

export function withRetryOnFailWarning<T extends Described>(error: T, setting: HintSetting): T {
	if (!setting.retryOnFail || setting.readOnly) return error;
	return described(error, error.description, RETRY_ON_FAIL_TEXT);
}
