// Skip Items Done Before at volume (issue 43): Webhook › Items (a Code node
// making `count` items { id: 'bulk-<n>' } from the event) › Archive Contact,
// keyed by the contact's ID, failures as items › Tally (a Code node
// answering with how many items came out, skipped and failed). The runs'
// data is not saved: nothing here reads it, and n8n writing tens of
// thousands of items would only make the runs longer.
import http from 'node:http';

import { SANDBOX_CREDENTIAL_ID, type N8n } from './stage.mts';
import { outreachCredential, outreachNode, webhookTrigger, workflowOf } from './workflows.mts';

const code = (name: string, jsCode: string) => ({
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: { jsCode },
});

export function archivesKeyed(id: string) {
	const workflow = workflowOf(id, [
		webhookTrigger(id),
		code(
			'Items',
			'return Array.from({ length: $input.first().json.body.count }, (_, n) => ({ json: { id: `bulk-${n}` } }));',
		),
		outreachNode(
			'Archive Contact',
			{
				resource: 'contact',
				operation: 'archive',
				contactId: '={{ $json.id }}',
				requestOptions: { skipDoneBefore: { keySettings: { key: '={{ $json.id }}' } } },
			},
			{
				credentials: outreachCredential(SANDBOX_CREDENTIAL_ID, 'Outreach sandbox'),
				onError: 'continueRegularOutput',
			},
		),
		code(
			'Tally',
			'const items = $input.all().map((item) => item.json);\nreturn [{ json: { items: items.length, skipped: items.filter((json) => json.skipped === true).length, failed: items.filter((json) => json.error !== undefined).length } }];',
		),
	]);
	return {
		...workflow,
		settings: {
			...workflow.settings,
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'none',
		},
	};
}

export interface Tally {
	items: number;
	skipped: number;
	failed: number;
}

/**
 * One execution of `count` keyed archives: what came out of the node. Over
 * node:http, which waits for the answer as long as the run takes (fetch gives
 * up on headers after 300 s, which a loaded machine can pass).
 */
export async function archiveCount(n8n: N8n, path: string, count: number): Promise<Tally> {
	const body = JSON.stringify({ count });
	return await new Promise<Tally>((resolve, reject) => {
		const request = http.request(
			`${n8n.server.url}/webhook/${path}`,
			{ method: 'POST', headers: { 'content-type': 'application/json' } },
			(response) => {
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => (text += chunk));
				response.on('end', () => {
					if (response.statusCode === 200) resolve(JSON.parse(text) as Tally);
					else reject(new Error(`${path} × ${count} answered ${response.statusCode}: ${text}`));
				});
			},
		);
		request.on('error', reject);
		request.end(body);
	});
}
