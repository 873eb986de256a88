import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ArtifactReference } from './model.ts';

/**
 * Artifact paths are opaque and unforgeable: `base64url(storage key).hmac`, where the MAC binds the
 * project (or job) the path was issued for. A path from another project, an altered path or a
 * constructed one fails verification, so only artifacts a response of that project exposed can be
 * downloaded through it.
 */
export class ArtifactPaths {
  private readonly key: string;

  constructor(key: string) {
    this.key = key;
  }

  private mac(scope: string, storageKey: string): Buffer {
    return createHmac('sha256', `artifact:${this.key}`)
      .update(`${scope}\n${storageKey}`)
      .digest()
      .subarray(0, 18);
  }

  issue(scope: string, storageKey: string): string {
    return `${Buffer.from(storageKey).toString('base64url')}.${this.mac(scope, storageKey).toString('base64url')}`;
  }

  /** The storage key, or null when the path was not issued for this scope. */
  resolve(scope: string, path: string): string | null {
    if (path.length > 2048) return null;
    const [encoded, signature, extra] = path.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    const storageKey = Buffer.from(encoded, 'base64url').toString('utf8');
    const expected = this.mac(scope, storageKey);
    const presented = Buffer.from(signature, 'base64url');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
    return storageKey;
  }

  projectReference(
    projectId: string,
    type: ArtifactReference['type'],
    storageKey: string,
  ): ArtifactReference {
    const path = this.issue(`project:${projectId}`, storageKey);
    return {
      type,
      url: `/api/open/v1/projects/${projectId}/artifact?path=${encodeURIComponent(path)}`,
      path,
      readWith: 'service_show_artifact_file',
    };
  }

  jobReference(jobId: string, type: ArtifactReference['type'], storageKey: string): ArtifactReference {
    const path = this.issue(`job:${jobId}`, storageKey);
    return {
      type,
      url: `/api/open/v1/jobs/${jobId}/artifact?path=${encodeURIComponent(path)}`,
      path,
      readWith: 'service_show_artifact_file',
    };
  }
}
