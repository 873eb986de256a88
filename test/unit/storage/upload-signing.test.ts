import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { S3UploadStorage } from '../../../functions/adapters/s3/upload-storage.ts';

const storageSignedWith = (expiration?: Date) =>
  new S3UploadStorage(
    new S3Client({
      region: 'us-east-1',
      credentials: async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', expiration }),
    }),
    'uploads',
  );

describe('signed upload URLs', () => {
  it('last no longer than the credentials that sign them, with a minute of margin', async () => {
    // Act
    const temporary = await storageSignedWith(new Date(Date.now() + 10 * 60_000)).signingLifetimeSeconds();
    const nearlyExpired = await storageSignedWith(new Date(Date.now() + 30_000)).signingLifetimeSeconds();
    const permanent = await storageSignedWith().signingLifetimeSeconds();
    // Assess
    expect(temporary).toBeGreaterThanOrEqual(538);
    expect(temporary).toBeLessThanOrEqual(540);
    expect(nearlyExpired).toBe(60);
    expect(permanent).toBeNull();
  });
});
