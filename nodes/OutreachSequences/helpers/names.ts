/**
 * Every name that users' saved workflows store. Renaming one breaks those
 * workflows, so each is written here once, and the types of the stored
 * values below are built from these names: a rename here changes, or fails
 * to compile, every place that reads one.
 */
export const CREDENTIAL_TYPE = 'outreachSequencesApi';

/** The header the service reads the API key from (the contract's Authentication). Not stored, but sent by the credential and its test alike. */
export const API_KEY_HEADER = 'X-API-Key';

export const Resource = {
	Sequence: 'sequence',
	Contact: 'contact',
	ContactList: 'contactList',
	UseCase: 'useCase',
} as const;

export const Operation = {
	Create: 'create',
	Archive: 'archive',
	Get: 'get',
} as const;

export const Field = {
	resource: 'resource',
	operation: 'operation',
	contactId: 'contactId',
	contactListId: 'contactListId',
	useCaseId: 'useCaseId',
	specifyBody: 'specifyBody',
	jsonBody: 'jsonBody',
	name: 'name',
	additionalFields: 'additionalFields',
	description: 'description',
	criteria: 'criteria',
	timezone: 'timezone',
	schedules: 'schedules',
	schedule: 'schedule',
	dayOffset: 'dayOffset',
	hour: 'hour',
	minute: 'minute',
	delayInMinutes: 'delayInMinutes',
	sequenceScripts: 'sequenceScripts',
	requestOptions: 'requestOptions',
	batching: 'batching',
	batch: 'batch',
	batchSize: 'batchSize',
	batchInterval: 'batchInterval',
	batchLimit: 'limit',
	timeout: 'timeout',
	allowUnauthorizedCerts: 'allowUnauthorizedCerts',
	rateLimitHandling: 'rateLimitHandling',
	rateLimitSettings: 'settings',
	retryEnabled: 'enabled',
	maxRetries: 'maxRetries',
	maxWait: 'maxWait',
	unconfirmed: 'unconfirmedEarlierTry',
	skipDoneBefore: 'skipDoneBefore',
	keySettings: 'keySettings',
	doneKey: 'key',
	windowMinutes: 'windowMinutes',
	repeatRecentCreates: 'repeatRecentCreates',
	toolDescription: 'toolDescription',
} as const;

export const BodyMode = {
	Fields: 'fields',
	Json: 'json',
} as const;

/** Request Options › Unconfirmed Earlier Try: what a re-run does with an item an earlier try sent without a confirmation. */
export const Unconfirmed = {
	Fail: 'fail',
	SendAgain: 'sendAgain',
	CountAsDone: 'countAsDone',
} as const;

/** Request Options › Batching › Limit: how the requests in flight reach Items per Batch. */
export const BatchLimit = {
	Automatic: 'automatic',
	Fixed: 'fixed',
} as const;

export type ResourceName = (typeof Resource)[keyof typeof Resource];
export type OperationName = (typeof Operation)[keyof typeof Operation];
export type BodyModeName = (typeof BodyMode)[keyof typeof BodyMode];
export type UnconfirmedName = (typeof Unconfirmed)[keyof typeof Unconfirmed];
export type BatchLimitName = (typeof BatchLimit)[keyof typeof BatchLimit];

/**
 * The `default` of each option list. n8n's linter reads a default from the
 * source and accepts only a literal or a plain name there, so each default
 * is a plain name of its own.
 */
export const defaultResource = Resource.Sequence;
export const defaultBodyMode = BodyMode.Fields;
export const createOperation = Operation.Create;
export const archiveOperation = Operation.Archive;
export const getOperation = Operation.Get;
export const defaultUnconfirmed = Unconfirmed.Fail;
export const defaultBatchLimit = BatchLimit.Automatic;

/** Request Options as n8n stores them: every option is optional. */
export interface RequestOptionsValue {
	[Field.batching]?: {
		[Field.batch]?: {
			[Field.batchSize]?: number;
			[Field.batchLimit]?: BatchLimitName;
			[Field.batchInterval]?: number;
		};
	};
	[Field.timeout]?: number;
	[Field.allowUnauthorizedCerts]?: boolean;
	[Field.rateLimitHandling]?: {
		[Field.rateLimitSettings]?: {
			[Field.retryEnabled]?: boolean;
			[Field.maxRetries]?: number;
			[Field.maxWait]?: number;
		};
	};
	[Field.unconfirmed]?: UnconfirmedName;
	[Field.skipDoneBefore]?: {
		[Field.keySettings]?: { [Field.doneKey]?: string; [Field.windowMinutes]?: number };
	};
	[Field.repeatRecentCreates]?: boolean;
}

/** One row of Sequence › Create's Schedules, as stored. */
export interface ScheduleRowValue {
	[Field.dayOffset]?: unknown;
	[Field.hour]?: unknown;
	[Field.minute]?: unknown;
	[Field.delayInMinutes]?: unknown;
	[Field.sequenceScripts]?: unknown;
}

/** Sequence › Create's Schedules, as stored. */
export interface SchedulesValue {
	[Field.schedule]?: ScheduleRowValue[];
}
