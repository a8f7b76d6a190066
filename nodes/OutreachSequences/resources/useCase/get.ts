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
	path: (id) => `/v1/use_cases/${id}`,
});

export const useCaseGetDescription = useCaseGet.properties;
