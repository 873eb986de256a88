import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectInfo, UploadStorage } from '../../core/jobs/ports.ts';
import { S3ObjectStore } from './object-store.ts';

/**
 * The uploads bucket: signed uploads straight to it, and the uploaded bytes read back by the pipeline.
 * A direct PUT URL signs `content-type` and `x-amz-checksum-sha256` (kept as headers, not hoisted into
 * the query), so storage itself refuses any other type or bytes. Each part URL signs its exact
 * `content-length`. Reads keep the last object read (a function that extracts several page batches
 * of one file reads the same bytes each time).
 */
export class S3UploadStorage extends S3ObjectStore implements UploadStorage {
  constructor(client: S3Client, bucket: string) {
    super(client, bucket, { keepLast: true });
  }

  async signingLifetimeSeconds(): Promise<number | null> {
    const credentials = await this.client.config.credentials();
    if (!credentials.expiration) return null;
    // A minute of margin; never less than a minute (the SDK renews credentials well before they expire).
    return Math.max(60, Math.floor((credentials.expiration.getTime() - Date.now()) / 1000) - 60);
  }

  async presignPut(input: {
    key: string;
    contentType: string;
    sha256Base64: string;
    expiresInSeconds: number;
  }) {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ContentType: input.contentType,
      ChecksumSHA256: input.sha256Base64,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: input.expiresInSeconds,
      signableHeaders: new Set(['content-type', 'x-amz-checksum-sha256']),
      unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
    });
    return {
      url,
      headers: { 'content-type': input.contentType, 'x-amz-checksum-sha256': input.sha256Base64 },
    };
  }

  async createMultipart(input: { key: string; contentType: string }): Promise<string> {
    const result = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: input.key,
        ContentType: input.contentType,
      }),
    );
    if (!result.UploadId) throw new Error('Storage returned no UploadId');
    return result.UploadId;
  }

  async abortMultipart(input: { key: string; uploadId: string }): Promise<void> {
    await this.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: input.key, UploadId: input.uploadId }),
    );
  }

  async presignPart(input: {
    key: string;
    uploadId: string;
    partNumber: number;
    contentLength: number;
    expiresInSeconds: number;
  }) {
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: input.key,
      UploadId: input.uploadId,
      PartNumber: input.partNumber,
      ContentLength: input.contentLength,
    });
    const url = await getSignedUrl(this.client, command, {
      expiresIn: input.expiresInSeconds,
      signableHeaders: new Set(['content-length']),
    });
    return { url, headers: { 'content-length': String(input.contentLength) } };
  }

  async completeMultipart(input: {
    key: string;
    uploadId: string;
    parts: { partNumber: number; etag: string }[];
  }) {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: input.key,
        UploadId: input.uploadId,
        MultipartUpload: {
          Parts: input.parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
        },
      }),
    );
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(result.ContentLength ?? 0) };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey')
        return null;
      throw error;
    }
  }
}
