import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
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
import { TABLE_DESIGN } from '../functions/adapters/dynamodb/table.ts';
import { resourceNames } from './resource-names.ts';

export interface StatefulStackProps extends StackProps {
  stage: string;
}

/** Everything that holds data: the table, the buckets, the queues, the cursor signing secret. */
export class StatefulStack extends Stack {
  readonly table: TableV2;
  readonly uploadsBucket: Bucket;
  readonly artifactsBucket: Bucket;
  readonly indexBucket: Bucket;
  readonly webhookQueue: Queue;
  readonly cursorSecret: Secret;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const retain = props.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const names = resourceNames(props.stage);

    const { partitionKey, sortKey, indexes, ttlAttribute } = TABLE_DESIGN;
    this.table = new TableV2(this, 'Table', {
      tableName: names.table,
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      deletionProtection: props.stage === 'prod',
      removalPolicy: retain,
      globalSecondaryIndexes: Object.values(indexes).map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
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

    const bucket = (
      name: string,
      bucketName: string,
      extra: Partial<ConstructorParameters<typeof Bucket>[2]> = {},
    ) =>
      new Bucket(this, name, {
        bucketName,
        blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
        encryption: BucketEncryption.S3_MANAGED,
        enforceSSL: true,
        serverAccessLogsBucket: accessLogs,
        serverAccessLogsPrefix: `${name}/`,
        lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
        removalPolicy: retain,
        autoDeleteObjects: props.stage !== 'prod',
        ...extra,
      });

    this.uploadsBucket = bucket('UploadsBucket', names.uploadsBucket, {
      // Browsers upload straight to signed URLs and must read each part's ETag.
      cors: [
        {
          allowedMethods: [HttpMethods.PUT],
          allowedOrigins: ['*'],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
    });
    this.artifactsBucket = bucket('ArtifactsBucket', names.artifactsBucket);
    this.indexBucket = bucket('IndexBucket', names.indexBucket);

    const webhookDlq = new Queue(this, 'WebhookDeadLetterQueue', {
      queueName: names.webhookDeadLetterQueue,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(webhookDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the webhook queue.',
    });
    this.webhookQueue = new Queue(this, 'WebhookQueue', {
      queueName: names.webhookQueue,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(120),
      deadLetterQueue: { queue: webhookDlq, maxReceiveCount: 8 },
    });

    this.cursorSecret = new Secret(this, 'CursorSigningSecret', {
      secretName: names.cursorSecret,
      description: 'HMAC key that signs pagination cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Signs short-lived pagination cursors only; rotating it just invalidates open cursors (clients restart from page one). Rotate by redeploying.',
    });
  }
}
