// A burst of webhook events, each its own execution archiving one contact
// (test/e2e/workflows/burst-webhook.workflow.json against a sandbox seeded
// with contacts bulk-0 …), and what it came to at the service.
import type { RecordedRequest } from '../../harness/sandbox.mts';

export interface BurstAnswer {
	status: number;
	body: { id?: string } | undefined;
}

/** `events` POSTs to `url` at once, the i-th archiving contact bulk-<i>: the answers, and how long they took. */
export async function postBurst(
	url: string,
	events: number,
): Promise<{ answers: BurstAnswer[]; seconds: number }> {
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: events }, async (_, index) => {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: `bulk-${index}` }),
			});
			return {
				status: response.status,
				body: (await response.json().catch(() => undefined)) as BurstAnswer['body'],
			};
		}),
	);
	return { answers, seconds: (Date.now() - started) / 1000 };
}

/** The events answered with their own contact, the requests the service rejected (429), those answered anything else, and the contacts archived more than once. */
export function burstOutcome(answers: BurstAnswer[], requests: RecordedRequest[]) {
	const archived = requests
		.filter((request) => request.status === 200)
		.map((request) => request.url);
	return {
		archived,
		succeeded: answers.filter(
			(answer, index) => answer.status === 200 && answer.body?.id === `bulk-${index}`,
		).length,
		rejected: requests.filter((request) => request.status === 429).length,
		others: requests.filter((request) => request.status !== 200 && request.status !== 429).length,
		duplicates: archived.length - new Set(archived).size,
	};
}

/** Every event answered 200 with its contact, each contact archived exactly once, and only rejected requests sent again: whatever the load. */
export function expectEachArchivedOnce(
	answers: BurstAnswer[],
	outcome: ReturnType<typeof burstOutcome>,
): void {
	const events = answers.length;
	expect(answers.map((answer) => answer.status)).toEqual(Array(events).fill(200));
	expect(outcome.succeeded).toBe(events);
	expect([...outcome.archived].sort()).toEqual(
		Array.from({ length: events }, (_, index) => `/v1/contacts/bulk-${index}/archive`).sort(),
	);
	expect(outcome.duplicates).toBe(0);
	expect(outcome.others).toBe(0);
}
