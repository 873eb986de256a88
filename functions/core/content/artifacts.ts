import { HmacSigner } from '../signing/signer.ts';
import type { ArtifactReference } from './model.ts';

/**
 * Artifact paths are opaque and unforgeable: the storage key sealed by the one `HmacSigner`, whose MAC binds the
 * project (or job) the path was issued for. A path from another project, an altered path or a
 * constructed one fails verification, so only artifacts a response of that project exposed can be
 * downloaded through it.
 */
export class ArtifactPaths {
  private readonly signer: HmacSigner;

  constructor(key: string) {
    this.signer = new HmacSigner(key, 'artifact');
  }

  issue(scope: string, storageKey: string): string {
    return this.signer.seal(storageKey, scope);
  }

  /** The storage key, or null when the path was not issued for this scope. */
  resolve(scope: string, path: string): string | null {
    return this.signer.open(path, scope, 2048);
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
