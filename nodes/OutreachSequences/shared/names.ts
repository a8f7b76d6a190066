/**
 * Every name that users' saved workflows store. Renaming one breaks those
 * workflows, so each is written here once and imported everywhere else.
 */
export const CREDENTIAL_TYPE = 'outreachSequencesApi';

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
	timeout: 'timeout',
	allowUnauthorizedCerts: 'allowUnauthorizedCerts',
	rateLimitHandling: 'rateLimitHandling',
	rateLimitSettings: 'settings',
	retryEnabled: 'enabled',
	maxRetries: 'maxRetries',
	maxWait: 'maxWait',
	toolDescription: 'toolDescription',
} as const;

export const BodyMode = {
	Fields: 'fields',
	Json: 'json',
} as const;

export type ResourceName = (typeof Resource)[keyof typeof Resource];
export type OperationName = (typeof Operation)[keyof typeof Operation];
