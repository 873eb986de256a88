import { describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/ids.ts';
import type { JobRecord } from '../../functions/core/jobs/model.ts';
import { jobStore } from '../../functions/shared/wiring/adapters.ts';

function job(orgId: string): JobRecord {
  const now = new Date().toISOString();
  return {
    orgId,
    id: newId('job'),
    projectId: newId('prj'),
    projectName: 'p',
    displayName: 'd',
    externalId: null,
    status: 'processing',
    declaredBytes: 0,
    fileCount: 0,
    pageCount: 10,
    successfulPageCount: 0,
    failedPageCount: 0,
    progress: {
      processedPages: 0,
      totalPages: 10,
      percent: 0,
      phase: 'processing',
      message: '',
      updatedAt: now,
    },
    creditsReserved: 0,
    creditsDebited: 0,
    error: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    expiresAt: now,
  };
}

describe('DynamoJobStore against DynamoDB Local', () => {
  it('adds processed pages atomically and moves percent, capped below 100 until completion', async () => {
    const record = job(newId('org'));
    await jobStore().create(record);

    await Promise.all([
      jobStore().addProgress(record.orgId, record.id, 3),
      jobStore().addProgress(record.orgId, record.id, 2),
    ]);
    const half = await jobStore().get(record.orgId, record.id);
    await jobStore().addProgress(record.orgId, record.id, 5);
    const full = await jobStore().get(record.orgId, record.id);

    expect(half?.progress).toMatchObject({
      processedPages: 5,
      percent: 50,
      message: 'Processed 5 of 10 pages.',
    });
    expect(full?.progress).toMatchObject({ processedPages: 10, percent: 99 });
  });

  it('moves a job between statuses only from the expected ones', async () => {
    const record = job(newId('org'));
    await jobStore().create(record);
    expect(await jobStore().transition(record.orgId, record.id, ['uploading'], 'preflighting')).toBe(false);
    expect(await jobStore().transition(record.orgId, record.id, ['processing'], 'completed')).toBe(true);
    expect((await jobStore().get(record.orgId, record.id))?.status).toBe('completed');
  });
});
