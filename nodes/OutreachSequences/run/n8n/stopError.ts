/** Adds to the error that stops the workflow: the safe way on, what was done, and what Retry On Fail does. */
import type { HintSetting } from '../outcome/hints';
import { RETRY_ON_FAIL_TEXT } from '../outcome/hints';
import type { ItemState } from '../loop/loop';
import { failureFacts } from '../outcome/failedItem';
import { safeWayOn, stepsAfterStop, stopText } from '../outcome/reRunTexts';

type Described = Error & { description?: string | null };

function described<T extends Described>(error: T, ...parts: Array<string | null | undefined>): T {
	error.description = parts.filter(Boolean).join('\n\n');
	return error;
}

export function withDoneBeforeStop<T extends Described>(
	error: T,
	items: ItemState[],
	stoppedAt: number,
	setting: HintSetting,
): T {
	const subject = setting.subject;
	if (!subject) return error;
	const done: Array<{ name?: string; id?: string }> = [];
	const mayHave: number[] = [];
	const notDone: number[] = [];
	const neverSent: number[] = [];
	items.forEach((item, index) => {
		if (item.state === 'done') {
			const id = item.json.id;
			const known = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
			done.push({ name: item.request.subject.name, id: known ?? item.request.subject.id });
		} else if (item.state === 'failed') {
			if (failureFacts(item.failure).outcome === 'mayHaveActed' && !setting.readOnly)
				mayHave.push(index);
			// The stopped item's own failure is already the error's message.
			else if (index !== stoppedAt) notDone.push(index);
		} else if (item.state === 'pending' || item.state === 'prepared') neverSent.push(index);
	});
	const stopped = items[stoppedAt];
	// An item an earlier try left unknown names the steps in its own message: not said twice.
	const stepsInMessage = stopped?.state === 'failed' && stopped.failure.kind === 'unknownBefore';
	const steps = !setting.readOnly && mayHave.length > 0 && !stepsInMessage;
	const wayOn = {
		text: setting.readOnly
			? ''
			: steps
				? stepsAfterStop(subject, mayHave)
				: safeWayOn(subject, setting.windowMs),
		namesMayHave: steps,
	};
	const facts = { subject, items: items.length, stoppedAt, done, mayHave, notDone, neverSent };
	const text = stopText(facts, wayOn);
	return text ? described(error, text, error.description) : error;
}

export function withRetryOnFailWarning<T extends Described>(error: T, setting: HintSetting): T {
	if (!setting.retryOnFail || setting.readOnly) return error;
	return described(error, error.description, RETRY_ON_FAIL_TEXT);
}
