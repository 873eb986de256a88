import type { ArtifactDownload } from '../../core/content/downloads.ts';
import type { ApiResponse } from './api-handler.ts';

/** Small artifacts are returned inline; large ones redirect to a short-lived signed storage URL. */
export function downloadResponse(download: ArtifactDownload): ApiResponse {
  if (download.kind === 'redirect')
    return { status: 302, body: null, headers: { location: download.url, 'cache-control': 'no-store' } };
  return {
    status: 200,
    body: download.bytes,
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${download.fileName.replace(/[^\w.-]/g, '_')}"`,
      'cache-control': 'private, max-age=300',
    },
  };
}
