// The records the sandbox keeps, by collection, and what get, archive and
// create do to them. The error bodies ({ "message": ... }) are the sandbox's
// own: the contract shows none.
import { randomUUID } from 'node:crypto';

import { bulkContacts, bulkUseCases, seedData } from './seed.mts';
import type { Json, JsonObject } from './seed.mts';

export interface Answer {
	status: number;
	body?: Json;
}

export const message = (status: number, text: string, extra: JsonObject = {}): Answer => ({
	status,
	body: { message: text, ...extra },
});
export const NOT_FOUND = 'Resource not found';

/** The collections the control routes can read a record of. */
export type Kind = 'contacts' | 'contactLists' | 'useCases' | 'sequences';

export interface SeedOptions {
	/** Also seed this many contacts, bulk-0 … bulk-<n-1>. */
	bulkContacts?: number;
	/** Also seed this many use cases, bulk-0 … bulk-<n-1>. */
	bulkUseCases?: number;
}

export class Store {
	private readonly options: SeedOptions;
	private collections = new Map<string, Map<string, JsonObject>>();
	private created = 0;

	constructor(options: SeedOptions = {}) {
		this.options = options;
		this.reset();
	}

	/** Back to the seed data. */
	reset(): void {
		const seed = seedData();
		seed.contacts.push(...bulkContacts(this.options.bulkContacts ?? 0));
		seed.useCases.push(...bulkUseCases(this.options.bulkUseCases ?? 0));
		const byId = (records: JsonObject[]) =>
			new Map(records.map((record) => [String(record.id), record]));
		this.collections = new Map(
			Object.entries(seed).map(([name, records]) => [name, byId(records)]),
		);
		this.created = 0;
	}

	/** A collection's records by id; one the seed has none of starts empty. */
	collection(name: string): Map<string, JsonObject> {
		let records = this.collections.get(name);
		if (!records) this.collections.set(name, (records = new Map()));
		return records;
	}

	get(collection: string, id: string): Answer {
		const record = this.collection(collection).get(id);
		return record ? { status: 200, body: record } : message(404, NOT_FOUND);
	}

	// The contract says archiving removes the record from active use and that
	// lists become `archived`. The contact's status afterwards is not shown;
	// the sandbox uses `archived` for both.
	archive(collection: string, id: string): Answer {
		const record = this.collection(collection).get(id);
		if (!record) return message(404, NOT_FOUND);
		record.status = 'archived';
		return { status: 200, body: record };
	}

	/** A sequence as the contract's response shapes it; any other record as sent, with an id. */
	create(collection: string, input: JsonObject): Answer {
		const count = ++this.created;
		const id = `${collection === 'sequences' ? 'seq' : collection}-${count}-${randomUUID().slice(0, 8)}`;
		const record = collection === 'sequences' ? this.sequence(id, input) : { id, ...input };
		this.collection(collection).set(id, record);
		return { status: 201, body: record };
	}

	// The meaning of sequenceScripts is not shown. The sandbox reads each entry
	// as a script identifier and, where it knows the script, returns it.
	private sequence(id: string, input: JsonObject): JsonObject {
		const schedules = Array.isArray(input.schedules)
			? input.schedules.map((entry) => this.scheduleEntry(entry as JsonObject))
			: (input.schedules ?? null);
		return {
			id,
			status: null,
			name: input.name ?? null,
			description: input.description ?? null,
			criteria: input.criteria ?? null,
			schedules,
			timezone: input.timezone ?? null,
		};
	}

	private scheduleEntry(entry: JsonObject): JsonObject {
		const scripts = (Array.isArray(entry.sequenceScripts) ? entry.sequenceScripts : [])
			.map((scriptId) => this.collection('scripts').get(String(scriptId)))
			.filter((script): script is JsonObject => script !== undefined);
		const result: JsonObject = {};
		for (const key of ['dayOffset', 'hour', 'minute', 'delayInMinutes']) {
			if (entry[key] !== undefined) result[key] = entry[key];
		}
		for (const script of scripts) {
			const field = `${String(script.$type).charAt(0).toLowerCase()}${String(script.$type).slice(1)}`;
			result[field] = script;
		}
		result.scripts = scripts;
		return result;
	}
}
