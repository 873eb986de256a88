import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore } from '../../core/pipeline/ports.ts';

function status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  async getBytes(key: string): Promise<Uint8Array> {
    const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!result.Body) throw new Error(`Object ${key} has no body`);
    return result.Body.transformToByteArray();
  }

  async getVerifiedBytes(key: string, expected: { size: number }) {
    const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const body = result.Body as AsyncIterable<Uint8Array> | undefined;
    if (!body) throw new Error(`Object ${key} has no body`);
    const bytes = new Uint8Array(expected.size);
    const digest = createHash('sha256');
    let received = 0;
    for await (const chunk of body) {
      if (received + chunk.length > expected.size) {
        (body as { destroy?: () => void }).destroy?.();
        return { ok: false as const, reason: 'size_mismatch' as const };
      }
      bytes.set(chunk, received);
      digest.update(chunk);
      received += chunk.length;
    }
    if (received !== expected.size) return { ok: false as const, reason: 'size_mismatch' as const };
    return { ok: true as const, bytes, sha256: digest.digest('hex') };
  }

  async putBytes(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
  }

  async putImmutable(key: string, bytes: Uint8Array, contentType: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      if (status(error) === 412 || (error as Error).name === 'PreconditionFailed') return false;
      throw error;
    }
  }

  async getJson<T>(key: string): Promise<T | null> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const text = await result.Body?.transformToString('utf8');
      return text ? (JSON.parse(text) as T) : null;
    } catch (error) {
      if (status(error) === 404 || (error as Error).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.putBytes(key, new TextEncoder().encode(JSON.stringify(value)), 'application/json');
  }
}

/** Read side of the artifacts bucket for the download endpoints. */
export class S3ArtifactStorage {
  private readonly objects: S3ObjectStore;

  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
    this.objects = new S3ObjectStore(client, bucket);
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return Number(head.ContentLength ?? 0);
    } catch (error) {
      if (status(error) === 404 || (error as Error).name === 'NotFound') return null;
      throw error;
    }
  }

  get(key: string): Promise<Uint8Array> {
    return this.objects.getBytes(key);
  }

  presignGet(key: string, fileName: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: 'application/octet-stream',
        ResponseContentDisposition: `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
      }),
      { expiresIn: expiresInSeconds },
    );
  }
}
