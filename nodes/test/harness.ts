/**
 * Runs the BUILT node (dist/, what n8n loads) inside n8n-core's real WorkflowExecute, with a real node
 * execution context: n8n's HTTP helpers (httpRequestWithAuthentication), binary data handling, paired
 * items, continueOnFail and execution cancellation are n8n's own code, not stand-ins.
 *
 * What stands in for the n8n server around the engine (it has no database here): a credentials helper
 * holding one decrypted credential, which applies the credential's generic `authenticate` block the way
 * n8n's does (expressions like `=Bearer {{$credentials.apiKey}}` resolved against the credential).
 *
 * Everything is loaded with `require` so that the node, n8n-core and n8n-workflow share one copy of
 * n8n-workflow (its error classes are compared with instanceof).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as N8nWorkflow from 'n8n-workflow';
import type * as N8nCore from 'n8n-core';

const require = createRequire(import.meta.url);
export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const workflowLib = require('n8n-workflow') as typeof N8nWorkflow;
const core = require('n8n-core') as typeof N8nCore;
const { Workflow, ICredentialsHelper, NodeHelpers } = workflowLib;

type INodeType = N8nWorkflow.INodeType;
type IVersionedNodeType = N8nWorkflow.IVersionedNodeType;
type ICredentialType = N8nWorkflow.ICredentialType;
type ICredentialDataDecryptedObject = N8nWorkflow.ICredentialDataDecryptedObject;
type IHttpRequestOptions = N8nWorkflow.IHttpRequestOptions;
type INode = N8nWorkflow.INode;
type INodeExecutionData = N8nWorkflow.INodeExecutionData;
type IRun = N8nWorkflow.IRun;
type IRunExecutionData = N8nWorkflow.IRunExecutionData;
type IWorkflowExecuteAdditionalData = N8nWorkflow.IWorkflowExecuteAdditionalData;
type INodeParameters = N8nWorkflow.INodeParameters;

export const NODE_TYPE = 'n8n-nodes-mediagen.mediaGen';
export const CREDENTIAL_TYPE = 'mediaGenApi';

let built = false;
/** Builds dist/ once per test process (esbuild, about a second). */
export function buildOnce(): void {
  if (built) return;
  execFileSync(process.execPath, [join(packageRoot, 'build.mjs')], { cwd: packageRoot, stdio: 'inherit' });
  built = true;
}

export function loadBuilt(): { nodeType: IVersionedNodeType; credentialType: ICredentialType } {
  buildOnce();
  const { MediaGen } = require(join(packageRoot, 'dist/nodes/MediaGen/MediaGen.node.js')) as {
    MediaGen: new () => IVersionedNodeType;
  };
  const { MediaGenApi } = require(join(packageRoot, 'dist/credentials/MediaGenApi.credentials.js')) as {
    MediaGenApi: new () => ICredentialType;
  };
  return { nodeType: new MediaGen(), credentialType: new MediaGenApi() };
}

/** `=Bearer {{$credentials.apiKey}}` -> `Bearer <key>`. */
function resolveCredentialExpression(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
  if (typeof value !== 'string' || !value.startsWith('=')) return value;
  return value
    .slice(1)
    .replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_m, key: string) => String(credentials[key] ?? ''));
}

class TestCredentialsHelper extends ICredentialsHelper {
  constructor(
    private readonly credentialType: ICredentialType,
    private readonly data: ICredentialDataDecryptedObject,
  ) {
    super();
  }
  getParentTypes(): string[] {
    return [];
  }
  isCredentialUsableByNode(): boolean {
    return true;
  }
  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    _typeName: string,
    requestOptions: IHttpRequestOptions,
  ): Promise<IHttpRequestOptions> {
    const auth = this.credentialType.authenticate;
    if (!auth || typeof auth === 'function' || auth.type !== 'generic') return requestOptions;
    const headers = { ...(requestOptions.headers ?? {}) } as Record<string, unknown>;
    for (const [name, value] of Object.entries(auth.properties.headers ?? {})) {
      headers[name] = resolveCredentialExpression(value, credentials);
    }
    return { ...requestOptions, headers: headers as IHttpRequestOptions['headers'] };
  }
  async preAuthentication(): Promise<undefined> {
    return undefined;
  }
  async runPreAuthentication(): Promise<undefined> {
    return undefined;
  }
  async getCredentials(): Promise<never> {
    throw new Error('not used by these tests');
  }
  async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
    return this.data;
  }
  async updateCredentials(): Promise<void> {}
  async updateCredentialsOauthTokenData(): Promise<void> {}
  getCredentialsProperties() {
    return this.credentialType.properties;
  }
}

export interface RunOptions {
  parameters: INodeParameters;
  credentials: { apiKey: string; baseUrl: string };
  /** Input items; default one empty item. */
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
  /** n8n's "On Error" setting; overrides continueOnFail ("continueErrorOutput" adds an Error output). */
  onError?: INode['onError'];
  /** Cancel the execution this many ms after it starts. */
  cancelAfterMs?: number;
}

export interface RunResult {
  run: IRun;
  /** The node's outputs (one array per output), or undefined when it failed. */
  outputs?: INodeExecutionData[][];
  /** The node's error, when it failed. */
  error?: N8nWorkflow.ExecutionBaseError;
  cancelled: boolean;
}

/** Executes a one-node workflow (the MediaGen node fed `items`) in n8n-core's WorkflowExecute. */
/** The MediaGen node as a one-node test workflow holds it, with the test credential. */
function mediagenNode(
  id: string,
  type: string,
  parameters: INode['parameters'],
  extra: Partial<INode> = {},
): INode {
  return {
    id,
    name: 'MediaGen',
    type,
    typeVersion: 1,
    position: [0, 0],
    parameters,
    credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'MediaGen account' } },
    ...extra,
  };
}

export async function runNode(options: RunOptions): Promise<RunResult> {
  const { nodeType, credentialType } = loadBuilt();
  const nodeTypes: N8nWorkflow.INodeTypes = {
    getByName: () => nodeType,
    getByNameAndVersion: (_type: string, version?: number) =>
      NodeHelpers.getVersionedNodeType(nodeType, version) as INodeType,
    getKnownTypes: () => ({}),
  };
  const node = mediagenNode(
    'mediagen-1',
    NODE_TYPE,
    options.parameters,
    options.onError
      ? { onError: options.onError }
      : options.continueOnFail
        ? { onError: 'continueRegularOutput' }
        : {},
  );
  const workflowData = {
    id: 'test',
    name: 'test',
    active: false,
    nodes: [node],
    connections: {},
    settings: {},
    createdAt: new Date(),
    updatedAt: new Date(),
  } as unknown as N8nWorkflow.IWorkflowBase;
  const workflow = new Workflow({
    id: 'test',
    nodes: [node],
    connections: {},
    nodeTypes,
    active: false,
    settings: {},
  });

  const hooks = new core.ExecutionLifecycleHooks('manual', 'exec-1', workflowData);
  let finished: (run: IRun) => void = () => {};
  const done = new Promise<IRun>((resolve) => (finished = resolve));
  hooks.addHandler('workflowExecuteAfter', (fullRunData: IRun) => finished(fullRunData));

  const additionalData = {
    hooks,
    credentialsHelper: new TestCredentialsHelper(credentialType, options.credentials),
    executionId: 'exec-1',
    restApiUrl: 'http://localhost:5678/rest',
    instanceBaseUrl: 'http://localhost:5678/',
    formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
    webhookBaseUrl: 'http://localhost:5678/webhook',
    webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
    currentNodeParameters: undefined,
    executionTimeoutTimestamp: undefined,
    userId: 'user-1',
    variables: {},
    setExecutionStatus: () => {},
    logAiEvent: () => {},
    sendDataToUI: () => {},
    startRunnerTask: async () => {
      throw new Error('no task runner in tests');
    },
    executeWorkflow: async () => {
      throw new Error('no sub-workflows in tests');
    },
    getRunExecutionData: async () => undefined,
  } as unknown as IWorkflowExecuteAdditionalData;

  const runExecutionData: IRunExecutionData = {
    startData: {},
    resultData: { runData: {} },
    executionData: {
      contextData: {},
      metadata: {},
      nodeExecutionStack: [{ node, data: { main: [options.items ?? [{ json: {} }]] }, source: null }],
      waitingExecution: {},
      waitingExecutionSource: {},
    },
  } as unknown as IRunExecutionData;

  const execution = new core.WorkflowExecute(additionalData, 'manual', runExecutionData);
  const running = execution.processRunExecutionData(workflow);
  let cancelled = false;
  if (options.cancelAfterMs !== undefined) {
    const cancelAfter = options.cancelAfterMs;
    void new Promise((r) => setTimeout(r, cancelAfter)).then(() => {
      cancelled = true;
      running.cancel();
    });
  }
  let run: IRun;
  try {
    run = await running;
  } catch (error) {
    if (!cancelled) throw error;
    run = await done;
  }
  const task = run.data.resultData.runData['MediaGen']?.[0];
  return {
    run,
    ...(task?.data?.main ? { outputs: task.data.main as INodeExecutionData[][] } : {}),
    ...(task?.error ? { error: task.error } : {}),
    cancelled,
  };
}

/** Executes the node as an AI Agent tool would: a SupplyDataContext on the ai_tool connection. */
export async function runAsTool(options: RunOptions): Promise<INodeExecutionData[][]> {
  const { nodeType, credentialType } = loadBuilt();
  const v1 = NodeHelpers.getVersionedNodeType(nodeType, 1) as INodeType;
  const node = mediagenNode('mediagen-tool', `${NODE_TYPE}Tool`, options.parameters);
  const nodeTypes: N8nWorkflow.INodeTypes = {
    getByName: () => v1,
    getByNameAndVersion: () => v1,
    getKnownTypes: () => ({}),
  };
  const workflow = new Workflow({ id: 'tool', nodes: [node], connections: {}, nodeTypes, active: false });
  const additionalData = {
    credentialsHelper: new TestCredentialsHelper(credentialType, options.credentials),
    executionId: 'exec-tool',
    restApiUrl: 'http://localhost:5678/rest',
    instanceBaseUrl: 'http://localhost:5678/',
    webhookBaseUrl: 'http://localhost:5678/webhook',
    webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
    formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
    variables: {},
  } as unknown as IWorkflowExecuteAdditionalData;
  const items = options.items ?? [{ json: {} }];
  const runExecutionData = { resultData: { runData: {} } } as unknown as IRunExecutionData;
  const context = new core.SupplyDataContext(
    workflow,
    node,
    additionalData,
    'manual',
    runExecutionData,
    0,
    items,
    // n8n hands a tool node its input on the ai_tool connection.
    { [workflowLib.NodeConnectionTypes.AiTool]: [items] },
    workflowLib.NodeConnectionTypes.AiTool,
    { node, data: { main: [items] }, source: null },
    [],
    new AbortController().signal,
  );
  return (await v1.execute!.call(
    context as unknown as N8nWorkflow.IExecuteFunctions,
  )) as INodeExecutionData[][];
}

/** The bytes of a binary property, whether n8n kept them inline or in its binary data store. */
export async function binaryBytes(data: N8nWorkflow.IBinaryData): Promise<Buffer> {
  const { Container } = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] })) as {
    Container: { get<T>(c: new (...a: never[]) => T): T };
  };
  const service = Container.get(core.BinaryDataService as unknown as new () => N8nCore.BinaryDataService);
  return service.getAsBuffer(data);
}

/** Calls one of the node's listSearch / loadOptions methods in n8n-core's LoadOptionsContext, as the editor does. */
export async function loadOptions<T>(options: {
  kind: 'listSearch' | 'loadOptions';
  method: string;
  /** The node's current parameter values (what the editor sends). */
  parameters: INodeParameters;
  credentials: { apiKey: string; baseUrl: string };
  path: string;
  filter?: string;
}): Promise<T> {
  const { nodeType, credentialType } = loadBuilt();
  const v1 = NodeHelpers.getVersionedNodeType(nodeType, 1) as INodeType;
  const node = mediagenNode('mediagen-editor', NODE_TYPE, options.parameters);
  const nodeTypes: N8nWorkflow.INodeTypes = {
    getByName: () => nodeType,
    getByNameAndVersion: () => v1,
    getKnownTypes: () => ({}),
  };
  const workflow = new Workflow({ id: 'editor', nodes: [node], connections: {}, nodeTypes, active: false });
  const additionalData = {
    credentialsHelper: new TestCredentialsHelper(credentialType, options.credentials),
    currentNodeParameters: options.parameters,
    restApiUrl: 'http://localhost:5678/rest',
    instanceBaseUrl: 'http://localhost:5678/',
    webhookBaseUrl: 'http://localhost:5678/webhook',
    webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
    formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
    variables: {},
  } as unknown as IWorkflowExecuteAdditionalData;
  const context = new core.LoadOptionsContext(workflow, node, additionalData, options.path);
  const methods = v1.methods as Record<
    string,
    Record<string, (this: unknown, filter?: string) => Promise<T>>
  >;
  return methods[options.kind]![options.method]!.call(context, options.filter);
}
