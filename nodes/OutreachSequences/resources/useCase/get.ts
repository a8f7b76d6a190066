import { identifierOperation } from '../../shared/identifierOperation';
import { Field, Operation, Resource } from '../../shared/names';

export const useCaseGet = identifierOperation({
	resource: Resource.UseCase,
	operation: Operation.Get,
	method: 'GET',
	readOnly: true,
	noun: 'use case',
	field: {
		name: Field.useCaseId,
		displayName: 'Use Case ID',
		placeholder: 'e.g. {{ $json.useCaseId }}',
		description:
			'Identifier of the use case to get. Surrounding spaces are ignored, and a number from an expression is used as text.',
	},
	toolDescription:
		'Gets one use case from the outreach service: a goal that phone scripts work towards. Give Use Case ID, the identifier of the use case exactly as the service knows it. Returns the use case as JSON: id, title, description, status and actions. Changes nothing. If it fails, the result is one sentence saying what went wrong, for example that no such use case exists.',
	path: (id) => `/v1/use_cases/${id}`,
});

export const useCaseGetDescription = useCaseGet.properties;
