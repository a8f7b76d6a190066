/** The fields that operations share: an identifier in the path, and the tool's description. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { Field } from '../helpers/names';

/** A required identifier that goes into the request path. */
export function identifierProperty(field: {
	name: string;
	displayName: string;
	description: string;
	placeholder: string;
	show: IDisplayOptions['show'];
}): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'string',
		required: true,
		default: '',
		placeholder: field.placeholder,
		description: field.description,
		displayOptions: { show: field.show },
	};
}

/**
 * What the AI Agent tells its model about this operation when the node is its
 * tool. n8n uses a node's own `toolDescription` field instead of adding its
 * generic one ("<action> in <node>"), and shows it only on the tool variant
 * (`@tool`); the user can still rewrite it there.
 */
export function toolDescriptionProperty(
	show: IDisplayOptions['show'],
	text: string,
): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: Field.toolDescription,
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the AI Agent tells its model this tool does and what to give it. You can rewrite it.',
		displayOptions: { show: { ...show, '@tool': [true] } },
	};
}
