/**
 * Items' requests made ahead of the loop (loop.ts), in order, while the run
 * has to wait anyway: Skip Items Done Before waits a second after it claims
 * the keys (memory/doneKeyClaim.ts), and making a request is mostly n8n
 * evaluating the item's expressions, about half a millisecond each. So the
 * second is spent on the first items' requests, not idle. A request is made
 * once: the loop takes what was made ahead, or has it made then. An item
 * whose request can't be made throws when the loop takes it, as it would have.
 */
import type { OutreachRequest } from '../../helpers/interfaces';

/** How many requests are made before n8n's event loop gets a turn (as between keys, memory/memoryKeys.ts). */
const MADE_BETWEEN_TURNS = 32;

type Made = { request: OutreachRequest } | { error: unknown };

/** The run's clock: the time, a turn for n8n's event loop, and a wait. */
export interface AheadClock {
	now(): number;
	turn(): Promise<void>;
	sleep(ms: number): Promise<void>;
}

export class RequestsAhead {
	private readonly made = new Map<number, Made>();
	/** The next item whose request is not made yet. */
	private next = 0;

	constructor(
		private readonly count: number,
		private readonly make: (index: number) => OutreachRequest,
	) {}

	/** Makes requests ahead, in order, for `ms`; n8n's event loop gets a turn every MADE_BETWEEN_TURNS. */
	async during(ms: number, clock: AheadClock): Promise<void> {
		const until = clock.now() + ms;
		while (this.next < this.count && clock.now() < until) {
			for (let made = 0; made < MADE_BETWEEN_TURNS && this.next < this.count; made++)
				this.made.set(this.next, this.attempt(this.next++));
			await clock.turn();
		}
		const left = until - clock.now();
		if (left > 0) await clock.sleep(left);
	}

	/** Item `index`'s request: the one made ahead, or made now; throws when it can't be made. */
	take(index: number): OutreachRequest {
		const made = this.made.get(index) ?? this.attempt(index);
		this.made.delete(index);
		if ('error' in made) throw made.error;
		return made.request;
	}

	private attempt(index: number): Made {
		try {
			return { request: this.make(index) };
		} catch (error) {
			return { error };
		}
	}
}
