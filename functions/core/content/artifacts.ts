import { SealedBox } from '../signing/sealed-box.ts';
import type { ArtifactReference } from './model.ts';

/**
 * Artifact paths are opaque and unforgeable: the storage key encrypted and authenticated by a
 * `SealedBox`, bound to the project (or job) the path was issued for; nothing of the storage layout
 * shows. A path from another project, an altered path or a
 * constructed one fails verification, so only artifacts a response of that project exposed can be
 * downloaded through it.
 */
export class ArtifactPaths {
  private readonly box: SealedBox;

  constructor(key: string) {
    this.box = new SealedBox(key, 'artifact');
  }

  issue(scope: string, storageKey: string): string {
    return this.box.seal(storageKey, scope);
  }

  /** The storage key, or null when the path was not issued for this scope (or was altered at all). */
  resolve(scope: string, path: string): string | null {
    return this.box.open(path, scope, 2048);
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
