import { Tracer } from '@aws-lambda-powertools/tracer';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * SDK clients, built once per cold start. Endpoints come from the standard
 * `AWS_ENDPOINT_URL_<SERVICE>` variables, which is how the local stack points them at emulators.
 * Every client is captured by Powertools Tracer, so each SDK call is a subsegment of the function's
 * X-Ray trace (outside Lambda the tracer is off and hands the client back as it is).
 */
export const tracer = new Tracer({ serviceName: 'project-source-api' });

/** A client whose calls appear in the function's X-Ray trace. */
export const traced = <Client>(client: Client): Client => tracer.captureAWSv3Client(client);

export const dynamo = DynamoDBDocumentClient.from(traced(new DynamoDBClient({})), {
  marshallOptions: { removeUndefinedValues: true },
});

export const s3 = traced(
  new S3Client({
    // Without this the SDK bakes a CRC32 of the empty body into presigned URLs (see LOCAL-STACK.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3),
  }),
);

export const sfn = traced(new SFNClient({}));

// With a local endpoint, send to it rather than to the host inside each queue URL.
export const sqs = traced(new SQSClient({ useQueueUrlAsEndpoint: !process.env.AWS_ENDPOINT_URL_SQS }));

export const secretsManager = traced(new SecretsManagerClient({}));
