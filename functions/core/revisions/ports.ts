import type { Sheet } from '../../engine/model.ts';
import type { ContentFingerprint } from './model.ts';

/**
 * A stored drawing sheet as revision matching reads it: the fields `sheetForMatching` needs, where it sits
 * (its file, its document's job) and its links. Read with a projection, never the whole row.
 */
export interface MatchableSheet
  extends Pick<Sheet, 'sheetNumber' | 'confidence' | 'sheetTitle' | 'discipline' | 'revisions' | 'pageSize'> {
  sheetId: string;
  fileId: string;
  documentId: string;
  fileName: string;
  /** Absent on sheets stored before fingerprints were: matched by number and title only. */
  fingerprint: ContentFingerprint | null;
  /** The job of the sheet's document; null when the document row is gone (the sheet is left out). */
  jobId: string | null;
  revisionOf: { sheetId: string; confidence: number } | null;
  supersededBy: string | null;
}

/** What linking one sheet to its earlier printing found. */
export type LinkOutcome =
  /** Both rows say it now (or already said it: a retried step). */
  | { kind: 'linked' }
  /** The earlier sheet is superseded by another sheet already (another job linked first). */
  | { kind: 'already_superseded'; by: string }
  /** The new sheet already revises another sheet (an earlier attempt linked it). */
  | { kind: 'already_revises'; sheetId: string }
  /** One of the two rows is gone (its file deleted or reprocessed meanwhile). */
  | { kind: 'missing' };

export interface RevisionStore {
  /** One file's drawing sheets. */
  sheetsOfFile(projectId: string, fileId: string): Promise<MatchableSheet[]>;
  /**
   * The project's sheets a new file's sheets may revise: the current ones, and those a sheet of `fileId`
   * supersedes already (so that a retried step finds what it linked before).
   */
  candidateSheets(projectId: string, options: { fileId: string }): Promise<MatchableSheet[]>;
  /** One sheet's links and job; null when it is gone. */
  sheetLinks(
    projectId: string,
    sheetId: string,
  ): Promise<Pick<MatchableSheet, 'sheetId' | 'jobId' | 'supersededBy'> | null>;
  /**
   * Records, in one conditional write, that `sheetId` revises `previousSheetId` (on the new row:
   * `revisionOf`) and that the earlier one is superseded (on its row: `supersededBy`). Writes only when the
   * earlier sheet is current and the new one revises nothing yet; a link already written is `linked`.
   */
  link(
    projectId: string,
    link: { previousSheetId: string; sheetId: string; confidence: number },
  ): Promise<LinkOutcome>;
}
