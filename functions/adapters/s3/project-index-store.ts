import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ProjectIndexStore } from '../../core/projects/ports.ts';
import { objectKeys } from '../../core/storage-keys.ts';

/**
 * Each project's source index lives under its own prefix of the index bucket. Provisioning writes
 * the manifest of an empty index; ingestion adds segments next to it.
 */
export class S3ProjectIndexStore implements ProjectIndexStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  async createIndex(orgId: string, projectId: string): Promise<string> {
    const prefix = objectKeys.sourceIndex({ orgId, projectId });
    const manifest = { schemaVersion: 1, projectId, segments: [], createdAt: new Date().toISOString() };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${prefix}manifest.json`,
        Body: JSON.stringify(manifest),
        ContentType: 'application/json',
      }),
    );
    return `s3://${this.bucket}/${prefix}`;
  }
}
