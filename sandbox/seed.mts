// The sandbox's starting data. Shapes follow the contract; the values are made
// up. Some identifiers hold characters that must be encoded in a URL path, so
// that a round trip proves the encoding.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface SeedData {
	contacts: JsonObject[];
	contactLists: JsonObject[];
	useCases: JsonObject[];
	/** Scripts a schedule can name in sequenceScripts (the sandbox's reading of that field). */
	scripts: JsonObject[];
}

const contact = (id: string, firstName: string | null, extra: JsonObject = {}): JsonObject => ({
	id,
	status: 'active',
	firstName,
	lastName: 'Example',
	emails: [`${id.replace(/[^a-z0-9]/gi, '')}@example.com`],
	phoneNumbers: [{ number: '+15550100', type: 'mobile' }],
	businessName: null,
	source: 'sandbox',
	additionalData: { tier: 'gold', tags: ['a', 'b'], nested: { empty: null } },
	contactListIds: ['list-1'],
	...extra,
});

/** Contacts bulk-0 … bulk-<count-1>, for volume runs and the benchmark. */
export function bulkContacts(count: number): JsonObject[] {
	return Array.from({ length: count }, (_, index) => contact(`bulk-${index}`, `Bulk ${index}`));
}

/** Use cases bulk-0 … bulk-<count-1>, for runs of many gets. */
export function bulkUseCases(count: number): JsonObject[] {
	return Array.from({ length: count }, (_, index) => ({
		id: `bulk-${index}`,
		title: `Bulk ${index}`,
		description: null,
		status: 'active',
		actions: null,
	}));
}

export function seedData(): SeedData {
	return {
		contacts: [
			contact('c-42', 'Ada'),
			contact('c-43', 'Grace'),
			contact('42', 'Numeric'),
			contact('a/b?c#d', 'Slashed'),
			contact('100% ü ✓', 'Unicode'),
			contact('c-nulls', null, {
				status: null,
				emails: null,
				phoneNumbers: null,
				additionalData: null,
				contactListIds: null,
				extraFieldNotInContract: { kept: true },
			}),
		],
		contactLists: [
			{ id: 'list-1', name: 'Webinar leads', description: null, status: 'active', contactCount: 3 },
			{
				id: 'list-2',
				name: 'Old leads',
				description: 'From 2024',
				status: 'active',
				contactCount: null,
			},
			{ id: 'list/3', name: 'Slashed list', description: null, status: 'active', contactCount: 0 },
		],
		useCases: [
			{
				id: 'uc-1',
				title: 'Book a demo',
				description: 'Offer a demo slot',
				status: 'active',
				actions: [
					{ description: 'Send the booking link', type: 'text_message', textScriptId: 'txt-1' },
					{ description: null, type: 'default', textScriptId: null },
				],
			},
			{ id: 'uc-2', title: null, description: null, status: null, actions: null },
		],
		scripts: [
			{
				$type: 'PhoneScript',
				id: 'phone-1',
				name: 'Intro call',
				direction: 'outbound',
				status: 'active',
				type: 'phone',
				agentName: 'Sam',
				greeting: 'Hello!',
				goodbye: null,
				useCaseAssociations: [{ id: 'uc-1', order: 1, status: 'active' }],
				giveSurvey: false,
				faqs: [{ question: 'Who are you?', answer: 'A sandbox.', details: null }],
				postCallScripts: [{ textScriptId: 'txt-1', description: null }],
				voicemail: null,
				voiceProvider: { value: null },
				knowledgeBase: { documentIds: [], documentTags: null },
			},
			{
				$type: 'EmailScript',
				id: 'email-1',
				name: 'Follow-up',
				direction: 'outbound',
				status: 'active',
				type: 'email',
				subject: 'Thanks',
				body: null,
			},
			{
				$type: 'TextScript',
				id: 'txt-1',
				name: 'Link',
				direction: 'outbound',
				status: 'active',
				type: 'text',
				message: 'Book here',
			},
			{
				$type: 'BlasterScript',
				id: 'blast-1',
				name: 'Blast',
				direction: 'outbound',
				status: 'active',
				type: 'blaster',
				message: null,
			},
		],
	};
}

/** The IDs the sandbox knows at its start, in a line: what a new user can archive and get. */
export function knownIdsLine(bulkContacts = 0, bulkUseCases = 0): string {
	const seed = seedData();
	const ids = (records: JsonObject[], bulk: number) =>
		[
			...records.map((record) => String(record.id)),
			...(bulk > 0 ? [`bulk-0 … bulk-${bulk - 1}`] : []),
		].join(', ');
	return `Known IDs: contacts ${ids(seed.contacts, bulkContacts)}; contact lists ${ids(seed.contactLists, 0)}; use cases ${ids(seed.useCases, bulkUseCases)}.`;
}
