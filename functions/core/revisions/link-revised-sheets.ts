import { matchRevisedSheets } from './match-revised-sheets.ts';
import type { RevisionMatch } from './model.ts';
import type { MatchableSheet, RevisionStore } from './ports.ts';
import { storedSheetForMatching } from './sheet-for-matching.ts';

/**
 * The confidence a match needs before the earlier sheet is marked superseded. A wrong supersession hides a
 * sheet from the default listings; a missed one leaves both printings listed: the floor leans to missing.
 * 0.8 is odds of four to one against every other outcome together: a number read surely on both sides and
 * equal reaches it alone (log-odds 2.5, 0.92), a number equal only once look-alikes are folded (1.0, 0.73)
 * needs the title or the content to agree, and a sheet that two held sheets fit about equally (a look-alike
 * pair of a set) shares its confidence between them and stays unlinked.
 */
export const REVISION_CONFIDENCE_FLOOR = 0.8;

/** Links followed along a chain of printings before giving up (a chain is as long as a sheet's revisions). */
const MAX_CHAIN_STEPS = 50;

export interface LinkRevisedSheetsDeps {
  revisions: RevisionStore;
  log: { info(message: string, attributes?: Record<string, unknown>): void };
}

export interface RevisionLink {
  sheetId: string;
  revisionOf: { sheetId: string; confidence: number };
}

/** The matches to link: those that name an earlier sheet with a confidence at or above the floor. */
export const confidentMatches = (
  matches: readonly RevisionMatch[],
  floor: number = REVISION_CONFIDENCE_FLOOR,
): { sheetId: string; previousSheetId: string; confidence: number }[] =>
  matches.flatMap((match) =>
    match.previousSheetId !== null && match.confidence >= floor
      ? [{ sheetId: match.sheetId, previousSheetId: match.previousSheetId, confidence: match.confidence }]
      : [],
  );

const forMatching = (sheet: MatchableSheet) =>
  storedSheetForMatching({
    id: sheet.sheetId,
    sheet,
    fileName: sheet.fileName,
    fingerprint: sheet.fingerprint,
  });

/**
 * Record which sheets of a newly written file revise sheets the project already holds.
 * Input: projectId, jobId, fileId (a file whose content rows are written).
 * Output: the links made or found (a new sheet and the sheet it revises, with the match's confidence), and
 * how many of the file's sheets revise nothing sure enough (they stay current beside the others).
 * Steps: read the file's sheets and the project's candidates (current sheets of documents of other jobs:
 * the sheets of one job are one issue of the set, never revisions of each other), both with a projection;
 * a sheet an earlier attempt linked keeps its link (and its earlier sheet is no candidate); match the rest
 * one to one (`matchRevisedSheets`); link each match at or above REVISION_CONFIDENCE_FLOOR in one conditional
 * write of both rows. When another job superseded the earlier sheet first, the chain is followed to its
 * current printing and the new sheet is linked after it, so a sheet's printings stay one line whatever the
 * order the jobs finish in (the later link is the current one).
 */
export async function linkRevisedSheets(
  deps: LinkRevisedSheetsDeps,
  input: { projectId: string; jobId: string; fileId: string },
): Promise<{ links: RevisionLink[]; unlinked: number }> {
  const own = await deps.revisions.sheetsOfFile(input.projectId, input.fileId);
  if (own.length === 0) return { links: [], unlinked: 0 };
  const links: RevisionLink[] = own.flatMap((sheet) =>
    sheet.revisionOf ? [{ sheetId: sheet.sheetId, revisionOf: sheet.revisionOf }] : [],
  );
  const taken = new Set(links.map((link) => link.revisionOf.sheetId));
  const uploaded = own.filter((sheet) => sheet.revisionOf === null);
  const held = (await deps.revisions.candidateSheets(input.projectId, { fileId: input.fileId })).filter(
    (sheet) =>
      sheet.jobId !== null &&
      sheet.jobId !== input.jobId &&
      sheet.fileId !== input.fileId &&
      !taken.has(sheet.sheetId),
  );
  if (uploaded.length === 0 || held.length === 0) return { links, unlinked: uploaded.length };

  const matches = matchRevisedSheets({ held: held.map(forMatching), uploaded: uploaded.map(forMatching) });
  for (const match of confidentMatches(matches)) {
    const previous = await linkAfterChain(deps, input, match);
    if (previous)
      links.push({ sheetId: match.sheetId, revisionOf: { sheetId: previous, confidence: match.confidence } });
  }
  const unlinked = own.length - links.length;
  deps.log.info('Revised sheets linked', {
    fileId: input.fileId,
    sheets: own.length,
    candidates: held.length,
    linked: links.length,
  });
  return { links, unlinked };
}

/**
 * Links the new sheet to its earlier printing, or, when another job got there first, to the printing
 * that superseded it (and so on to the chain's current end). Returns the sheet linked to, or null when
 * none could be: a row is gone, the chain ends in a sheet of this same job, or the new sheet revises
 * another sheet already.
 */
async function linkAfterChain(
  deps: LinkRevisedSheetsDeps,
  input: { projectId: string; jobId: string },
  match: { sheetId: string; previousSheetId: string; confidence: number },
): Promise<string | null> {
  let previous = match.previousSheetId;
  const seen = new Set<string>();
  for (let step = 0; step < MAX_CHAIN_STEPS && !seen.has(previous); step++) {
    seen.add(previous);
    const outcome = await deps.revisions.link(input.projectId, {
      previousSheetId: previous,
      sheetId: match.sheetId,
      confidence: match.confidence,
    });
    if (outcome.kind === 'linked') return previous;
    if (outcome.kind !== 'already_superseded') return null;
    const later = await deps.revisions.sheetLinks(input.projectId, outcome.by);
    if (!later || later.jobId === null || later.jobId === input.jobId) return null;
    previous = later.sheetId;
  }
  return null;
}
