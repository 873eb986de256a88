import { readFileSync } from 'node:fs';
import { Arn, ArnFormat, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';
import { CONSUMERS } from '../functions/shared/consumers.ts';
import { ENDED_EXECUTIONS_TARGET, EXPIRE_JOBS_SCHEDULE } from '../functions/shared/event-rules.ts';
import {
  type Access,
  type ModelDefinition,
  RESOURCES,
  type ResourceDefinition,
  type ResourceName,
  type ResourceNameOfKind,
} from '../functions/shared/resources.ts';
import { FALLBACK_HANDLER, ROUTES, type RouteDefinition, STREAM_ROUTE } from '../functions/shared/routes.ts';
import { STATE_MACHINES } from '../functions/shared/state-machines.ts';
import { operationsDashboard, whenAny } from './alarms.ts';
import { ApiEdge } from './edge.ts';
import { nativeLayer } from './native-layers.ts';
import { pascal, physicalName, resourceName } from './resource-names.ts';
import { ServiceFunction, type ServiceResources } from './service-function.ts';
import { ViewerHosting } from './viewer-hosting.ts';

function queueOf(resources: ServiceResources, name: ResourceNameOfKind<'queue'>): IQueue {
  const queue = resources[name];
  if (!queue) throw new Error(`Queue ${name} is not built`);
  return queue;
}

/**
 * The API's access log line (HTTP API `$context` variables). Behind the distribution the source address
 * is CloudFront's edge, hence `edgeIp`; the client's address is in the route function's `Request` line
 * (`viewerIp`, from CloudFront-Viewer-Address), joined by `requestId`: HTTP API access logs cannot
 * read request headers.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  edgeIp: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

/**
 * Concurrency reserved for the functions that could starve the API of the account's pool: page
 * extraction (up to 8 batches of 3 GB per job, across every job) and the review stream (a connection
 * holds a slot up to 15 minutes). CDK context `extractionConcurrency` / `streamConcurrency` set them;
 * 0 reserves nothing (an account whose limit is below 100 plus the reservations cannot reserve).
 */
export const RESERVED_CONCURRENCY = { extraction: 40, stream: 100 };

export interface StatelessStackProps extends StackProps {
  stage: string;
  reservedConcurrency?: { extraction: number; stream: number };
  /** The web ACL of the edge firewall stack (us-east-1), attached to the API's distribution. */
  webAclArn?: string;
  /** The source search's rerank stage (`-c searchRerank=bedrock`; docs/decisions.md, Search): off by default. */
  searchRerank?: 'off' | 'bedrock';
}

/** Functions, the HTTP API, the streaming function URL and the state machines, all from the route and machine tables. */
export class StatelessStack extends Stack {
  readonly api: HttpApi;
  readonly functions = new Map<string, ServiceFunction>();
  edge!: ApiEdge;
  endedExecutionsDlq!: Queue;
  /** What operators watch (docs/operations.md); created without actions: subscribe per account. */
  alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const concurrency = props.reservedConcurrency ?? RESERVED_CONCURRENCY;
    // The stateful resources of `resources.ts`, imported by name; state machines are built below.
    const resources: ServiceResources = {};
    for (const [name, definition] of Object.entries(RESOURCES) as [ResourceName, ResourceDefinition][]) {
      const physical = physicalName(stage, definition);
      const id = pascal(name);
      const imported = {
        table: () => TableV2.fromTableName(this, id, physical),
        bucket: () => Bucket.fromBucketName(this, id, physical),
        queue: () => Queue.fromQueueArn(this, id, Arn.format({ service: 'sqs', resource: physical }, this)),
        secret: () => Secret.fromSecretNameV2(this, id, physical),
        stateMachine: () => undefined,
        model: () => ({ modelId: (definition as ModelDefinition).modelId }),
      }[definition.kind]();
      if (imported) (resources as Record<string, unknown>)[name] = imported;
    }

    const engine = nativeLayer(this, 'EngineLayer', 'engine');
    const index = nativeLayer(this, 'IndexLayer', 'index');
    const layersOf = (uses: { usesEngine?: boolean; usesIndex?: boolean }) => [
      ...(uses.usesEngine ? [engine] : []),
      ...(uses.usesIndex ? [index] : []),
    ];

    /** A function declared by a table entry (a machine's task, an event target): handler, access, size, layers. */
    const tableFunction = (
      id: string,
      spec: {
        handler: string;
        access: Access;
        timeoutSeconds: number;
        memoryMb: number;
        ephemeralStorageMb?: number;
        usesEngine?: boolean;
        usesIndex?: boolean;
      },
      reservedConcurrency?: number,
    ) =>
      new ServiceFunction(this, id, {
        entry: spec.handler,
        access: spec.access,
        resources,
        timeout: Duration.seconds(spec.timeoutSeconds),
        memorySize: spec.memoryMb,
        ...(spec.ephemeralStorageMb ? { ephemeralStorageMb: spec.ephemeralStorageMb } : {}),
        layers: layersOf(spec),
        ...(reservedConcurrency ? { reservedConcurrency } : {}),
      });

    // State machines first: routes start them.
    const machines: StateMachine[] = [];
    for (const definition of STATE_MACHINES) {
      const substitutions: Record<string, string> = {};
      const taskFunctions: ServiceFunction[] = [];
      for (const [placeholder, task] of Object.entries(definition.tasks)) {
        // A task two machines share (finalize and fail a job) is one function.
        const fn =
          this.functions.get(placeholder) ??
          tableFunction(
            placeholder.replace(/FunctionArn$/, ''),
            task,
            placeholder === 'ExtractPageBatchFunctionArn' ? concurrency.extraction : undefined,
          );
        substitutions[placeholder] = fn.fn.functionArn;
        taskFunctions.push(fn);
        this.functions.set(placeholder, fn);
      }
      const machine = new StateMachine(this, `${pascal(definition.name)}StateMachine`, {
        stateMachineName: physicalName(stage, definition),
        definitionBody: DefinitionBody.fromFile(definition.file),
        definitionSubstitutions: substitutions,
        tracingEnabled: true,
        logs: {
          destination: new LogGroup(this, `${pascal(definition.name)}Logs`, {
            retention: RetentionDays.ONE_MONTH,
          }),
          // Failures only: every state's input and output at ALL costs more than the logs are worth.
          level: LogLevel.ERROR,
          includeExecutionData: false,
        },
        // No `timeout` here: with a definition from a file the CDK drops it. Each ASL file carries its
        // own TimeoutSeconds (the infra test reads it from the template).
      });
      // Exactly these functions (CDK's grantInvoke would add a `function:*` version wildcard).
      machine.addToRolePolicy(
        new PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: taskFunctions.map((fn) => fn.fn.functionArn),
        }),
      );
      if (readFileSync(definition.file, 'utf8').includes('"DISTRIBUTED"'))
        this.allowChildExecutions(machine, stage, definition);
      Validations.of(machine).acknowledge({
        id: 'AwsSolutions-SF1',
        reason:
          'Logs at ERROR: each execution keeps its full event history in Step Functions (90 days), and logging ALL writes every state transition of every page batch to CloudWatch at a cost that grows with the job.',
      });
      Validations.of(machine).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing and CloudWatch log delivery actions have no resource-level permissions.',
      });
      resources[definition.resource] = machine;
      machines.push(machine);
      const name = pascal(definition.name);
      this.alarms.push(
        whenAny(this, `${name}ExecutionsFailedAlarm`, machine.metricFailed(), `${name}: executions failed`),
        whenAny(
          this,
          `${name}ExecutionsTimedOutAlarm`,
          machine.metricTimedOut(),
          `${name}: executions timed out`,
        ),
      );
    }
    this.recoverEndedExecutions(tableFunction('RecoverEndedExecutions', ENDED_EXECUTIONS_TARGET), machines);
    this.expireJobs(tableFunction('ExpireJobs', EXPIRE_JOBS_SCHEDULE));
    this.alarms.push(
      whenAny(
        this,
        'EndedExecutionsDlqAlarm',
        this.endedExecutionsDlq.metricApproximateNumberOfMessagesVisible(),
        'Ended executions the recovery function could not handle (docs/operations.md)',
      ),
    );

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS });
    // Every path no route matches, `/` included, reaches the `$default` route: the service's 404 envelope.
    const fallback = new ServiceFunction(this, 'RouteNotFound', {
      entry: FALLBACK_HANDLER,
      access: {},
      resources,
    });
    this.functions.set('routeNotFound', fallback);
    this.api = new HttpApi(this, 'HttpApi', {
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('RouteNotFoundIntegration', fallback.fn),
    });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // JSON, one line per request: which route ran, and why an integration failed when one did.
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
      throttle: { rateLimit: 500, burstLimit: 1000 },
    });

    for (const route of ROUTES) {
      const fn = new ServiceFunction(this, pascal(route.id), {
        entry: route.handler,
        // Every route reads the origin secret: it answers only requests CloudFront sent (X-Origin-Verify).
        access: { ...route.access, originVerify: 'read' },
        resources,
        layers: layersOf(route as RouteDefinition),
        ...((route as RouteDefinition).memoryMb ? { memorySize: (route as RouteDefinition).memoryMb } : {}),
        ...('rerankModel' in route.access
          ? { environment: { SEARCH_RERANK: props.searchRerank ?? 'off' } }
          : {}),
      });
      this.functions.set(route.id, fn);
      this.api.addRoutes({
        path: route.path,
        // HEAD on a GET route: the same function answers with the GET's headers (RFC 9110).
        methods: (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) as never[],
        integration: new HttpLambdaIntegration(`${pascal(route.id)}Integration`, fn.fn),
      });
    }

    for (const consumer of CONSUMERS) {
      const fn = new ServiceFunction(this, pascal(consumer.id), {
        entry: consumer.handler,
        access: consumer.access,
        resources,
        timeout: Duration.seconds(consumer.timeoutSeconds),
      });
      fn.fn.addEventSource(
        new SqsEventSource(queueOf(resources, consumer.queue), {
          batchSize: consumer.batchSize,
          reportBatchItemFailures: true,
        }),
      );
      this.functions.set(consumer.id, fn);
    }

    const stream = new ServiceFunction(this, 'StreamReviewExecution', {
      entry: STREAM_ROUTE.handler,
      access: STREAM_ROUTE.access,
      resources,
      timeout: Duration.minutes(15),
      reservedConcurrency: concurrency.stream,
    });
    this.functions.set(STREAM_ROUTE.id, stream);
    // Reachable only through the distribution (origin access control signs with IAM); the function
    // authenticates the client's bearer key itself, as every other route does.
    const streamUrl = stream.fn.addFunctionUrl({
      authType: FunctionUrlAuthType.AWS_IAM,
      invokeMode: InvokeMode.RESPONSE_STREAM,
    });
    this.edge = new ApiEdge(this, 'Edge', {
      api: this.api,
      streamUrl,
      webAclArn: props.webAclArn,
      originVerifySecretName: resourceName(stage, 'originVerify'),
    });
    new ViewerHosting(this, 'Viewer', { distribution: this.edge.distribution, stage });
    this.alarms.push(
      new Alarm(this, 'ApiServerErrorsAlarm', {
        alarmDescription: 'The API answered 5xx to at least 5 requests in 5 minutes',
        metric: this.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 5,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    for (const id of ['ExtractPageBatchFunctionArn', STREAM_ROUTE.id]) {
      const fn = this.functions.get(id);
      if (fn)
        this.alarms.push(
          whenAny(
            this,
            `${pascal(id.replace(/FunctionArn$/, ''))}ThrottlesAlarm`,
            fn.fn.metricThrottles(),
            `${id}: throttled`,
          ),
        );
    }

    // The HTTP API's routes only (not stack-wide).
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Routes authenticate in the function: API keys (hashed, scoped, revocable) or the session cookie, as the API contract requires.',
    });

    new CfnOutput(this, 'EndedExecutionsDeadLetterQueue', {
      value: this.endedExecutionsDlq.queueUrl,
      description: 'Ended executions the recovery target could not handle: see docs/operations.md',
    });
    operationsDashboard(this, 'OperationsDashboard', {
      name: `project-source-${stage}`,
      api: this.api,
      alarms: this.alarms,
      machines,
      functions: [...this.functions.values()].map((service) => service.fn),
    });
    new CfnOutput(this, 'HttpApiUrl', {
      value: this.api.apiEndpoint,
      description:
        'The HTTP API itself: refuses every request (403 origin_required) that did not come through ApiBaseUrl',
    });
  }

  /**
   * A Distributed Map runs its items as child executions of the machine itself: it may start them,
   * follow them and stop them (its own executions only; the name is fixed, so no circular reference).
   */
  private allowChildExecutions(
    machine: StateMachine,
    stage: string,
    definition: (typeof STATE_MACHINES)[number],
  ) {
    const name = physicalName(stage, definition);
    const arn = (resource: string, resourceName: string) =>
      Stack.of(this).formatArn({
        service: 'states',
        resource,
        resourceName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
    machine.addToRolePolicy(
      new PolicyStatement({ actions: ['states:StartExecution'], resources: [arn('stateMachine', name)] }),
    );
    machine.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution'],
        resources: [arn('execution', `${name}/*`)],
      }),
    );
    Validations.of(machine).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(this).resolve(arn('execution', `${name}/*`)))}]`,
      reason:
        "Distributed Map child executions are named by the service at run time: the grant is limited to this machine's own executions.",
    });
  }

  /**
   * Executions that end outside their catchers (FAILED by the service, TIMED_OUT, ABORTED) reach a
   * function that fails the job, review execution or project they worked for and releases what they
   * held. EventBridge retries the target for a day, then keeps the event in a dead-letter queue.
   */
  private recoverEndedExecutions(fn: ServiceFunction, machines: StateMachine[]) {
    this.functions.set(ENDED_EXECUTIONS_TARGET.id, fn);
    this.endedExecutionsDlq = new Queue(this, 'EndedExecutionsDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.endedExecutionsDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the dead-letter queue of the ended-executions rule target.',
    });
    new Rule(this, 'EndedExecutionsRule', {
      description: 'Executions of this service that end outside their catchers',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...ENDED_EXECUTIONS_TARGET.statuses],
          stateMachineArn: machines.map((machine) => machine.stateMachineArn),
        },
      },
      targets: [
        new LambdaFunction(fn.fn, {
          deadLetterQueue: this.endedExecutionsDlq,
          maxEventAge: Duration.hours(24),
          retryAttempts: 185,
        }),
      ],
    });
  }

  /** Jobs whose upload window ended while they waited for uploads end `failed` (`job_expired`), on a schedule. */
  private expireJobs(fn: ServiceFunction) {
    this.functions.set(EXPIRE_JOBS_SCHEDULE.id, fn);
    new Rule(this, 'ExpireJobsSchedule', {
      description: 'Jobs whose upload window ended',
      schedule: Schedule.rate(Duration.minutes(EXPIRE_JOBS_SCHEDULE.everyMinutes)),
      targets: [new LambdaFunction(fn.fn, { retryAttempts: 2 })],
    });
  }
}
