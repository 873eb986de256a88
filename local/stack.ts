import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { buildWordVectorCache } from '../functions/adapters/embeddings/word-vector-embedder.ts';
import { CONSUMERS } from '../functions/shared/consumers.ts';
import { EXPIRE_JOBS_SCHEDULE } from '../functions/shared/event-rules.ts';
import type { FunctionEnvironment } from '../functions/shared/function-environment.ts';
import { RESOURCES, type ResourceDefinition, resourcesOfKind } from '../functions/shared/resources.ts';
import { startApiServer } from './api-server.ts';
import { enableCompileCache } from './compile-cache.ts';
import { ensureTable, startDynamo } from './emulators/dynamodb.ts';
import { startS3 } from './emulators/s3.ts';
import { startSqs } from './emulators/sqs.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './emulators/util.ts';
import { type LocalResources, localEnvironment, synthesizeFunctions } from './function-environments.ts';
import { enforceGrants, localResourceNames } from './grants.ts';
import { invokeHandler, useFunctionEnvironments } from './lambda.ts';
import { LocalSqsPoller, localSqsClient } from './sqs-poller.ts';
import { LocalStepFunctions, localStateMachineArn } from './step-functions.ts';

export interface LocalStackOptions {
  /** Where DynamoDB Local and the S3 emulator keep their data (kept across restarts). */
  dataDir: string;
  /** false: DynamoDB in memory (tests). */
  persistDynamo: boolean;
  apiPort: number;
  /** Replace state machine tasks (keyed by ASL placeholder), e.g. to make a step fail in a test. */
  taskOverrides?: Record<string, (input: unknown) => Promise<unknown>>;
  extraEnv?: Record<string, string>;
}

export interface LocalStack {
  apiUrl: string;
  env: Record<string, string>;
  /** Each function's environment, by handler module: its template's variables, pointed at the local resources. */
  functionEnvironments: Record<string, FunctionEnvironment>;
  stepFunctions: LocalStepFunctions;
  stop(): Promise<void>;
}

/** Local physical names of the resources of `resources.ts`. */
export function localName(definition: ResourceDefinition): string {
  switch (definition.kind) {
    case 'table':
      return 'project-source-local';
    case 'bucket':
      return `local-${definition.name}`;
    case 'queue':
      return definition.name;
    case 'stateMachine':
      return localStateMachineArn(definition.name);
    case 'secret':
      return `local/${definition.name}`;
    case 'model':
      return definition.modelId;
  }
}

const LOCAL_TABLE = localName(RESOURCES.table);

/**
 * Starts the emulators, points the SDK at them through the standard `AWS_ENDPOINT_URL_*` variables
 * and serves the real handlers over HTTP. Call before any handler module is imported.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  // The handlers that run in this thread (most of them) are imported on first use, after this.
  enableCompileCache();
  // The local embedder's word vectors, converted once per install before any worker needs them.
  buildWordVectorCache();
  const emulators = Promise.all([
    startDynamo({ dataDir: options.persistDynamo ? join(options.dataDir, 'dynamodb') : undefined }),
    startS3({
      dataDir: join(options.dataDir, 's3'),
      buckets: resourcesOfKind('bucket').map(([, definition]) => localName(definition)),
    }),
    startSqs({ queues: resourcesOfKind('queue').map(([, definition]) => localName(definition)) }),
  ]);
  // Each function's environment and grants, from the synthesized template (while the emulators start).
  const functions = synthesizeFunctions();
  const [dynamo, s3, sqs] = await emulators;
  await ensureTable(dynamo.endpoint, LOCAL_TABLE);

  // Every resource's variable, as `bind` sets it on AWS (the signing key itself stands in for its secret).
  const resourceEnv: Record<string, string> = {};
  for (const definition of Object.values(RESOURCES) as ResourceDefinition[]) {
    const name = localName(definition);
    resourceEnv[definition.env] = definition.kind === 'queue' ? (sqs.queueUrls[name] ?? '') : name;
  }

  const runtime: Record<string, string> = {
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    POWERTOOLS_SERVICE_NAME: 'project-source-api',
    // Local receivers listen on localhost; on AWS private targets are refused.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    LANCEDB_LOG: 'error',
    // Bedrock does not run here: passages and queries are embedded by GloVe word vectors on the CPU,
    // questions answered by quoting the sources (each still needs its function bound to the model it
    // stands in for), and each project's index (an s3:// location on AWS) is a folder of the local data directory.
    EMBEDDER: 'local',
    ANSWERER: 'extractive',
    LOCAL_INDEX_ROOT: join(options.dataDir, 'index'),
  };
  // What stands in locally for a service AWS provides, given only to the functions bound to it.
  const standIns = {
    // A fresh key per start: cursors are short-lived, and no secret is written to disk.
    signingKey: { SIGNING_KEY: randomBytes(32).toString('base64url') },
    // The value the local server adds to each route's request, as CloudFront does (lib/edge.ts).
    originVerify: { ORIGIN_VERIFY: randomBytes(32).toString('base64url') },
  } satisfies LocalResources['standIns'];
  // Settings (thresholds, intervals) for every function; a resource or its stand-in is never one.
  for (const [name, value] of Object.entries(options.extraEnv ?? {})) {
    if (name in resourceEnv || name in standIns.signingKey || name in standIns.originVerify)
      throw new Error(`${name} names a resource: it is not a setting`);
    runtime[name] = value;
  }

  // The whole environment, for the code of this process that is no function (tests, seeding, tools).
  // Not the origin secret: this process's own code (tests, tools) calls handlers as the distribution's
  // origin is never called; the routes run with their template's environment, which holds it.
  const { [RESOURCES.originVerify.env]: _originSecret, ...processResources } = resourceEnv;
  const { originVerify: _originStandIn, ...processStandIns } = standIns;
  const env: Record<string, string> = {
    ...runtime,
    ...processResources,
    ...Object.assign({}, ...Object.values(processStandIns)),
  };
  Object.assign(process.env, env);

  const stepFunctions = new LocalStepFunctions(options.taskOverrides);
  runtime.AWS_ENDPOINT_URL_SFN = await stepFunctions.listen();
  env.AWS_ENDPOINT_URL_SFN = runtime.AWS_ENDPOINT_URL_SFN;
  process.env.AWS_ENDPOINT_URL_SFN = env.AWS_ENDPOINT_URL_SFN;
  // Each function runs with exactly the environment its template gives it (lambda.ts `asFunction`).
  const functionEnvironments = Object.fromEntries(
    functions.map((fn) => [fn.handler, localEnvironment(fn, { values: resourceEnv, standIns, runtime })]),
  );
  useFunctionEnvironments(functionEnvironments, localResourceNames(localName));
  // ... and with exactly the grants of its role: every SDK call is checked against them.
  const clients = await import('../functions/shared/clients.ts');
  const resources = localResourceNames(localName);
  enforceGrants([clients.dynamo, clients.s3, clients.sqs, clients.sfn], (target) => resources[target]);

  await resumeInterruptedWork(dynamo.endpoint, stepFunctions);
  const pollers = CONSUMERS.map(
    (consumer) =>
      new LocalSqsPoller(
        localSqsClient(),
        resourceEnv[RESOURCES[consumer.queue].env] ?? '',
        `arn:aws:sqs:${LOCAL_REGION}:000000000000:${localName(RESOURCES[consumer.queue])}`,
        consumer.handler,
        consumer.batchSize,
      ),
  );
  const api: { server: Server; url: string } = await startApiServer(
    options.apiPort,
    standIns.originVerify.ORIGIN_VERIFY,
  );
  // The schedules of the stack (EventBridge on AWS): the same handler on the same period.
  const sweep = setInterval(
    () =>
      void invokeHandler(EXPIRE_JOBS_SCHEDULE.handler, {}, EXPIRE_JOBS_SCHEDULE.timeoutSeconds * 1000).catch(
        (error: Error) => console.error(`The job expiry sweep failed: ${error.message}`),
      ),
    EXPIRE_JOBS_SCHEDULE.everyMinutes * 60_000,
  );
  sweep.unref();

  return {
    apiUrl: api.url,
    env,
    functionEnvironments,
    stepFunctions,
    stop: async () => {
      clearInterval(sweep);
      // Open connections (keep-alive, a followed stream) must not hold the stop up: close them first.
      const closed = new Promise<void>((resolve) => api.server.close(() => resolve()));
      api.server.closeAllConnections();
      await closed;
      await Promise.all(pollers.map((poller) => poller.stop()));
      await stepFunctions.drain();
      await stepFunctions.close();
      await Promise.all([dynamo.stop(), s3.stop(), sqs.stop()]);
    },
  };
}

/**
 * Executions live in memory locally: what a stop interrupted starts again at the next start —
 * projects still provisioning, jobs still preflighting or processing, review executions queued or running (every pipeline step is
 * idempotent, so a rerun finishes the work without duplicating rows or charges).
 */
async function resumeInterruptedWork(endpoint: string, stepFunctions: LocalStepFunctions): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  let startKey: Record<string, never> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: LOCAL_TABLE,
        FilterExpression:
          '(entity = :project AND #status = :provisioning) OR (entity = :job AND #status IN (:preflighting, :processing)) OR (entity = :execution AND #status IN (:queued, :running))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':project': { S: 'project' },
          ':provisioning': { S: 'provisioning' },
          ':job': { S: 'job' },
          ':preflighting': { S: 'preflighting' },
          ':processing': { S: 'processing' },
          ':execution': { S: 'reviewExecution' },
          ':queued': { S: 'queued' },
          ':running': { S: 'running' },
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const raw of page.Items ?? []) {
      const item = unmarshall(raw);
      if (item.entity === 'project') {
        stepFunctions.startExecution(
          localName(RESOURCES.provisionStateMachine),
          String(item.id),
          JSON.stringify({ orgId: item.orgId, projectId: item.id }),
        );
      } else if (item.entity === 'reviewExecution') {
        stepFunctions.startExecution(
          localName(RESOURCES.reviewExecutionStateMachine),
          String(item.id),
          JSON.stringify({ orgId: item.orgId, executionId: item.id }),
        );
      } else if (item.kind === 'region_normalization' || item.kind === 'index_reconciliation') {
        const files = await client.send(
          new QueryCommand({
            TableName: LOCAL_TABLE,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: `JOB#${item.id}` } },
            ProjectionExpression: 'id',
          }),
        );
        stepFunctions.startExecution(
          localName(
            item.kind === 'region_normalization'
              ? RESOURCES.normalizeRegionsStateMachine
              : RESOURCES.reconcileIndexStateMachine,
          ),
          String(item.id),
          JSON.stringify({
            orgId: item.orgId,
            jobId: item.id,
            fileIds: (files.Items ?? []).map((file) => unmarshall(file).id),
          }),
        );
      } else {
        stepFunctions.startExecution(
          localName(RESOURCES.processJobStateMachine),
          String(item.id),
          JSON.stringify({ orgId: item.orgId, jobId: item.id }),
        );
      }
    }
    startKey = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (startKey);
  client.destroy();
}
