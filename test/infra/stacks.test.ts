import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_DESIGN } from '../../functions/adapters/dynamodb/table.ts';
import { JOB_UPLOAD_WINDOW_MS } from '../../functions/core/jobs/jobs.ts';
import { WORK_PREFIX } from '../../functions/core/storage-keys.ts';
import { CONSUMERS } from '../../functions/shared/consumers.ts';
import { ENDED_EXECUTIONS_TARGET, EXPIRE_JOBS_SCHEDULE } from '../../functions/shared/event-rules.ts';
import { RESOURCES, type ResourceName, resourcesOfKind } from '../../functions/shared/resources.ts';
import { SEARCH_MEMORY_MB } from '../../functions/shared/route-definition.ts';
import { ROUTES, type RouteDefinition, STREAM_ROUTE } from '../../functions/shared/routes.ts';
import { INDEX_FILE_TASK, STATE_MACHINES } from '../../functions/shared/state-machines.ts';
import { STREAM_PATH_PATTERN } from '../../lib/edge.ts';
import { NONCURRENT_VERSION_DAYS, StatefulStack } from '../../lib/stateful-stack.ts';
import { RESERVED_CONCURRENCY, StatelessStack } from '../../lib/stateless-stack.ts';

/** Synthesizes both stacks once, with real esbuild bundling and the cdk-nag AwsSolutions pack. */
/** The edge firewall stack's web ACL, as an operator passes it (`-c webAclArn`). */
const WEB_ACL_ARN = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/project-source-test-edge/0a1b2c3d';

describe('CDK stacks', () => {
  let stateful: Template;
  let stateless: Template;
  let statelessStack: StatelessStack;
  let statefulStack: StatefulStack;
  let outdir: string;

  beforeAll(() => {
    const app = new App();
    const stage = 'test';
    statefulStack = new StatefulStack(app, 'Stateful', { stage });
    statelessStack = new StatelessStack(app, 'Stateless', { stage, webAclArn: WEB_ACL_ARN });
    statelessStack.addStackDependency(statefulStack);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // Throws when cdk-nag reports an unacknowledged finding.
    outdir = app.synth().directory;
    stateful = Template.fromStack(statefulStack);
    stateless = Template.fromStack(statelessStack);
  });

  it('declares only the first indexes when told to (an existing table gains one index per deploy)', () => {
    // Prepare
    const app = new App();
    // Act
    const stack = new StatefulStack(app, 'StatefulUpgrade', { stage: 'upgrade', tableIndexes: 2 });
    // Assess
    const [table] = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::GlobalTable'));
    expect(
      ((table?.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[]).map(
        (index) => index.IndexName,
      ),
    ).toEqual(
      Object.values(TABLE_DESIGN.indexes)
        .slice(0, 2)
        .map((index) => index.name),
    );
  });

  /** The service's own functions, without the providers CDK adds for custom resources (the viewer's upload). */
  const serviceFunctions = () =>
    Object.fromEntries(
      Object.entries(stateless.findResources('AWS::Lambda::Function')).filter(
        ([logicalId]) => !logicalId.startsWith('CustomCDK'),
      ),
    );

  it('has one table with point-in-time recovery, encryption and the designed GSIs', () => {
    stateful.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: Object.values(TABLE_DESIGN.indexes).map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
        }),
      ),
      SSESpecification: { SSEEnabled: true },
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAtEpoch', Enabled: true },
    });
  });

  it('projects into each index only what its queries read: region rows are not written whole three times', () => {
    // Act
    const [table] = Object.values(stateful.findResources('AWS::DynamoDB::GlobalTable'));
    const projections = Object.fromEntries(
      (
        (table?.Properties.GlobalSecondaryIndexes ?? []) as {
          IndexName: string;
          Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
        }[]
      ).map((index) => [index.IndexName, index.Projection]),
    );

    // Assess
    const regionFilters = [
      'classification',
      'drawingType',
      'fileId',
      'fileNameLower',
      'layoutType',
      'pageNumber',
      'regionType',
    ];
    expect(projections.gsi1).toEqual({ ProjectionType: 'ALL' });
    expect(projections.gsi2).toEqual({ ProjectionType: 'KEYS_ONLY' });
    for (const name of ['gsi3', 'gsi4']) {
      expect(projections[name]?.ProjectionType, name).toBe('INCLUDE');
      expect(projections[name]?.NonKeyAttributes?.sort(), name).toEqual(regionFilters);
    }
  });

  it('blocks public access, enforces TLS, aborts incomplete multipart uploads after the upload window and expires scratch objects', () => {
    const buckets = stateful.findResources('AWS::S3::Bucket');
    const names = resourcesOfKind('bucket').map(([, definition]) => `psa-test-${definition.name}-`);
    const data = Object.values(buckets).filter((bucket) =>
      names.some((name) => JSON.stringify(bucket.Properties.BucketName).includes(name)),
    );
    expect(data).toHaveLength(names.length);
    for (const bucket of data) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      // A job's uploads may take its 7-day window: a multipart upload is aborted only after it.
      expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: JOB_UPLOAD_WINDOW_MS / 86_400_000 + 1 },
          Status: 'Enabled',
        }),
      );
    }
    const artifacts = data.find((bucket) =>
      JSON.stringify(bucket.Properties.BucketName).includes('-artifacts-'),
    );
    expect(artifacts?.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: WORK_PREFIX, ExpirationInDays: 7, Status: 'Enabled' }),
    );
    const policies = Object.values(stateful.findResources('AWS::S3::BucketPolicy'));
    const tlsDenials = policies.filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('"aws:SecureTransport":"false"'),
    );
    expect(tlsDenials.length).toBeGreaterThanOrEqual(names.length);
  });

  it('versions the data buckets (noncurrent versions kept 30 days) and keeps the prod queues and signing secret with the stack gone', () => {
    // Prepare
    const prod = Template.fromStack(new StatefulStack(new App(), 'StatefulProd', { stage: 'prod' }));
    const dataBuckets = (template: Template, stage: string) =>
      Object.values(template.findResources('AWS::S3::Bucket')).filter((bucket) =>
        resourcesOfKind('bucket').some(([, definition]) =>
          JSON.stringify(bucket.Properties.BucketName).includes(`psa-${stage}-${definition.name}-`),
        ),
      );
    // Act
    const buckets = dataBuckets(stateful, 'test');
    const retained = (type: string) =>
      Object.values(prod.findResources(type)).map((resource) => resource.DeletionPolicy);
    // Assess
    expect(buckets).toHaveLength(resourcesOfKind('bucket').length);
    expect(buckets.map((bucket) => bucket.Properties.VersioningConfiguration)).toEqual(
      buckets.map(() => ({ Status: 'Enabled' })),
    );
    expect(buckets.map((bucket) => bucket.Properties.LifecycleConfiguration.Rules)).toEqual(
      buckets.map(() =>
        expect.arrayContaining([
          expect.objectContaining({
            NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
          }),
        ]),
      ),
    );
    expect(retained('AWS::SQS::Queue')).toEqual(resourcesOfKind('queue').flatMap(() => ['Retain', 'Retain']));
    expect(retained('AWS::SecretsManager::Secret')).toEqual(['Retain', 'Retain']);
  });

  it("lets S3 write the viewer bucket's access logs under viewer/ of the access-log bucket (the viewer lives in the other stack)", () => {
    const statements = Object.values(stateful.findResources('AWS::S3::BucketPolicy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[],
    );
    const viewerLogs = statements.filter((statement) =>
      JSON.stringify(statement.Resource).includes('/viewer/*'),
    );
    expect(viewerLogs).toEqual([
      expect.objectContaining({
        Action: 's3:PutObject',
        Principal: { Service: 'logging.s3.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    ]);
  });

  it('gives every queue of the resource list a dead-letter queue', () => {
    for (const [, definition] of resourcesOfKind('queue')) {
      stateful.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: `project-source-test-${definition.name}`,
        RedrivePolicy: Match.objectLike({ maxReceiveCount: definition.maxReceiveCount }),
        VisibilityTimeout: definition.visibilityTimeoutSeconds,
      });
    }
    // A message is not handed to a second consumer while the first may still run (AWS advises 6x).
    for (const consumer of CONSUMERS)
      expect(RESOURCES[consumer.queue].visibilityTimeoutSeconds).toBeGreaterThanOrEqual(
        6 * consumer.timeoutSeconds,
      );
  });

  it('builds one function and one HTTP route per entry of the route table, plus the $default fallback', () => {
    for (const route of ROUTES) {
      const integration = stateless.findResources('AWS::ApiGatewayV2::Route', {
        Properties: { RouteKey: `${route.method} ${route.path}` },
      });
      expect(Object.keys(integration), `${route.method} ${route.path}`).toHaveLength(1);
      expect(statelessStack.functions.get(route.id)).toBeDefined();
    }
    // HEAD on every GET route reaches the GET's function (which answers without the body), and only there.
    const keysOf = (method: string) =>
      Object.values(stateless.findResources('AWS::ApiGatewayV2::Route'))
        .map((route) => String(route.Properties.RouteKey))
        .filter((key) => key.startsWith(`${method} `))
        .map((key) => key.slice(method.length + 1))
        .sort();
    expect(keysOf('HEAD')).toEqual(keysOf('GET'));
    // The fallback is the `$default` route: `/` and every unknown path get the service's 404 envelope.
    stateless.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
    expect(
      Object.values(stateless.findResources('AWS::ApiGatewayV2::Route')).map(
        (route) => route.Properties.RouteKey,
      ),
    ).not.toContain('ANY /{proxy+}');
    const functions = serviceFunctions();
    // A task two machines share (finalize, fail) is one function.
    const taskCount = new Set(STATE_MACHINES.flatMap((machine) => Object.keys(machine.tasks))).size;
    // routes + fallback + stream + state machine tasks + queue consumers + recovery + expiry sweep
    expect(Object.keys(functions)).toHaveLength(ROUTES.length + 2 + taskCount + CONSUMERS.length + 2);
    stateless.resourceCountIs('AWS::Lambda::EventSourceMapping', CONSUMERS.length);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
    }
  });

  it('sweeps jobs whose upload window ended on a schedule', () => {
    const fn = statelessStack.functions.get(EXPIRE_JOBS_SCHEDULE.id);
    if (!fn) throw new Error('no expiry sweep function');
    const fnId = statelessStack.resolve(
      (fn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
    );
    stateless.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${EXPIRE_JOBS_SCHEDULE.everyMinutes} minutes)`,
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    stateful.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: Match.arrayWith([
        Match.objectLike({
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
        }),
      ]),
    });
  });

  it('alarms on failed and timed-out executions, dead letters, API 5xx and throttled engine or stream functions; traces every function', () => {
    const alarms = Object.values(stateless.findResources('AWS::CloudWatch::Alarm'));
    const metrics = alarms.map((alarm) => `${alarm.Properties.Namespace}/${alarm.Properties.MetricName}`);
    expect(metrics.filter((metric) => metric === 'AWS/States/ExecutionsFailed')).toHaveLength(
      STATE_MACHINES.length,
    );
    expect(metrics.filter((metric) => metric === 'AWS/States/ExecutionsTimedOut')).toHaveLength(
      STATE_MACHINES.length,
    );
    expect(metrics).toContain('AWS/SQS/ApproximateNumberOfMessagesVisible');
    expect(metrics).toContain('AWS/ApiGateway/5xx');
    expect(metrics.filter((metric) => metric === 'AWS/Lambda/Throttles')).toHaveLength(2);
    const deadLetters = Object.values(stateful.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.MetricName === 'ApproximateNumberOfMessagesVisible',
    );
    expect(deadLetters).toHaveLength(resourcesOfKind('queue').length);
    const functions = Object.values(serviceFunctions());
    expect(functions.length).toBe(statelessStack.functions.size);
    expect(new Set(functions.map((fn) => JSON.stringify(fn.Properties.TracingConfig)))).toEqual(
      new Set([JSON.stringify({ Mode: 'Active' })]),
    );
  });

  it('puts the API distribution, the review stream included, behind the edge firewall', () => {
    const [distribution] = Object.values(stateless.findResources('AWS::CloudFront::Distribution')).filter(
      (resource) => JSON.stringify(resource).includes('reviews/*/executions/*/stream'),
    );
    expect(distribution?.Properties.DistributionConfig.WebACLId).toBe(WEB_ACL_ARN);
  });

  it('closes the execute-api bypass of the web ACL: CloudFront sends the origin secret, every route reads it', () => {
    // Prepare
    const [distribution] = Object.values(stateless.findResources('AWS::CloudFront::Distribution')).filter(
      (resource) => JSON.stringify(resource).includes('reviews/*/executions/*/stream'),
    );
    const config = distribution?.Properties.DistributionConfig;
    const apiOrigin = config.Origins.find(
      (origin: { Id: string }) => origin.Id === config.DefaultCacheBehavior.TargetOriginId,
    );
    const secretName = 'project-source/test/origin-verify';
    const functions = Object.values(stateless.findResources('AWS::Lambda::Function'));
    const routeFunctions = ROUTES.map((route) => statelessStack.functions.get(route.id));

    // Act
    const headers = apiOrigin.OriginCustomHeaders as { HeaderName: string; HeaderValue: string }[];
    const bound = functions.filter(
      (fn) => fn.Properties.Environment?.Variables?.ORIGIN_VERIFY_SECRET_ID === secretName,
    );

    // Assess
    expect(headers).toEqual([
      {
        HeaderName: 'x-origin-verify',
        HeaderValue: `{{resolve:secretsmanager:${secretName}:SecretString:::}}`,
      },
    ]);
    expect(routeFunctions.every((fn) => fn !== undefined)).toBe(true);
    expect(bound).toHaveLength(ROUTES.length);
    expect(
      stateful.findResources('AWS::SecretsManager::Secret', { Properties: { Name: secretName } }),
    ).not.toEqual({});
  });

  it('acknowledges cdk-nag findings on the resources they concern, never on a whole stack', () => {
    const acknowledged = (scope: IConstruct) =>
      scope.node.metadata.filter((entry) => entry.type === 'aws:cdk:acknowledged-rules');
    // Acknowledgements do exist, resource by resource (a function's role, a machine, the distribution).
    const all = [statefulStack, statelessStack].flatMap((stack) =>
      stack.node.findAll().filter((scope) => acknowledged(scope).length > 0),
    );
    expect(all.length).toBeGreaterThan(10);
    expect(acknowledged(statefulStack)).toEqual([]);
    expect(acknowledged(statelessStack)).toEqual([]);
  });

  it('has one operations dashboard with every alarm, the API, the machines and every function', () => {
    const dashboards = Object.values(stateless.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    // The body is a Fn::Join of literal parts and tokens: the literal parts name the metrics.
    const body = JSON.stringify(dashboards[0]?.Properties.DashboardBody);
    for (const metric of ['ExecutionsStarted', 'ConcurrentExecutions', 'Errors', 'Throttles', 'Latency'])
      expect(body).toContain(metric);
    const alarmIds = Object.keys(stateless.findResources('AWS::CloudWatch::Alarm'));
    for (const alarmId of alarmIds) expect(body).toContain(alarmId);
    expect(body.split('"Errors\\"').length - 1).toBe(statelessStack.functions.size);
  });

  it('reserves concurrency for page extraction and the review stream, waits out extraction throttles and never retries a timed-out batch', () => {
    const reservationOf = (id: string) => {
      const fn = statelessStack.functions.get(id);
      if (!fn) throw new Error(`no function ${id}`);
      const logicalId = statelessStack.resolve(
        (fn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
      );
      return stateless.findResources('AWS::Lambda::Function')[logicalId]?.Properties
        .ReservedConcurrentExecutions;
    };
    expect(reservationOf('ExtractPageBatchFunctionArn')).toBe(RESERVED_CONCURRENCY.extraction);
    expect(reservationOf(STREAM_ROUTE.id)).toBe(RESERVED_CONCURRENCY.stream);
    expect(reservationOf('getProject')).toBeUndefined();
    const asl = JSON.parse(readFileSync('stepfunctions/process-job.asl.json', 'utf8'));
    const extract =
      asl.States.ProcessFiles.ItemProcessor.States.ExtractBatches.ItemProcessor.States.ExtractPageBatch;
    expect(extract.Retry[0]).toMatchObject({
      ErrorEquals: ['Lambda.TooManyRequestsException'],
      MaxAttempts: 130,
    });
    // A batch that ran out of time would run out again: it is not retried (its pages fail alone).
    expect(extract.Retry[1]).toEqual({ ErrorEquals: ['States.Timeout', 'Sandbox.Timedout'], MaxAttempts: 0 });
    const retried = extract.Retry.slice(2).flatMap(
      (retrier: { ErrorEquals: string[] }) => retrier.ErrorEquals,
    );
    expect(retried).not.toContain('Lambda.TooManyRequestsException');
    expect(retried).not.toContain('States.Timeout');
  });

  it('sizes the index writer and the search functions from bench:search-sizing, not from a local disk', () => {
    const propertiesOf = (id: string) => {
      const fn = statelessStack.functions.get(id);
      if (!fn) throw new Error(`no function ${id}`);
      const logicalId = statelessStack.resolve(
        (fn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
      );
      return stateless.findResources('AWS::Lambda::Function')[logicalId]?.Properties;
    };
    // IndexFile's /tmp holds LanceDB's vector-index build (Lambda's default is 512 MB).
    expect(propertiesOf('IndexFileFunctionArn')?.EphemeralStorage).toEqual({
      Size: INDEX_FILE_TASK.ephemeralStorageMb,
    });
    expect(INDEX_FILE_TASK.ephemeralStorageMb).toBeGreaterThan(512);
    for (const id of ['searchSources', 'searchProjects', 'readSource', 'reconcileSourceIndex'])
      expect(propertiesOf(id)?.MemorySize, id).toBe(SEARCH_MEMORY_MB);
    expect(SEARCH_MEMORY_MB).toBeGreaterThan(512);
  });

  it('runs each file of a job (its inspection, then its batches) as a child execution that may start only the job machine', () => {
    const asl = JSON.parse(readFileSync('stepfunctions/process-job.asl.json', 'utf8'));
    for (const map of ['InspectFiles', 'ProcessFiles'])
      expect(asl.States[map].ItemProcessor.ProcessorConfig, map).toEqual({
        Mode: 'DISTRIBUTED',
        ExecutionType: 'STANDARD',
      });
    // A batch that stopped before its function's limit is run again to resume it.
    const batch = asl.States.ProcessFiles.ItemProcessor.States.ExtractBatches.ItemProcessor.States;
    expect(batch.ExtractPageBatch.Next).toBe('BatchDone');
    expect(batch.BatchDone.Choices).toEqual([
      { Variable: '$.batch.done', BooleanEquals: false, Next: 'ExtractPageBatch' },
    ]);
    const statements = Object.values(stateless.findResources('AWS::IAM::Policy')).flatMap(
      (policy) =>
        policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    );
    const granting = (action: string) =>
      statements
        .filter((statement) => [statement.Action].flat().includes(action))
        .map((statement) => JSON.stringify(statement.Resource));
    expect(granting('states:StartExecution').filter((arn) => arn.includes(':stateMachine:'))).toEqual([
      expect.stringContaining(':stateMachine:project-source-test-process-job"'),
    ]);
    expect(granting('states:StopExecution')).toEqual([
      expect.stringContaining(':execution:project-source-test-process-job/*"'),
    ]);
  });

  it('writes one JSON access-log line per request with its route and any integration error', () => {
    const stages = Object.values(stateless.findResources('AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(1);
    const format = JSON.parse(stages[0]?.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      integrationError: '$context.integrationErrorMessage',
      // Behind CloudFront the source is the edge: named so; the viewer's address is in the route's log.
      edgeIp: '$context.identity.sourceIp',
    });
    expect(Object.keys(format)).not.toContain('ip');
  });

  it('serves the review stream from an IAM-only function URL in RESPONSE_STREAM mode, under the API base URL', () => {
    stateless.hasResourceProperties('AWS::Lambda::Url', {
      InvokeMode: 'RESPONSE_STREAM',
      AuthType: 'AWS_IAM',
    });
    expect(statelessStack.functions.get(STREAM_ROUTE.id)).toBeDefined();
    // One distribution: the HTTP API by default, the stream path to the function URL through origin
    // access control, with the function that keeps the bearer key; nothing cached.
    const distribution = Object.values(stateless.findResources('AWS::CloudFront::Distribution'))[0]
      ?.Properties.DistributionConfig;
    const stream = distribution.CacheBehaviors.find(
      (behavior: { PathPattern: string }) => behavior.PathPattern === STREAM_PATH_PATTERN,
    );
    // Beside the stream, only the viewer's static files (lib/viewer-hosting.ts).
    expect(
      distribution.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern).sort(),
    ).toEqual([STREAM_PATH_PATTERN, '/viewer', '/viewer/*'].sort());
    expect(stream.FunctionAssociations[0].EventType).toBe('viewer-request');
    const origin = distribution.Origins.find(
      (candidate: { Id: string }) => candidate.Id === stream.TargetOriginId,
    );
    expect(origin.OriginAccessControlId).toBeDefined();
    stateless.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 'lambda',
        SigningBehavior: 'always',
      }),
    });
    stateless.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      Principal: 'cloudfront.amazonaws.com',
    });
    // The stream path pattern covers exactly the stream route.
    const pattern = new RegExp(`^${STREAM_PATH_PATTERN.replaceAll('*', '.*')}$`);
    expect(pattern.test(STREAM_ROUTE.path)).toBe(true);
    expect(ROUTES.filter((route) => pattern.test(route.path))).toEqual([]);
  });

  it('loads each state machine from its ASL file with every placeholder substituted', () => {
    const machines = stateless.findResources('AWS::StepFunctions::StateMachine');
    expect(Object.keys(machines)).toHaveLength(STATE_MACHINES.length);
    const text = JSON.stringify(machines);
    for (const machine of STATE_MACHINES) {
      for (const placeholder of Object.keys(machine.tasks)) expect(text).toContain(placeholder);
    }
    for (const machine of Object.values(machines)) {
      expect(machine.Properties.DefinitionSubstitutions).toBeDefined();
      expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
      expect(machine.Properties.LoggingConfiguration).toMatchObject({
        Level: 'ERROR',
        IncludeExecutionData: false,
      });
    }
  });

  it('bounds every execution by the TimeoutSeconds of its definition, and every task inside it, Map children included', () => {
    // Prepare
    const machines = Object.values(stateless.findResources('AWS::StepFunctions::StateMachine'));
    const expected = {
      'project-source-test-provision-project': 300,
      'project-source-test-review-execution': 900,
      'project-source-test-process-job': 7200,
      'project-source-test-normalize-regions': 7200,
      'project-source-test-reconcile-index': 7200,
    };
    interface State {
      Type: string;
      TimeoutSeconds?: number;
      ItemProcessor?: { States: Record<string, State> };
    }
    const tasks = (states: Record<string, State>): State[] =>
      Object.values(states).flatMap((state) => [
        ...(state.Type === 'Task' ? [state] : []),
        ...(state.ItemProcessor ? tasks(state.ItemProcessor.States) : []),
      ]);
    // Act: the definitions as deployed (CDK's own `timeout` prop is dropped with a definition file)
    const definitions = machines.map((machine) => ({
      name: machine.Properties.StateMachineName as string,
      // A definition from a file deploys as an asset: the assembly holds it as `asset.<key>`.
      definition: JSON.parse(
        readFileSync(join(outdir, `asset.${machine.Properties.DefinitionS3Location.Key}`), 'utf8'),
      ) as {
        TimeoutSeconds?: number;
        States: Record<string, State>;
      },
    }));
    // Assess
    expect(
      Object.fromEntries(definitions.map(({ name, definition }) => [name, definition.TimeoutSeconds])),
    ).toEqual(expected);
    for (const { name, definition } of definitions) {
      const limits = tasks(definition.States).map((task) => task.TimeoutSeconds);
      expect(
        limits.filter((limit) => limit === undefined),
        name,
      ).toEqual([]);
      expect(Math.max(...(limits as number[])), name).toBeLessThan(definition.TimeoutSeconds as number);
    }
  });

  it("sends every machine's executions that end FAILED, TIMED_OUT or ABORTED to the recovery function, with retries and a dead-letter queue", () => {
    const machines = Object.keys(stateless.findResources('AWS::StepFunctions::StateMachine'));
    const fn = statelessStack.functions.get(ENDED_EXECUTIONS_TARGET.id);
    if (!fn) throw new Error('no recovery function');
    const fnId = statelessStack.resolve(
      (fn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
    );
    const dlqId = statelessStack.resolve(
      (statelessStack.endedExecutionsDlq.node.defaultChild as unknown as { logicalId: string }).logicalId,
    );
    stateless.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: machines.map((id) => ({ Ref: id })),
        },
      },
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } },
          RetryPolicy: { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 },
        }),
      ],
    });
  });

  describe('least privilege', () => {
    function policyOf(id: string): string {
      const fn = statelessStack.functions.get(id);
      if (!fn) throw new Error(`no function ${id}`);
      const role = fn.fn.role?.node.defaultChild;
      const roleId = statelessStack.resolve((role as unknown as { logicalId: string }).logicalId);
      const policies = stateless.findResources('AWS::IAM::Policy', {
        Properties: { Roles: [{ Ref: roleId }] },
      });
      return JSON.stringify(Object.values(policies).map((policy) => policy.Properties.PolicyDocument));
    }

    it('lets read routes read the table (and count requests) but never put or delete', () => {
      const policy = policyOf('getProject');
      expect(policy).toContain('dynamodb:GetItem');
      // UpdateItem only on the request's rate window and the key's last use.
      const statements = (
        JSON.parse(policy) as { Statement: { Action: string | string[]; Condition?: unknown }[] }[]
      ).flatMap((document) => document.Statement);
      const updates = statements.filter((statement) =>
        [statement.Action].flat().includes('dynamodb:UpdateItem'),
      );
      expect(updates).toHaveLength(1);
      expect(updates[0]?.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*', 'APIKEY#*'] },
      });
      expect(policy).not.toContain('dynamodb:PutItem');
      expect(policy).not.toContain('dynamodb:DeleteItem');
      expect(policy).not.toContain('s3:');
      expect(policy).not.toContain('states:');
      // Of the secrets, only the origin secret every route reads (no signing key for getProject).
      expect(policy.match(/secret:[^"]*/g)).toEqual(['secret:project-source/test/origin-verify-??????']);
    });

    it('lets a route start a state machine, or write to a bucket, only when its table entry says so', () => {
      const kindOf = (name: string) => RESOURCES[name as ResourceName].kind;
      for (const route of ROUTES as readonly RouteDefinition[]) {
        const policy = policyOf(route.id);
        const starts = Object.keys(route.access).some((name) => kindOf(name) === 'stateMachine');
        const writesObjects = Object.entries(route.access).some(
          ([name, mode]) => kindOf(name) === 'bucket' && (mode === 'readwrite' || mode === 'manage'),
        );
        expect(policy.includes('states:StartExecution'), route.id).toBe(starts);
        expect(policy.includes('s3:PutObject'), route.id).toBe(writesObjects);
      }
    });

    it('gives the index bucket to the functions that create, write and search indexes, and deletes only to the writer', () => {
      const holders = [...statelessStack.functions.keys()].filter((id) =>
        policyOf(id).includes('psa-test-index-'),
      );
      expect(holders.sort()).toEqual([
        'IndexFileFunctionArn',
        'PrepareReconcileFunctionArn',
        'RunReviewToolsFunctionArn',
        'SetUpProjectResourcesFunctionArn',
        'readSource',
        'reconcileSourceIndex',
        'searchProjects',
        'searchSources',
      ]);
      // LanceDB removes superseded files when it compacts: only the index writer may delete.
      const deleters = [...statelessStack.functions.keys()].filter((id) =>
        policyOf(id).includes('s3:DeleteObject'),
      );
      expect(deleters.sort()).toEqual(['IndexFileFunctionArn', 'PrepareReconcileFunctionArn']);
      expect(policyOf('searchSources')).not.toContain('s3:PutObject');
      // Reconcile runs as a job: the route reads the inventory and starts the job, the job writes.
      expect(policyOf('reconcileSourceIndex')).not.toContain('s3:PutObject');
      expect(policyOf('reconcileSourceIndex')).toMatch(
        /"Action":"states:StartExecution","Effect":"Allow","Resource":\{"Ref":"ReconcileIndexStateMachine/,
      );
    });

    it("sets each bound resource's variable, and grants the signing secret by name with its random suffix", () => {
      const fn = statelessStack.functions.get('listProjects');
      const template = JSON.stringify(
        stateless.findResources('AWS::Lambda::Function', {
          Properties: {
            Environment: { Variables: Match.objectLike({ [RESOURCES.signingKey.env]: Match.anyValue() }) },
          },
        }),
      );
      expect(fn).toBeDefined();
      expect(template).toContain('project-source/test/cursor-signing-key');
      const policy = policyOf('listProjects');
      expect(policy).toContain('secretsmanager:GetSecretValue');
      expect(policy).toMatch(/secret:project-source\/test\/cursor-signing-key-\?\?\?\?\?\?"/);
      for (const route of ROUTES as readonly RouteDefinition[]) {
        const variables = JSON.stringify(
          (statelessStack.resolve(
            (
              statelessStack.functions.get(route.id)?.fn.node.defaultChild as unknown as {
                environment?: unknown;
              }
            )?.environment,
          ) ?? {}) as object,
        );
        for (const name of Object.keys(route.access)) {
          expect(variables, `${route.id} ${name}`).toContain(RESOURCES[name as ResourceName].env);
        }
      }
    });

    it('runs the functions that need a native layer with exactly that layer, on x86_64, and nothing else', () => {
      const functions = stateless.findResources('AWS::Lambda::Function');
      const layers = stateless.findResources('AWS::Lambda::LayerVersion');
      const layerId = (description: string) =>
        Object.entries(layers).find(([, layer]) =>
          String(layer.Properties.Description).startsWith(description),
        )?.[0];
      const engine = layerId('Extraction engine runtime');
      const index = layerId('Source index runtime');
      expect(engine).toBeDefined();
      expect(index).toBeDefined();
      const users = [
        ...STATE_MACHINES.flatMap((machine) => Object.entries(machine.tasks)).map(([placeholder, task]) => ({
          id: placeholder,
          uses: task as { usesEngine?: boolean; usesIndex?: boolean },
        })),
        ...ROUTES.map((route) => ({
          id: route.id,
          uses: route as { usesEngine?: boolean; usesIndex?: boolean },
        })),
        {
          id: ENDED_EXECUTIONS_TARGET.id,
          uses: ENDED_EXECUTIONS_TARGET as { usesEngine?: boolean; usesIndex?: boolean },
        },
        {
          id: EXPIRE_JOBS_SCHEDULE.id,
          uses: EXPIRE_JOBS_SCHEDULE as { usesEngine?: boolean; usesIndex?: boolean },
        },
      ];
      for (const { id, uses } of users) {
        const fn = statelessStack.functions.get(id);
        if (!fn) throw new Error(`no function ${id}`);
        const logicalId = statelessStack.resolve(
          (fn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
        );
        const properties = functions[logicalId]?.Properties;
        const expected = [...(uses.usesEngine ? [engine] : []), ...(uses.usesIndex ? [index] : [])];
        expect(
          (properties?.Layers ?? []).map((layer: { Ref: string }) => layer.Ref),
          id,
        ).toEqual(expected);
        expect(properties?.Architectures, id).toEqual(expected.length > 0 ? ['x86_64'] : ['arm64']);
        // The bundle of a function without the engine layer must not import the engine's modules.
        const asset = String(properties?.Code?.S3Key).replace(/\.zip$/, '');
        const bundle = readFileSync(join(outdir, `asset.${asset}`, 'index.mjs'), 'utf8');
        expect(/from\s*["']@napi-rs\/canvas["']|from\s*["']pdfjs-dist/.test(bundle), id).toBe(
          Boolean(uses.usesEngine),
        );
      }
      expect(
        // A task two machines share (IndexFile) is one function.
        [...new Set(users.filter(({ uses }) => uses.usesIndex).map(({ id }) => id))].sort(),
      ).toEqual([
        'IndexFileFunctionArn',
        'PrepareReconcileFunctionArn',
        'RunReviewToolsFunctionArn',
        'readSource',
        'reconcileSourceIndex',
        'searchProjects',
        'searchSources',
      ]);
    });

    it("fits every function with its layers in Lambda's 250 MB unzipped limit", () => {
      const sizeOf = (path: string): number =>
        statSync(path).isDirectory()
          ? readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0)
          : statSync(path).size;
      // Assets are staged as `asset.<hash>` folders; the template names each by `<hash>.zip`.
      // biome-ignore lint/suspicious/noExplicitAny: template resources are untyped JSON
      const assetSize = (resource: { [key: string]: any }) =>
        sizeOf(
          join(
            outdir,
            `asset.${(resource.Properties.Code ?? resource.Properties.Content)?.S3Key.replace(/\.zip$/, '')}`,
          ),
        );
      const layers = stateless.findResources('AWS::Lambda::LayerVersion');
      // Our layers (the viewer upload's AWS CLI layer is CDK's own, staged as a zip and used by no function of ours).
      const ours = Object.entries(layers).filter(([id]) => !id.startsWith('ViewerDeploy'));
      const layerSizes = new Map(ours.map(([id, layer]) => [id, assetSize(layer)]));
      const limit = 250 * 1024 * 1024;
      for (const [id, fn] of Object.entries(serviceFunctions())) {
        const layerTotal = (fn.Properties.Layers ?? []).reduce(
          (sum: number, layer: { Ref: string }) =>
            sum + (layerSizes.get(layer.Ref) ?? Number.POSITIVE_INFINITY),
          0,
        );
        expect(assetSize(fn) + layerTotal, id).toBeLessThan(limit);
      }
      // The index layer holds LanceDB's stripped native binary: large, but within the limit.
      const index = Object.entries(layers).find(([, layer]) =>
        String(layer.Properties.Description).startsWith('Source index runtime'),
      )?.[0] as string;
      expect(layerSizes.get(index)).toBeGreaterThan(50 * 1024 * 1024);
    });

    it('lets only indexing and search invoke the embedding model, and only the answer turn stream the answer model, by exact ARNs', () => {
      // The ARN is joined from the partition and region at deploy time: its resource part is exact.
      const embeddingArn = /:bedrock:.*::foundation-model\/amazon\.titan-embed-text-v2:0"/;
      const answerArn = /:bedrock:.*::foundation-model\/amazon\.nova-pro-v1:0"/;
      for (const id of statelessStack.functions.keys()) {
        const policy = policyOf(id);
        expect(embeddingArn.test(policy), id).toBe(
          [
            'IndexFileFunctionArn',
            'PrepareReconcileFunctionArn',
            'RunReviewToolsFunctionArn',
            'reconcileSourceIndex',
            'searchProjects',
            'searchSources',
          ].includes(id),
        );
        expect(answerArn.test(policy), id).toBe(id === 'ReviewTurnFunctionArn');
        expect(policy.includes('bedrock:InvokeModelWithResponseStream'), id).toBe(
          id === 'ReviewTurnFunctionArn',
        );
        expect(policy.includes('bedrock:InvokeModel'), id).toBe(
          embeddingArn.test(policy) || answerArn.test(policy),
        );
      }
    });

    it('lets only the source search call the Rerank API, and invoke only the reranker by its exact ARN', () => {
      const rerankArn = /:bedrock:.*::foundation-model\/amazon\.rerank-v1:0"/;
      for (const id of statelessStack.functions.keys()) {
        const policy = policyOf(id);
        expect(rerankArn.test(policy), id).toBe(id === 'searchSources');
        expect(policy.includes('bedrock:Rerank'), id).toBe(id === 'searchSources');
      }
      // Off unless the deployment turns it on (`-c searchRerank=bedrock`).
      const search = statelessStack.functions.get('searchSources');
      if (!search) throw new Error('no searchSources function');
      const logicalId = statelessStack.resolve(
        (search.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
      );
      expect(
        stateless.findResources('AWS::Lambda::Function')[logicalId]?.Properties.Environment.Variables
          .SEARCH_RERANK,
      ).toBe('off');
    });

    it("calls the answer model through its geography's cross-Region inference profile, granted on the profile and the model", () => {
      // Prepare
      const turn = statelessStack.functions.get('ReviewTurnFunctionArn');
      if (!turn) throw new Error('no ReviewTurn function');
      const logicalId = statelessStack.resolve(
        (turn.fn.node.defaultChild as unknown as { logicalId: string }).logicalId,
      );
      // Act
      const variable =
        stateless.findResources('AWS::Lambda::Function')[logicalId]?.Properties.Environment.Variables[
          RESOURCES.answerModel.env
        ];
      const policy = JSON.parse(policyOf('ReviewTurnFunctionArn')) as {
        Statement: { Action: string[]; Resource: unknown }[];
      }[];
      const bedrock = policy
        .flatMap((document) => document.Statement)
        .filter((statement) => [statement.Action].flat().includes('bedrock:InvokeModelWithResponseStream'));
      // Assess: `<geography>.amazon.nova-pro-v1:0`, the geography looked up from the Region
      expect(variable).toEqual({
        'Fn::Join': [
          '.',
          [
            { 'Fn::FindInMap': ['BedrockInferenceGeography', expect.anything(), 'prefix'] },
            'amazon.nova-pro-v1:0',
          ],
        ],
      });
      expect(stateless.toJSON().Mappings.BedrockInferenceGeography).toEqual({
        us: { prefix: 'us' },
        eu: { prefix: 'eu' },
        ap: { prefix: 'apac' },
      });
      expect(bedrock).toHaveLength(1);
      const resources = JSON.stringify(bedrock[0]?.Resource);
      expect(resources).toContain(':inference-profile/');
      expect(resources).toContain('BedrockInferenceGeography');
      expect(resources).toContain(':bedrock:*::foundation-model/amazon.nova-pro-v1:0');
    });

    it('grants no action wildcards to any function', () => {
      for (const id of statelessStack.functions.keys()) {
        const actions = [...policyOf(id).matchAll(/"([a-z0-9-]+:[A-Za-z*]+)"/g)].map((match) => match[1]);
        expect(
          actions.filter((action) => action?.includes('*')),
          id,
        ).toEqual([]);
      }
    });
  });
});
