// What a suite's n8n starts with, in as few n8n CLI launches as possible (each
// loads n8n whole, 5 to 12 s): a SQLite folder from a template made once per
// worker and version, the sandbox's credential in it saved by the owner
// (PATCH /rest/credentials/<id>); on 2.x a server's workflows created over
// REST (1.x drops a given ID, so 1.x imports them); the rest with the CLI.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { StoredCredential } from '../../../scripts/n8n/user-folder.mts';
import { major } from '../../../scripts/n8n/versions.mts';
import { outreachApiCredential } from './credentials.mts';
import { importCredentials, importWorkflows, n8nEnv } from './n8n.mts';

/** The id of the credential that points at the sandbox, as the suites' workflows name it. */
export const SANDBOX_CREDENTIAL_ID = 'outreachSandbox';

const templates = new Map<string, Promise<string>>();

/** A user folder's .n8n with the database migrated and the sandbox credential (a placeholder) in it, made once per worker and version. */
function template(bin: string, version: string): Promise<string> {
	let made = templates.get(version);
	if (!made) {
		made = (async () => {
			const folder = mkdtempSync(path.join(tmpdir(), 'outreach-n8n-template-'));
			const placeholder = outreachApiCredential(
				SANDBOX_CREDENTIAL_ID,
				'placeholder-key-0000000000',
				'http://127.0.0.1:9',
				'Outreach sandbox',
			);
			await importCredentials(bin, n8nEnv(folder), [placeholder]);
			return path.join(folder, '.n8n');
		})();
		templates.set(version, made);
	}
	return made;
}

export interface Seeding {
	/** Put in once the owner is signed in: the credentials saved over the template's, and 2.x's workflows. */
	afterStart(rest: <T>(method: string, route: string, body?: unknown) => Promise<T>): Promise<void>;
}

/**
 * Puts the credentials (and the sandbox's, SANDBOX_CREDENTIAL_ID, when there
 * is a sandbox) and the workflows into the user folder `folder`: what needs
 * no server now, the rest in `afterStart`. `sqlite`: n8n keeps its data in
 * the folder (not queue mode's PostgreSQL); `server`: n8n starts with an
 * owner (not `n8n execute` alone).
 */
export async function seed(
	bin: string,
	version: string,
	folder: string,
	env: NodeJS.ProcessEnv,
	options: {
		sqlite: boolean;
		server: boolean;
		sandbox?: { apiKey: string; url: string };
		credentials: StoredCredential[];
		workflows: Array<string | object>;
	},
): Promise<Seeding> {
	const { workflows } = options;
	const sandbox =
		options.sandbox &&
		outreachApiCredential(
			SANDBOX_CREDENTIAL_ID,
			options.sandbox.apiKey,
			options.sandbox.url,
			'Outreach sandbox',
		);
	const credentials = sandbox ? [...options.credentials, sandbox] : options.credentials;
	const fromTemplate = options.sqlite && sandbox !== undefined;
	if (fromTemplate) {
		const made = await template(bin, version);
		for (const file of readdirSync(made).filter((name) =>
			/^(config|database\.sqlite.*)$/.test(name),
		))
			copyFileSync(path.join(made, file), path.join(folder, '.n8n', file));
	}
	const saveLater = fromTemplate && options.server ? [sandbox] : [];
	const importNow = credentials.filter((credential) => !saveLater.includes(credential));
	const createLater = options.server && major(version) >= 2 ? workflows : [];
	if (importNow.length) await importCredentials(bin, env, importNow);
	if (workflows.length && !createLater.length) await importWorkflows(bin, env, workflows);
	return {
		async afterStart(rest) {
			for (const { id, name, type, data } of saveLater)
				await rest('PATCH', `/credentials/${id}`, { name, type, data });
			for (const workflow of createLater) {
				const body =
					typeof workflow === 'string'
						? (JSON.parse(readFileSync(workflow, 'utf8')) as object)
						: workflow;
				await rest('POST', '/workflows', body);
			}
		},
	};
}
