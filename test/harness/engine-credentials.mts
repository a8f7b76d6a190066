// The credentials helper the engine tests give n8n's engine
// (test/harness/engine.mts): stored credentials by id, and the generic
// `authenticate` block of a credential type applied to a request, as n8n's
// CLI does. Nothing else of n8n's credential storage is supplied.
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

/** Stored credentials by id, and the generic `authenticate` block applied as n8n's CLI does. */
export class CredentialsHelper extends ICredentialsHelper {
	private readonly types: Record<string, ICredentialType>;
	readonly store: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		types: Record<string, ICredentialType>,
		store: Map<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.types = types;
		this.store = store;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		const authenticate = type?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: unknown) =>
			workflow.expression.getSimpleParameterValue(
				node,
				value as string,
				'internal',
				{ $credentials: credentials },
				undefined,
				value as string,
			);
		for (const [target, values] of Object.entries(authenticate.properties) as Array<
			[string, IDataObject]
		>) {
			const options = requestOptions as unknown as Record<string, IDataObject>;
			options[target] ??= {};
			for (const [key, value] of Object.entries(values)) {
				options[target][String(resolve(key))] = resolve(value) as string;
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the engine');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credential with id ${nodeCredentials.id}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}
