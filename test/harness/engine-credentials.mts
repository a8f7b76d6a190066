// The credentials helper the engine tests give n8n's engine (engine.mts): stored credentials by id,
// and a credential type's generic `authenticate` block applied to a request, as n8n's CLI does.
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

export class CredentialsHelper extends ICredentialsHelper {
	private readonly types: Record<string, ICredentialType>;
	private readonly store: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		types: Record<string, ICredentialType>,
		store: Map<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.types = types;
		this.store = store;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: unknown) =>
			String(
				workflow.expression.getSimpleParameterValue(node, value as string, 'internal', {
					$credentials: credentials,
				}),
			);
		const options = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [target, values] of Object.entries(authenticate.properties as IDataObject)) {
			options[target] ??= {};
			for (const [key, value] of Object.entries(values as IDataObject))
				options[target][resolve(key)] = resolve(value);
		}
		return requestOptions;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		{ id }: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(id ?? '');
		if (!data) throw new Error(`No credential with id ${id}`);
		return { ...data };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}

	getParentTypes = (): string[] => [];
	isCredentialUsableByNode = () => true;
	preAuthentication = async () => undefined;
	runPreAuthentication = async () => undefined;
	getCredentials = async (): Promise<ICredentials> => {
		throw new Error('not used by the engine');
	};
	updateCredentials = async () => {};
	updateCredentialsOauthTokenData = async () => {};
}
