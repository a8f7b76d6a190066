/** The run loop's item states, settings, and the ports through which requests are made and sent. */
import type { IDataObject } from 'n8n-workflow';

import type { OutreachRequest } from '../../helpers/interfaces';
import type { Failure } from '../../transport/failure';
import type { Attempt } from '../../transport/index';
import type { ItemFailure } from '../outcome/failedItem';
import type { PriorEvent } from '../outcome/runReport';
import type { ServicePace } from '../pace/servicePace';
import type { RetryPolicy } from './retry';

export type Prior =
	| { kind: 'answer'; json: IDataObject; event: PriorEvent }
	| { kind: 'fail'; failure: ItemFailure; event?: PriorEvent }
	| { kind: 'send'; event: PriorEvent };

export type ItemState =
	| { state: 'pending' }
	| { state: 'prepared'; request: OutreachRequest; sends: 0 }
	| { state: 'inFlight'; request: OutreachRequest; sends: number }
	| { state: 'waiting'; request: OutreachRequest; sends: number; last: Failure }
	| { state: 'done'; request: OutreachRequest; json: IDataObject; sends: number }
	| { state: 'failed'; failure: ItemFailure };

export interface Batching {
	groupSize: number;
	pauseMs: number;
	fixed: boolean;
}

export interface LoopSettings {
	batching: Batching;
	policy: RetryPolicy;
	readOnly: boolean;
	stopAtFirstFailure: boolean;
}

export interface LoopPorts {
	pace: ServicePace;
	prepare(index: number): OutreachRequest;
	prior?(index: number, request: OutreachRequest): Prior | undefined;
	claim?(index: number, request: OutreachRequest): Promise<Prior | undefined>;
	/** A failure comes back as an Attempt, not thrown. */
	send(request: OutreachRequest, index: number): Promise<Attempt>;
	cancelled(): boolean;
	log(line: string): void;
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}
