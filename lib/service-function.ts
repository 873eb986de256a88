import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, type ILayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import { Construct } from 'constructs';
import { TABLE_DESIGN } from '../functions/adapters/dynamodb/table.ts';
import type { RouteAccess } from '../functions/shared/routes.ts';
import { ENGINE_MODULES } from './engine-layer.ts';

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

export interface ServiceResources {
  table: ITableV2;
  uploadsBucket: IBucket;
  artifactsBucket: IBucket;
  indexBucket: IBucket;
  webhookQueue: IQueue;
  cursorSecret: ISecret;
  stateMachines: { provision?: IStateMachine; processJob?: IStateMachine };
}

export interface ServiceFunctionProps {
  /** Handler module, relative to the repository root. */
  entry: string;
  access: RouteAccess;
  resources: ServiceResources;
  timeout?: Duration;
  memorySize?: number;
  environment?: Record<string, string>;
  /** The extraction engine's packages come from this layer instead of the bundle (x86_64). */
  engineLayer?: ILayerVersion;
}

/**
 * One Lambda function with its own log group. `bind` sets the environment variable of each
 * resource the function uses AND grants exactly that access, in one place, so a function can only
 * touch what its route or task declares.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: props.engineLayer ? Architecture.X86_64 : Architecture.ARM_64,
      ...(props.engineLayer ? { layers: [props.engineLayer] } : {}),
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'project-source-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
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
        externalModules: ['@aws-sdk/*', ...(props.engineLayer ? ENGINE_MODULES : [])],
      },
    });
    this.bind(props.access, props.resources);
  }

  private bind(access: RouteAccess, resources: ServiceResources): void {
    const { fn } = this;
    const allow = (actions: string[], resourceArns: string[]) =>
      fn.addToRolePolicy(new PolicyStatement({ actions, resources: resourceArns }));
    if (access.table) {
      fn.addEnvironment('TABLE_NAME', resources.table.tableName);
      const arns = [
        resources.table.tableArn,
        ...Object.values(TABLE_DESIGN.indexes).map(
          (index) => `${resources.table.tableArn}/index/${index.name}`,
        ),
      ];
      // `read` keeps UpdateItem: authentication counts requests and marks key use on every call.
      allow(
        access.table === 'readwrite'
          ? [...TABLE_READ, ...TABLE_WRITE]
          : [...TABLE_READ, 'dynamodb:UpdateItem'],
        arns,
      );
    }
    if (access.signingKey) {
      fn.addEnvironment('SIGNING_SECRET_ARN', resources.cursorSecret.secretArn);
      allow(['secretsmanager:GetSecretValue'], [resources.cursorSecret.secretArn]);
      Validations.of(fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagArn(this, resources.cursorSecret.secretArn)}]`,
        reason:
          'The one signing secret, imported by name: Secrets Manager appends a random 6-character suffix to its ARN.',
      });
    }
    const buckets: [keyof RouteAccess, IBucket, string][] = [
      ['uploadsBucket', resources.uploadsBucket, 'UPLOADS_BUCKET'],
      ['artifactsBucket', resources.artifactsBucket, 'ARTIFACTS_BUCKET'],
      ['indexBucket', resources.indexBucket, 'INDEX_BUCKET'],
    ];
    for (const [key, bucket, variable] of buckets) {
      const mode = access[key];
      if (!mode) continue;
      fn.addEnvironment(variable, bucket.bucketName);
      allow(['s3:ListBucket'], [bucket.bucketArn]);
      allow(
        mode === 'readwrite' ? ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload'] : ['s3:GetObject'],
        [bucket.arnForObjects('*')],
      );
      Validations.of(fn).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagArn(this, bucket.arnForObjects('*'))}]`,
        reason: 'Objects of this one bucket, whose keys (project and file ids) are only known at run time.',
      });
    }
    if (access.webhookQueue) {
      fn.addEnvironment('WEBHOOK_QUEUE_URL', resources.webhookQueue.queueUrl);
      if (access.webhookQueue === 'send') allow(['sqs:SendMessage'], [resources.webhookQueue.queueArn]);
      else {
        allow(
          [
            'sqs:ReceiveMessage',
            'sqs:DeleteMessage',
            'sqs:ChangeMessageVisibility',
            'sqs:GetQueueAttributes',
          ],
          [resources.webhookQueue.queueArn],
        );
      }
    }
    const machines: [keyof RouteAccess, IStateMachine | undefined, string][] = [
      ['provisionStateMachine', resources.stateMachines.provision, 'PROVISION_STATE_MACHINE_ARN'],
      ['processJobStateMachine', resources.stateMachines.processJob, 'PROCESS_JOB_STATE_MACHINE_ARN'],
    ];
    for (const [key, machine, variable] of machines) {
      if (!access[key]) continue;
      if (!machine) throw new Error(`${this.node.path} needs ${key}, which is not built yet`);
      fn.addEnvironment(variable, machine.stateMachineArn);
      allow(['states:StartExecution'], [machine.stateMachineArn]);
    }
  }
}
