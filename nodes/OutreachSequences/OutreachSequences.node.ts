/** The Outreach Sequences node: its description, and execute() handing the operation to run/n8n. */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { contactResource } from './actions/contact/Contact.resource';
import { contactListResource } from './actions/contactList/ContactList.resource';
import { sequenceResource } from './actions/sequence/Sequence.resource';
import { useCaseResource } from './actions/useCase/UseCase.resource';
import { requestOptionsProperty } from './actions/requestOptions';
import { runOperation } from './run/n8n/execute';

const resources = [sequenceResource, contactResource, contactListResource, useCaseResource];
/** Exported for the build, which writes each operation's output schema. */
export const operations = resources.flatMap((resource) => resource.operations);

export class OutreachSequences implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Outreach Sequences',
		name: 'outreachSequences',
		icon: {
			light: 'file:../../icons/outreachSequences.svg',
			dark: 'file:../../icons/outreachSequences.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create outreach sequences, archive contacts and contact lists, and get use cases',
		defaults: { name: 'Outreach Sequences' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The credential tests itself (its `test`), on n8n's own path.
		credentials: [{ name: 'outreachSequencesApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				description: 'The kind of record to work with',
				options: [
					{
						name: 'Contact',
						value: 'contact',
						description: 'A person the service reaches out to',
					},
					{ name: 'Contact List', value: 'contactList', description: 'A group of contacts' },
					{
						name: 'Sequence',
						value: 'sequence',
						description: 'An outreach plan made of schedule steps',
					},
					{
						name: 'Use Case',
						value: 'useCase',
						description: 'A goal with actions that phone scripts refer to',
					},
				],
				default: 'sequence',
			},
			...resources.flatMap((resource) => resource.properties),
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0);
		const operation = this.getNodeParameter('operation', 0);
		const definition = operations.find(
			(entry) => entry.resource === resource && entry.operation === operation,
		);
		if (!definition) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${String(operation)}" of "${String(resource)}" is not supported`,
			);
		}
		return await runOperation(this, definition);
	}
}
