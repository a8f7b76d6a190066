/** Fields that operations share: an identifier in the path, and the tool's description. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

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

// n8n uses a node's own `toolDescription` instead of its generic one, and shows it only on the `@tool` variant.
export function toolDescriptionProperty(
	show: IDisplayOptions['show'],
	text: string,
): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description:
			'What the AI Agent tells its model this tool does and what to give it. You can rewrite it.',
		displayOptions: { show: { ...show, '@tool': [true] } },
	};
}
