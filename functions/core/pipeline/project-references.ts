import {
  type FileSheets,
  type NormalizedData,
  referenceTargets,
  type SheetReference,
  storedFileSheets,
  withTargets,
} from '../../engine/index.ts';
import type { DocumentRecord, RegionRecord } from '../content/model.ts';
import type { FileContent, ReferenceStore } from './ports.ts';
import { referenceKey, waitingKeys } from './waiting-sheets.ts';

/**
 * References across the files of a project. The engine resolves a callout (`5/A-501`) within its own
 * file; a reference to a sheet another file holds keeps a null target. At assembly, a file's
 * unresolved references are resolved against the sheets of the project's other files (the target then
 * names that document), and the references of earlier files that waited for a sheet this file brings
 * are resolved in turn: the target may arrive in a later job.
 *
 * Each document row lists the sheet keys its regions still reference without a target
 * (`unresolvedSheetRefs`), so a new file reads only the documents that wait for one of its sheets.
 * Two files of one project assembled at the same moment may each miss the other's sheets; the
 * normalize repair resolves again.
 */

type TargetOf = (reference: SheetReference) => SheetReference['target'];

/** Resolution against other documents: the first that holds the sheet, its id on the target. */
function acrossDocuments(layouts: { documentId: string; sheets: FileSheets[] }[]): TargetOf {
  const resolvers = layouts.map(({ documentId, sheets }) => ({
    documentId,
    targetOf: referenceTargets(sheets),
  }));
  return (reference) => {
    for (const { documentId, targetOf } of resolvers) {
      const target = targetOf(reference);
      if (target) return { ...target, documentId };
    }
    return null;
  };
}

/** Resolution against the sheets of every other file of the project that holds sheets. */
export async function otherDocumentsTargets(
  store: ReferenceStore,
  projectId: string,
  fileId: string,
  documents: readonly DocumentRecord[],
): Promise<TargetOf> {
  const others = documents.filter(
    (document) => document.fileId !== fileId && (document.contentSummary?.sheets ?? 0) > 0,
  );
  const layouts = await Promise.all(
    others.map(async (document) => {
      const layout = await store.fileLayout(projectId, document.fileId);
      return { documentId: document.documentId, sheets: storedFileSheets(layout.sheets, layout.views) };
    }),
  );
  return acrossDocuments(layouts);
}

/** The data with its unresolved references resolved by `targetOf` (resolved ones kept as they are). */
function resolveWaiting(data: NormalizedData, targetOf: TargetOf): NormalizedData {
  return withTargets(data, (reference) => reference.target ?? targetOf(reference));
}

/** A file's sheets and views as its rows say (what `fileLayout` reads back once they are written). */
const contentSheets = (content: FileContent): FileSheets[] =>
  storedFileSheets(
    content.sheets,
    content.regions
      .filter((region) => region.regionType === 'view')
      .map((region) => ({
        pageNumber: region.pageNumber,
        regionIndex: region.regionIndex,
        viewNumber: region.normalizedData?.viewNumber ?? null,
      })),
  );

const unresolvedCount = (data: NormalizedData) =>
  data.sheetReferences.filter((reference) => !reference.target).length;

const sheetKeysOf = (sheets: FileSheets[]) =>
  new Set(
    sheets.flatMap((sheet) =>
      sheet.sheetNumberNormalized ? [referenceKey(sheet.sheetNumberNormalized)] : [],
    ),
  );

/**
 * Before a file's rows are written: its references to sheets of the project's other files get those
 * targets, and its document row records the sheet keys still waiting.
 */
export async function linkFileReferences(
  store: ReferenceStore,
  projectId: string,
  content: FileContent,
  documents: () => Promise<DocumentRecord[]>,
): Promise<FileContent> {
  const waiting = waitingKeys(content.regions);
  if (waiting.length === 0) return { ...content, document: { ...content.document, unresolvedSheetRefs: [] } };
  const targetOf = await otherDocumentsTargets(store, projectId, content.document.fileId, await documents());
  const regions = content.regions.map((region) =>
    region.normalizedData
      ? { ...region, normalizedData: resolveWaiting(region.normalizedData, targetOf) }
      : region,
  );
  return {
    ...content,
    regions,
    document: { ...content.document, unresolvedSheetRefs: waitingKeys(regions) },
  };
}

/**
 * After a file's rows are written: the documents that waited for one of its sheets have those
 * references resolved (their regions' data saved, their waiting keys updated).
 * Input: the file's content as written, the project's documents (read once for both steps).
 * Output: the number of regions whose references changed.
 */
export async function resolveWaitingDocuments(
  store: ReferenceStore,
  projectId: string,
  content: FileContent,
  documents: () => Promise<DocumentRecord[]>,
): Promise<number> {
  const { document } = content;
  const sheets = contentSheets(content);
  const brought = sheetKeysOf(sheets);
  if (brought.size === 0) return 0;
  const waitingDocuments = (await documents()).filter(
    (candidate) =>
      candidate.documentId !== document.documentId &&
      (candidate.unresolvedSheetRefs ?? []).some((key) => brought.has(key)),
  );
  const targetOf = acrossDocuments([{ documentId: document.documentId, sheets }]);
  let changed = 0;
  for (const waiting of waitingDocuments) {
    const regions: RegionRecord[] = await store.regionsWithReferences(projectId, waiting.fileId);
    const updated = regions.flatMap((region) => {
      if (!region.normalizedData) return [];
      const data = resolveWaiting(region.normalizedData, targetOf);
      return unresolvedCount(data) < unresolvedCount(region.normalizedData) ? [{ region, data }] : [];
    });
    for (const { region, data } of updated) await store.saveNormalizedData(projectId, region, data);
    changed += updated.length;
    const after = new Map(updated.map(({ region, data }) => [region.regionId, data]));
    await store.setUnresolvedSheetRefs(
      projectId,
      waiting.documentId,
      waitingKeys(
        regions.map((region) => ({ normalizedData: after.get(region.regionId) ?? region.normalizedData })),
      ),
    );
  }
  return changed;
}
