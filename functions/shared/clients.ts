import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * SDK clients, built once per cold start. Endpoints come from the standard
 * `AWS_ENDPOINT_URL_<SERVICE>` variables, which is how the local stack points them at emulators.
 */
export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const s3 = new S3Client({
  // Without this the SDK bakes a CRC32 of the empty body into presigned URLs (see LOCAL-STACK.md).
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3),
});

export const sfn = new SFNClient({});

// With a local endpoint, send to it rather than to the host inside each queue URL.
export const sqs = new SQSClient({ useQueueUrlAsEndpoint: !process.env.AWS_ENDPOINT_URL_SQS });
