/**
 * What the loop (loop.ts) works on: each item's state, and what it is told:
 * how items go out, the retry policy, On Error, and the ports through which
 * a request is made, answered from an earlier try, and sent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { Failure } from '../../transport/failure';
import type { Attempt } from '../../transport/index';
import type { ItemFailure } from '../outcome/failedItem';
import type { PriorEvent } from '../outcome/runReport';
import type { ServicePace } from '../pace/servicePace';
import type { RetryPolicy } from './retry';

/** What the loop does with the item instead of, or before, sending it. */
export type Prior =
	| { kind: 'answer'; json: IDataObject; event: PriorEvent }
	| { kind: 'fail'; failure: ItemFailure; event?: PriorEvent }
	| { kind: 'send'; event: PriorEvent };

export type ItemState =
	| { state: 'pending' }
	| { state: 'prepared'; request: OutreachRequest; sends: 0 }
	| { state: 'inFlight'; request: OutreachRequest; sends: number }
	/** To be sent again, after `last` failed. */
	| { state: 'waiting'; request: OutreachRequest; sends: number; last: Failure }
	/** The service's answer; `sends` 0 when it came from an earlier try or execution (reRun.ts). */
	| { state: 'done'; request: OutreachRequest; json: IDataObject; sends: number }
	| { state: 'failed'; failure: ItemFailure };

/**
 * How items go out: in groups of `groupSize` in flight; with batching, one batch after another,
 * `pauseMs` apart; `fixed` (Limit: Fixed), `groupSize` in flight from the first request.
 */
export interface Batching {
	groupSize: number;
	pauseMs: number;
	batched: boolean;
	fixed: boolean;
}

export interface LoopSettings {
	batching: Batching;
	policy: RetryPolicy;
	/** The operation changes nothing, so it may be sent again after a 500, 502, 504, reset or timeout. */
	readOnly: boolean;
	/** On Error = Stop: after a failure, no item after it is sent. */
	stopAtFirstFailure: boolean;
}

export interface LoopPorts {
	/** The service's pace, which this run shares with every other execution that talks to it. */
	pace: ServicePace;
	/** The item's request; throws when the item can't be sent. */
	prepare(index: number): OutreachRequest;
	/** What an earlier try or execution did with this item, and so what to do instead of sending it (reRun.ts). */
	prior?(index: number, request: OutreachRequest): Prior | undefined;
	/** At item `index`'s turn, before its request goes out: the memory claims it, or says what to do instead (memory.ts). */
	claim?(index: number, request: OutreachRequest): Promise<Prior | undefined>;
	/** Sends item `index`'s request once; a failure comes back as an Attempt, not thrown. */
	send(request: OutreachRequest, index: number): Promise<Attempt>;
	/** Whether the execution was stopped. */
	cancelled(): boolean;
	log(line: string): void;
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}
