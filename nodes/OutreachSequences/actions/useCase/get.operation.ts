/** Use Case › Get: fetches one use case by its ID. */
import { identifierOperation } from '../identifierOperation';

export const useCaseGet = identifierOperation({
	operationId: 'getUseCase',
	option: {
		name: 'Get',
		action: 'Get a use case',
		description:
			'Get a use case by its identifier, with its title, description, status and actions',
	},
	request: {
		resource: 'useCase',
		operation: 'get',
		method: 'GET',
		readOnly: true,
		done: 'fetched',
		path: (id) => `/v1/use_cases/${id}`,
	},
	field: {
		name: 'useCaseId',
		displayName: 'Use Case ID',
		noun: 'use case',
		placeholder: 'e.g. {{ $json.useCaseId }}',
	},
	toolDescription:
		'Gets one use case from the outreach service: a goal that phone scripts work towards. Give Use Case ID, the identifier of the use case exactly as the service knows it. Returns the use case as JSON: id, title, description, status and actions. Changes nothing. If it fails, the result is one sentence saying what went wrong, for example that no such use case exists.',
});
