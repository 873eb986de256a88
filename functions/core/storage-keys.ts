/**
 * THE layout of object keys in the buckets, as `adapters/dynamodb/table.ts` is for table keys.
 * Everything an organization stores sits under `orgs/{orgId}/projects/{projectId}/`, except the
 * pipeline's intermediate page batches (`work/`), which are never served.
 */
interface ProjectOwner {
  orgId: string;
  projectId: string;
}
interface FileOwner extends ProjectOwner {
  fileId: string;
}

/** Artifacts bucket: the pipeline's scratch (page batches), expired by a lifecycle rule. */
export const WORK_PREFIX = 'work/';

const project = (owner: ProjectOwner) => `orgs/${owner.orgId}/projects/${owner.projectId}/`;

export const objectKeys = {
  /** Prefix of everything the project owns (a served key must lie under its own project's prefix). */
  projectPrefix: project,
  /** Uploads bucket: the bytes a client PUT for one registered file. */
  uploadedFile: (owner: ProjectOwner & { jobId: string }, fileId: string) =>
    `${project(owner)}jobs/${owner.jobId}/files/${fileId}/source`,
  /** Artifacts bucket: one batch of extracted pages, kept for assembly. */
  pageBatch: (jobId: string, fileId: string, fromPage: number) =>
    `${WORK_PREFIX}${jobId}/${fileId}/${String(fromPage).padStart(5, '0')}.json`,
  /** Artifacts bucket: the pages of a batch done so far, when its task ran out of time (resumed next run). */
  pageBatchPart: (jobId: string, fileId: string, fromPage: number) =>
    `${WORK_PREFIX}${jobId}/${fileId}/${String(fromPage).padStart(5, '0')}.part.json`,
  /**
   * Artifacts bucket: a review execution's conversation as one step left it (scratch: the state
   * machine passes this key, never the conversation, which outgrows its 256 KB payload limit).
   */
  reviewConversation: (executionId: string, step: string) =>
    `${WORK_PREFIX}reviews/${executionId}/${step}.json`,
  /** Artifacts bucket: the PNG crop of one region. */
  regionCrop: (owner: FileOwner, regionId: string) =>
    `${project(owner)}files/${owner.fileId}/regions/${regionId}.png`,
  /** Artifacts bucket: the PDF of one specification section. */
  sectionPdf: (owner: FileOwner, sectionId: string) =>
    `${project(owner)}files/${owner.fileId}/sections/${sectionId}.pdf`,
  /** Artifacts bucket: the searchable passages of one assembled file, read by indexing and reconcile. */
  fileSources: (owner: FileOwner) => `${project(owner)}files/${owner.fileId}/sources.json`,
  /** Artifacts bucket: the immutable result of a finished job. */
  jobResult: (owner: ProjectOwner, jobId: string) => `${project(owner)}jobs/${jobId}/result.json`,
  /** Index bucket: the project's source index. */
  sourceIndex: (owner: ProjectOwner) => `${project(owner)}index/`,
};
