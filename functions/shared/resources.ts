import { WORK_PREFIX } from '../core/storage-keys.ts';

/**
 * THE list of the service's AWS resources: what kind each is, the environment variable that names it
 * to a function, and (for the kinds that need them) a few build options. Everything else reads this
 * list: the route and task tables declare access by resource name, config parsing accepts exactly
 * these variables, `ServiceFunction.bind` sets the variable and grants the mode, the stateful stack
 * creates the buckets and queues, the stateless stack imports them, the local stack starts and names
 * them, and the infra tests check each against the template. Adding a bucket or a queue is one entry
 * here; a state machine is one entry here plus its task list in `state-machines.ts`, which the
 * compiler demands.
 */

/** The access modes a function can hold on each kind of resource; `bind` turns them into IAM actions. */
export interface AccessModes {
  table: 'read' | 'readwrite';
  /** `manage` = `readwrite` and deleting objects (an index writer that compacts its files). */
  bucket: 'read' | 'readwrite' | 'manage';
  queue: 'send' | 'consume';
  stateMachine: 'start';
  secret: 'read';
  /**
   * `invoke`: InvokeModel; `stream`: InvokeModelWithResponseStream (ConverseStream) as well; `rerank`:
   * the Rerank API (`bedrock:Rerank`, which names no resource) and InvokeModel on the reranker.
   */
  model: 'invoke' | 'stream' | 'rerank';
}
export type ResourceKind = keyof AccessModes;

interface ResourceDefinitionBase {
  kind: ResourceKind;
  /** Environment variable that carries the resource's name, URL or ARN to the functions bound to it. */
  env: string;
  /** Short name, the varying part of the physical name (`psa-{stage}-{name}-{account}-{region}`). */
  name: string;
  description: string;
}

export interface TableDefinition extends ResourceDefinitionBase {
  kind: 'table';
}
export interface BucketDefinition extends ResourceDefinitionBase {
  kind: 'bucket';
  /** Browsers PUT to signed URLs of this bucket and read each part's ETag (CORS). */
  browserUploads?: boolean;
  /** Objects under this prefix are scratch: they expire after this many days. */
  scratch?: { prefix: string; days: number };
}
export interface QueueDefinition extends ResourceDefinitionBase {
  kind: 'queue';
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
}
export interface StateMachineDefinition extends ResourceDefinitionBase {
  kind: 'stateMachine';
  /** ASL file, read by CDK and the local runner alike. */
  file: string;
}
export interface SecretDefinition extends ResourceDefinitionBase {
  kind: 'secret';
}
/** A Bedrock foundation model: its id is the variable's value; `invoke` grants exactly its ARN. */
export interface ModelDefinition extends ResourceDefinitionBase {
  kind: 'model';
  modelId: string;
  /**
   * Served through the cross-Region inference profile of the deployment's geography (`us.`, `eu.`,
   * `apac.` + the model id): the model is not served in-Region everywhere. The variable then carries
   * the profile id, and the grant covers the profile and the model in the Regions it routes to.
   */
  crossRegion?: boolean;
}
export type ResourceDefinition =
  | ModelDefinition
  | TableDefinition
  | BucketDefinition
  | QueueDefinition
  | StateMachineDefinition
  | SecretDefinition;

export const RESOURCES = {
  table: {
    kind: 'table',
    env: 'TABLE_NAME',
    name: 'table',
    description: 'The one DynamoDB table (key design: functions/adapters/dynamodb/table.ts)',
  },
  signingKey: {
    kind: 'secret',
    env: 'SIGNING_SECRET_ID',
    name: 'cursor-signing-key',
    description: 'HMAC key that signs cursors, upload tokens and artifact paths',
  },
  originVerify: {
    kind: 'secret',
    env: 'ORIGIN_VERIFY_SECRET_ID',
    name: 'origin-verify',
    description:
      'The value CloudFront sends as X-Origin-Verify to the HTTP API, which refuses a request without it: the execute-api endpoint would otherwise bypass the web ACL',
  },
  uploadsBucket: {
    kind: 'bucket',
    env: 'UPLOADS_BUCKET',
    name: 'uploads',
    description: 'Uploaded source files, written by clients through signed URLs',
    browserUploads: true,
  },
  artifactsBucket: {
    kind: 'bucket',
    env: 'ARTIFACTS_BUCKET',
    name: 'artifacts',
    description: 'Region crops, section PDFs, job results and intermediate page batches',
    // Page batches are read by the job that wrote them (executions time out after 2 hours).
    scratch: { prefix: WORK_PREFIX, days: 7 },
  },
  indexBucket: {
    kind: 'bucket',
    env: 'INDEX_BUCKET',
    name: 'index',
    description: "Each project's source index",
  },
  embeddingModel: {
    kind: 'model',
    env: 'EMBEDDING_MODEL_ID',
    name: 'embedding-model',
    description: 'Bedrock model that embeds passages and queries (Titan Text Embeddings V2)',
    modelId: 'amazon.titan-embed-text-v2:0',
  },
  rerankModel: {
    kind: 'model',
    env: 'RERANK_MODEL_ID',
    name: 'rerank-model',
    description: 'Bedrock reranker of the source search, when SEARCH_RERANK is `bedrock` (Amazon Rerank 1.0)',
    modelId: 'amazon.rerank-v1:0',
  },
  answerModel: {
    kind: 'model',
    env: 'ANSWER_MODEL_ID',
    name: 'answer-model',
    description: 'Bedrock model that answers review questions with tool use (Converse streaming)',
    modelId: 'amazon.nova-pro-v1:0',
    crossRegion: true,
  },
  webhookQueue: {
    kind: 'queue',
    env: 'WEBHOOK_QUEUE_URL',
    name: 'webhooks',
    description: 'Webhook deliveries (with a dead-letter queue)',
    // Six times its consumer's timeout (AWS's advice for a Lambda event source; consumers.ts).
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: 8,
  },
  provisionStateMachine: {
    kind: 'stateMachine',
    env: 'PROVISION_STATE_MACHINE_ARN',
    name: 'provision-project',
    description: 'Provisions a new project',
    file: 'stepfunctions/provision-project.asl.json',
  },
  processJobStateMachine: {
    kind: 'stateMachine',
    env: 'PROCESS_JOB_STATE_MACHINE_ARN',
    name: 'process-job',
    description: "Processes a job's files: preflight, extraction, assembly, finalize",
    file: 'stepfunctions/process-job.asl.json',
  },
  reviewExecutionStateMachine: {
    kind: 'stateMachine',
    env: 'REVIEW_EXECUTION_STATE_MACHINE_ARN',
    name: 'review-execution',
    description: 'Answers one question of a review: plan, tools, answer, citations, completion',
    file: 'stepfunctions/review-execution.asl.json',
  },
  normalizeRegionsStateMachine: {
    kind: 'stateMachine',
    env: 'NORMALIZE_REGIONS_STATE_MACHINE_ARN',
    name: 'normalize-regions',
    description: "A repair job: normalizes the regions of a project's documents again",
    file: 'stepfunctions/normalize-regions.asl.json',
  },
  reconcileIndexStateMachine: {
    kind: 'stateMachine',
    env: 'RECONCILE_INDEX_STATE_MACHINE_ARN',
    name: 'reconcile-index',
    description: "A repair job: indexes a project's documents again and removes orphaned passages",
    file: 'stepfunctions/reconcile-index.asl.json',
  },
} as const satisfies Record<string, ResourceDefinition>;

export type ResourceName = keyof typeof RESOURCES;
export type KindOf<N extends ResourceName> = (typeof RESOURCES)[N]['kind'];
export type ResourceNameOfKind<K extends ResourceKind> = {
  [N in ResourceName]: KindOf<N> extends K ? N : never;
}[ResourceName];
export type ResourceEnvVariable = (typeof RESOURCES)[ResourceName]['env'];

/** What a function may touch, by resource name; the CDK grants exactly this and nothing more. */
export type Access = { [N in ResourceName]?: AccessModes[KindOf<N>] };

export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

export function resourcesOfKind<K extends ResourceKind>(
  kind: K,
): [ResourceNameOfKind<K>, Extract<ResourceDefinition, { kind: K }>][] {
  return Object.entries(RESOURCES).filter(([, definition]) => definition.kind === kind) as never;
}

/** The access entries of one function, typed by kind, for the code that turns them into grants. */
export function accessEntries(access: Access): [ResourceName, ResourceDefinition, string][] {
  return Object.entries(access)
    .filter(([, mode]) => mode !== undefined)
    .map(([name, mode]) => [name as ResourceName, RESOURCES[name as ResourceName], mode as string]);
}
