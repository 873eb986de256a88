import { describe, expect, it } from 'vitest';
import { completeUploads } from '../../functions/core/jobs/complete-uploads.ts';
import {
  jobStore,
  processingStarter,
  uploadStorage,
  uploadTokens,
} from '../../functions/shared/wiring/adapters.ts';
import { sha256Hex, specificationPdf } from '../fixtures/pdfs.ts';
import { api, createOrgWithJob } from './helpers.ts';

describe('upload tokens', () => {
  it('expire with their registration, and a new registration issues a new one', async () => {
    // Prepare
    const { org, jobId } = await createOrgWithJob('Tokens');
    const bytes = await specificationPdf();
    const declaration = {
      files: [
        {
          fileName: 'a.pdf',
          contentType: 'application/pdf',
          fileSize: bytes.length,
          sha256: sha256Hex(bytes),
        },
      ],
    };
    const first = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: declaration,
    });
    const second = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: declaration,
    });
    const upload = first.body.uploads[0];
    const deps = {
      jobs: jobStore(),
      storage: uploadStorage(),
      tokens: await uploadTokens(),
      processing: processingStarter(),
    };
    const uploads = {
      directUploads: [{ documentId: upload.documentId, uploadToken: upload.uploadToken }],
      multipartUploads: [],
    };

    // Act: complete one second after the registration's expiry.
    const late = completeUploads(deps, {
      orgId: org.orgId,
      jobId,
      uploads,
      now: new Date(Date.parse(upload.expiresAt) + 1000),
    });

    // Assess
    await expect(late).rejects.toMatchObject({ code: 'upload_token_expired' });
    await expect(late).rejects.toThrow(/Register the files again/);
    expect(second.body.uploads[0].documentId).toBe(upload.documentId);
    expect(second.body.uploads[0].uploadToken).not.toBe(upload.uploadToken);
  });
});
