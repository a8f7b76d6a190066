/** Use Case › Get: fetches one use case by its ID. */
import type { Operation } from '../../helpers/interfaces';
import { idField, requestById, toolDescription } from '../common.descriptions';

const useCaseId = idField('useCaseId', 'Use Case ID', 'e.g. {{ $json.useCaseId }}');

export const useCaseGet: Operation = {
	readOnly: true,
	option: {
		name: 'Get',
		action: 'Get a use case',
		description:
			'Get a use case by its identifier, with its title, description, status and actions',
	},
	operationId: 'getUseCase',
	properties: [
		useCaseId,
		toolDescription(
			'Gets one use case from the outreach service: a goal that phone scripts work towards. Give Use Case ID, the identifier of the use case exactly as the service knows it. Returns the use case as JSON: id, title, description, status and actions. Changes nothing. If it fails, the result is one sentence saying what went wrong, for example that no such use case exists.',
		),
	],
	buildRequest: requestById(useCaseId, {
		method: 'GET',
		path: (id) => `/v1/use_cases/${id}`,
		subject: { noun: 'use case', verb: 'get', done: 'fetched' },
	}),
};
