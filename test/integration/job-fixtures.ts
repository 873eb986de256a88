import { expect } from 'vitest';
import { S3ObjectStore } from '../../functions/adapters/s3/object-store.ts';
import { newId } from '../../functions/core/ids.ts';
import type { JobFileRecord, OwnedJob } from '../../functions/core/jobs/model.ts';
import { objectKeys } from '../../functions/core/storage-keys.ts';
import { s3 } from '../../functions/shared/clients.ts';
import { jobStore, organizationStore } from '../../functions/shared/wiring/adapters.ts';
import { sha256Hex } from '../fixtures/pdfs.ts';
import { api, createOrg, createProject, waitForProject } from './helpers.ts';

/**
 * A job with its files written as registration and completion leave them (uploaded, the job
 * `preflighting`), its state machine not started: for tests that run the pipeline's steps or
 * machine themselves.
 */
export async function preflightingJob(files: Record<string, { bytes: Uint8Array; declared?: Uint8Array }>) {
  const org = await createOrg(10_000);
  const projectId = (await createProject(org.apiKey, 'Steps')).body.project.id;
  await waitForProject(org.apiKey, projectId);
  const jobId = (
    await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key: org.apiKey, body: {} })
  ).body.job.id as string;
  const jobs = jobStore();
  const job = (await jobs.get(org.orgId, jobId)) as OwnedJob;
  const uploads = new S3ObjectStore(s3, process.env.UPLOADS_BUCKET ?? '');
  const records: JobFileRecord[] = [];
  for (const [fileName, { bytes, declared }] of Object.entries(files)) {
    const id = newId('fil');
    const objectKey = objectKeys.uploadedFile({ ...job, jobId }, id);
    await uploads.putBytes(objectKey, bytes, 'application/pdf');
    const now = new Date().toISOString();
    records.push({
      id,
      documentId: newId('doc'),
      jobId,
      orgId: org.orgId,
      projectId,
      fileName,
      contentType: 'application/pdf',
      fileSize: bytes.length,
      sha256: sha256Hex(declared ?? bytes),
      classification: 'other',
      classificationDeclared: false,
      pageCount: 0,
      successfulPageCount: 0,
      status: 'processing',
      uploadStatus: 'uploaded',
      error: null,
      objectKey,
      uploadMode: 'direct_put',
      multipartUploadId: null,
      partSize: null,
      duplicateOfDocumentId: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  expect(await jobs.addFiles(job, records, { maxDeclaredBytes: 1e10, maxFiles: 1000 })).toBe('added');
  expect(await jobs.transition(org.orgId, jobId, ['awaiting_uploads'], 'preflighting')).toBe(true);
  const byName = Object.fromEntries(records.map((record) => [record.fileName, record]));
  return { org, projectId, jobId, files: byName };
}

export async function credits(orgId: string): Promise<number> {
  return (await organizationStore().balance(orgId)) ?? Number.NaN;
}
