import { createHash } from 'node:crypto';
import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore } from '../../core/pipeline/ports.ts';

function status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** Largest object whose bytes a store keeps for the next read of the same key. */
const KEPT_OBJECT_MAX_BYTES = 256 * 1024 * 1024;

export class S3ObjectStore implements ObjectStore {
  protected readonly client: S3Client;
  protected readonly bucket: string;
  private readonly keepLast: boolean;
  /** The last object read, kept when `keepLast`: its next read is a conditional GET (304: these bytes). */
  private last: { key: string; etag: string; bytes: Uint8Array } | undefined;

  /**
   * `keepLast`: keep the last object read (the uploads store: a function that extracts several page
   * batches of one file reads the same bytes each time). A kept object is read again only when its
   * ETag changed; callers must not modify the bytes they get.
   */
  constructor(client: S3Client, bucket: string, options: { keepLast?: boolean } = {}) {
    this.client = client;
    this.bucket = bucket;
    this.keepLast = options.keepLast ?? false;
  }

  async getBytes(key: string): Promise<Uint8Array> {
    const kept = this.last?.key === key ? this.last : undefined;
    let result: GetObjectCommandOutput;
    try {
      result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(kept ? { IfNoneMatch: kept.etag } : {}) }),
      );
    } catch (error) {
      if (kept && status(error) === 304) return kept.bytes;
      throw error;
    }
    if (!result.Body) throw new Error(`Object ${key} has no body`);
    const bytes = await result.Body.transformToByteArray();
    if (this.keepLast && result.ETag && bytes.byteLength <= KEPT_OBJECT_MAX_BYTES)
      this.last = { key, etag: result.ETag, bytes };
    return bytes;
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
