/** What operations share: the ID field in the path, and the tool's description. */
import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation, OutreachRequest, Subject } from '../helpers/interfaces';
import { toIdentifier } from '../helpers/validation';

/** The one required field of an operation on a record: its ID, sent as one path segment. */
export function idField(name: string, displayName: string, placeholder: string): INodeProperties {
	const noun = displayName.replace(/ ID$/, '').toLowerCase();
	const description = `ID of the ${noun}, as the outreach service gives it`;
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
	};
}

/** The request of an operation on one record: the ID the item gives `field`, checked, as one path segment. */
export function requestById(
	field: INodeProperties,
	request: Pick<OutreachRequest, 'method'> & {
		path: (segment: string) => string;
		subject: Omit<Subject, 'id' | 'name'>;
	},
): Operation['buildRequest'] {
	return (read, itemIndex) => {
		const id = read.perRun(field.name, itemIndex, undefined, (raw) => {
			const checked = toIdentifier(raw, field.displayName);
			if (!checked.ok) throw new NodeOperationError(read.node, checked.problem, { itemIndex });
			return checked.value;
		});
		const { method, path, subject } = request;
		return { method, path: path(encodeURIComponent(id)), subject: { ...subject, id } };
	};
}

// n8n uses a node's own `toolDescription` instead of its generic one, and shows it only on the `@tool` variant.
export function toolDescription(text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the AI Agent tells its model this tool does and what to give it. You can rewrite it.',
		displayOptions: { show: { '@tool': [true] } },
	};
}
