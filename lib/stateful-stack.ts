import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type IndexProjection, TABLE_DESIGN } from '../functions/adapters/dynamodb/table.ts';
import { JOB_UPLOAD_WINDOW_MS } from '../functions/core/jobs/jobs.ts';
import { RESOURCES, type ResourceNameOfKind, resourcesOfKind } from '../functions/shared/resources.ts';
import { whenAny } from './alarms.ts';
import {
  auxiliaryNames,
  pascal,
  physicalName,
  resourceName,
  VIEWER_ACCESS_LOG_PREFIX,
} from './resource-names.ts';

const UPLOAD_WINDOW_DAYS = Math.ceil(JOB_UPLOAD_WINDOW_MS / 86_400_000);

function projectionOf(projection: IndexProjection) {
  if (projection.type === 'INCLUDE')
    return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...projection.attributes] };
  return { projectionType: projection.type === 'ALL' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY };
}

export interface StatefulStackProps extends StackProps {
  stage: string;
  /**
   * How many of the table's indexes (in TABLE_DESIGN's order) to declare; all by default. DynamoDB adds
   * one index per table update, so a table deployed before the later indexes existed is brought up
   * one index per deploy (`-c tableIndexes=N`, docs/operations.md).
   */
  tableIndexes?: number;
}

/**
 * Everything that holds data: the table, the buckets and queues of `resources.ts` (one construct per
 * entry), the signing secret.
 */
/** Days a noncurrent object version (overwritten or deleted) is kept in the data buckets. */
export const NONCURRENT_VERSION_DAYS = 30;

export class StatefulStack extends Stack {
  readonly table: TableV2;
  readonly buckets = new Map<ResourceNameOfKind<'bucket'>, Bucket>();
  readonly queues = new Map<ResourceNameOfKind<'queue'>, Queue>();
  readonly signingSecret: Secret;
  readonly originVerifySecret: Secret;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const retain = props.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const names = auxiliaryNames(props.stage);

    const { partitionKey, sortKey, indexes, ttlAttribute } = TABLE_DESIGN;
    this.table = new TableV2(this, 'Table', {
      tableName: resourceName(props.stage, 'table'),
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      deletionProtection: props.stage === 'prod',
      removalPolicy: retain,
      globalSecondaryIndexes: Object.values(indexes)
        .slice(0, props.tableIndexes ?? Object.keys(indexes).length)
        .map((index) => ({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
          sortKey: { name: index.sortKey, type: AttributeType.STRING },
          ...projectionOf(index.projection),
        })),
    });

    const accessLogs = new Bucket(this, 'AccessLogsBucket', {
      bucketName: names.accessLogsBucket,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: retain,
      autoDeleteObjects: props.stage !== 'prod',
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket; logging it into itself would loop.',
    });
    // The viewer's bucket lives in the stateless stack, which cannot add this grant to an imported
    // bucket: its logs go under viewer/, from buckets of this account.
    accessLogs.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('logging.s3.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [accessLogs.arnForObjects(`${VIEWER_ACCESS_LOG_PREFIX}*`)],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );

    for (const [name, definition] of resourcesOfKind('bucket')) {
      const constructId = pascal(name);
      this.buckets.set(
        name,
        new Bucket(this, constructId, {
          bucketName: physicalName(props.stage, definition),
          blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
          encryption: BucketEncryption.S3_MANAGED,
          enforceSSL: true,
          // An overwritten or deleted object (a source, a result, an index file) can be brought back
          // for a month; noncurrent versions go after it.
          versioned: true,
          serverAccessLogsBucket: accessLogs,
          serverAccessLogsPrefix: `${constructId}/`,
          lifecycleRules: [
            // A job's uploads may take its whole upload window: an unfinished multipart upload goes a day after.
            { abortIncompleteMultipartUploadAfter: Duration.days(UPLOAD_WINDOW_DAYS + 1) },
            { noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS) },
            ...(definition.scratch
              ? [{ prefix: definition.scratch.prefix, expiration: Duration.days(definition.scratch.days) }]
              : []),
          ],
          removalPolicy: retain,
          autoDeleteObjects: props.stage !== 'prod',
          // Browsers upload straight to signed URLs and must read each part's ETag.
          ...(definition.browserUploads
            ? {
                cors: [
                  {
                    allowedMethods: [HttpMethods.PUT],
                    allowedOrigins: ['*'],
                    allowedHeaders: ['*'],
                    exposedHeaders: ['ETag'],
                    maxAge: 3600,
                  },
                ],
              }
            : {}),
        }),
      );
    }

    for (const [name, definition] of resourcesOfKind('queue')) {
      const queueName = physicalName(props.stage, definition);
      const constructId = pascal(name);
      const deadLetterQueue = new Queue(this, `${constructId}DeadLetterQueue`, {
        queueName: names.deadLetterQueue(queueName),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
        removalPolicy: retain,
      });
      whenAny(
        this,
        `${constructId}DeadLetterAlarm`,
        deadLetterQueue.metricApproximateNumberOfMessagesVisible(),
        `Messages of ${queueName} that failed every attempt (docs/operations.md)`,
      );
      Validations.of(deadLetterQueue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: `This queue is itself the dead-letter queue of ${queueName}.`,
      });
      this.queues.set(
        name,
        new Queue(this, constructId, {
          queueName,
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
          deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
          removalPolicy: retain,
        }),
      );
    }

    this.signingSecret = new Secret(this, 'CursorSigningSecret', {
      secretName: resourceName(props.stage, 'signingKey'),
      description: RESOURCES.signingKey.description,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      // In prod the key outlives the stack: deleting it would invalidate every cursor and artifact path.
      removalPolicy: retain,
    });
    this.originVerifySecret = new Secret(this, 'OriginVerifySecret', {
      secretName: resourceName(props.stage, 'originVerify'),
      description: RESOURCES.originVerify.description,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: retain,
    });
    Validations.of(this.originVerifySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A shared value between CloudFront and the API, never given to clients; rotate by redeploying both stacks (the distribution reads it at deploy).',
    });
    Validations.of(this.signingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Signs short-lived cursors, upload tokens and artifact paths; rotating it invalidates those in flight (clients list or register again). Rotate by redeploying.',
    });
  }
}
