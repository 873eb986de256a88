import { Aws, CfnMapping, Duration, Fn, Size, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { REQUEST_ACCOUNTING_PREFIXES, TABLE_DESIGN } from '../functions/adapters/dynamodb/table.ts';
import {
  type Access,
  accessEntries,
  type KindOf,
  type ModelDefinition,
  type ResourceName,
} from '../functions/shared/resources.ts';
import type { NativeLayer } from './native-layers.ts';

const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
const TABLE_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/** An ARN as cdk-nag prints it in a finding id, so an acknowledgement names exactly one resource. */
function nagArn(scope: Construct, arn: string): string {
  return flattenCfnReference(Stack.of(scope).resolve(arn));
}

/**
 * The geography prefix of Bedrock's cross-Region inference profiles for the stack's Region (`us`,
 * `eu`, `apac`), looked up from the Region's first part at deploy time. A Region of another
 * geography fails the deployment at this lookup (docs/operations.md).
 */
function bedrockGeography(stack: Stack): string {
  const id = 'BedrockInferenceGeography';
  const mapping =
    (stack.node.tryFindChild(id) as CfnMapping | undefined) ??
    new CfnMapping(stack, id, {
      mapping: { us: { prefix: 'us' }, eu: { prefix: 'eu' }, ap: { prefix: 'apac' } },
    });
  return mapping.findInMap(Fn.select(0, Fn.split('-', Aws.REGION)), 'prefix');
}

/** The CDK construct behind each kind of resource. */
interface ConstructOfKind {
  table: ITableV2;
  bucket: IBucket;
  queue: IQueue;
  stateMachine: IStateMachine;
  model: { modelId: string };
  secret: ISecret;
}

/** The constructs of the resources of `resources.ts`, by name, as far as they are built. */
export type ServiceResources = { [N in ResourceName]?: ConstructOfKind[KindOf<N>] };

export interface ServiceFunctionProps {
  /** Handler module, relative to the repository root. */
  entry: string;
  access: Access;
  resources: ServiceResources;
  timeout?: Duration;
  memorySize?: number;
  environment?: Record<string, string>;
  /** Packages that come from these layers instead of the bundle (the function then runs on x86_64). */
  layers?: NativeLayer[];
  /** Concurrency reserved for (and capping) this function; undefined: the account's shared pool. */
  reservedConcurrency?: number;
  /** Size of /tmp in MB; Lambda's 512 when absent. */
  ephemeralStorageMb?: number;
}

/**
 * One Lambda function with its own log group. `bind` sets the environment variable of each
 * resource the function uses AND grants exactly that access, in one place, so a function can only
 * touch what its route or task declares.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
  /** The handler module it runs (relative to the repository root). */
  readonly entry: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.entry = props.entry;
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    const layers = props.layers ?? [];
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray tracing actions (PutTraceSegments, PutTelemetryRecords) have no resource-level permissions.',
    });
    // This function's role only (each ServiceFunction acknowledges its own).
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'AWSLambdaBasicExecutionRole only allows writing the function’s own logs.',
    });
    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: layers.length > 0 ? Architecture.X86_64 : Architecture.ARM_64,
      ...(layers.length > 0 ? { layers: layers.map((native) => native.layer) } : {}),
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      // X-Ray, as the state machines: a request's path through API, functions, DynamoDB and S3.
      tracing: Tracing.ACTIVE,
      ...(props.reservedConcurrency ? { reservedConcurrentExecutions: props.reservedConcurrency } : {}),
      ...(props.ephemeralStorageMb ? { ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb) } : {}),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'project-source-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // LanceDB's native logger: warnings (an empty dataset created, k-means notes) are not errors.
        ...(layers.some((native) => native.modules.includes('@lancedb/lancedb'))
          ? { LANCEDB_LOG: 'error' }
          : {}),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        logLevel: LogLevel.WARNING,
        // The AWS SDK is bundled: the version the tests ran, not whichever the runtime carries.
        externalModules: layers.flatMap((native) => native.modules),
      },
    });
    this.bind(props.access, props.resources);
  }

  private bind(access: Access, resources: ServiceResources): void {
    const { fn } = this;
    const allow = (actions: string[], resourceArns: string[]) =>
      fn.addToRolePolicy(new PolicyStatement({ actions, resources: resourceArns }));
    for (const [name, definition, mode] of accessEntries(access)) {
      const target = resources[name];
      if (!target) throw new Error(`${this.node.path} needs ${name}, which is not built yet`);
      switch (definition.kind) {
        case 'table': {
          const table = target as ITableV2;
          fn.addEnvironment(definition.env, table.tableName);
          const arns = [
            table.tableArn,
            ...Object.values(TABLE_DESIGN.indexes).map((index) => `${table.tableArn}/index/${index.name}`),
          ];
          allow(mode === 'readwrite' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ, arns);
          // `read` keeps UpdateItem on what authentication writes on every call (the request's rate
          // window, the key's last use), and on nothing else.
          if (mode !== 'readwrite')
            fn.addToRolePolicy(
              new PolicyStatement({
                actions: ['dynamodb:UpdateItem'],
                resources: [table.tableArn],
                conditions: {
                  'ForAllValues:StringLike': {
                    'dynamodb:LeadingKeys': REQUEST_ACCOUNTING_PREFIXES.map((prefix) => `${prefix}*`),
                  },
                },
              }),
            );
          break;
        }
        case 'secret': {
          const secret = target as ISecret;
          // The name, not the ARN: an imported secret's ARN lacks the random suffix AWS appends.
          fn.addEnvironment(definition.env, secret.secretName);
          const arn = `${secret.secretArn}-??????`;
          allow(['secretsmanager:GetSecretValue'], [arn]);
          Validations.of(fn).acknowledge({
            id: `AwsSolutions-IAM5[Resource::${nagArn(this, arn)}]`,
            reason:
              'The one signing secret, imported by name: `-??????` matches the random 6-character suffix Secrets Manager appends to its ARN, and nothing else.',
          });
          break;
        }
        case 'bucket': {
          const bucket = target as IBucket;
          fn.addEnvironment(definition.env, bucket.bucketName);
          allow(['s3:ListBucket'], [bucket.bucketArn]);
          allow(
            mode === 'read'
              ? ['s3:GetObject']
              : [
                  's3:GetObject',
                  's3:PutObject',
                  's3:AbortMultipartUpload',
                  ...(mode === 'manage' ? ['s3:DeleteObject'] : []),
                ],
            [bucket.arnForObjects('*')],
          );
          Validations.of(fn).acknowledge({
            id: `AwsSolutions-IAM5[Resource::${nagArn(this, bucket.arnForObjects('*'))}]`,
            reason:
              'Objects of this one bucket, whose keys (project and file ids) are only known at run time.',
          });
          break;
        }
        case 'queue': {
          const queue = target as IQueue;
          fn.addEnvironment(definition.env, queue.queueUrl);
          allow(
            mode === 'send'
              ? ['sqs:SendMessage']
              : [
                  'sqs:ReceiveMessage',
                  'sqs:DeleteMessage',
                  'sqs:ChangeMessageVisibility',
                  'sqs:GetQueueAttributes',
                ],
            [queue.queueArn],
          );
          break;
        }
        case 'model': {
          const { modelId } = target as { modelId: string };
          const stack = Stack.of(this);
          const actions =
            mode === 'stream'
              ? ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']
              : ['bedrock:InvokeModel'];
          // The Rerank API's own action names no resource; the model it calls is granted below.
          if (mode === 'rerank') allow(['bedrock:Rerank'], ['*']);
          if (!(definition as ModelDefinition).crossRegion) {
            fn.addEnvironment(definition.env, modelId);
            allow(actions, [
              stack.formatArn({
                service: 'bedrock',
                account: '',
                resource: 'foundation-model',
                resourceName: modelId,
              }),
            ]);
            break;
          }
          // The inference profile of this Region's geography; it routes each call to the model in one
          // of the geography's Regions, so the grant names the profile and the model in any Region.
          const profileId = Fn.join('.', [bedrockGeography(stack), modelId]);
          fn.addEnvironment(definition.env, profileId);
          const anyRegionModel = stack.formatArn({
            service: 'bedrock',
            region: '*',
            account: '',
            resource: 'foundation-model',
            resourceName: modelId,
          });
          allow(actions, [
            stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: profileId }),
            anyRegionModel,
          ]);
          Validations.of(fn).acknowledge({
            id: `AwsSolutions-IAM5[Resource::${nagArn(this, anyRegionModel)}]`,
            reason:
              'One foundation model, in whichever Region of the geography its cross-Region inference profile routes a call to.',
          });
          break;
        }
        case 'stateMachine': {
          const machine = target as IStateMachine;
          fn.addEnvironment(definition.env, machine.stateMachineArn);
          allow(['states:StartExecution'], [machine.stateMachineArn]);
          break;
        }
      }
    }
  }
}
