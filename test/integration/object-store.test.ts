import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../functions/adapters/s3/object-store.ts';
import { s3 } from '../../functions/shared/clients.ts';
import { uniqueName } from './helpers.ts';

describe('an object store that keeps the last object read', () => {
  it('answers a second read of an unchanged object with the kept bytes, and reads a changed one again', async () => {
    // Prepare
    const bucket = process.env.UPLOADS_BUCKET ?? '';
    const key = `test/${uniqueName('kept')}.bin`;
    const put = (text: string) =>
      s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: new TextEncoder().encode(text) }));
    await put('first version');
    const store = new S3ObjectStore(s3, bucket, { keepLast: true });

    // Act
    const first = await store.getBytes(key);
    const again = await store.getBytes(key);
    await put('second version, longer');
    const changed = await store.getBytes(key);

    // Assess
    expect(new TextDecoder().decode(first)).toBe('first version');
    expect(again).toBe(first);
    expect(new TextDecoder().decode(changed)).toBe('second version, longer');
  });
});
