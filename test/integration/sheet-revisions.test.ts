import { beforeAll, describe, expect, it } from 'vitest';
import { drawingSetPdf } from '../fixtures/pdfs.ts';
import { issuedSet, revisedSecondFloor } from '../fixtures/revised-set.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface ListedSheet {
  sheetId: string;
  fileName: string;
  sheetNumber: string | null;
  current: boolean;
  revisionOf: { sheetId: string; confidence: number } | null;
  supersededBy: string | null;
}

/** Every sheet of the listing, page by page (`limit` small, so the cursor is exercised). */
async function allSheets(key: string, projectId: string, query: string) {
  const sheets: ListedSheet[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const reply = await api(`/api/open/v1/projects/${projectId}/sheets?limit=2${query}${after}`, { key });
    expect(reply.status).toBe(200);
    sheets.push(...(reply.body.sheets as ListedSheet[]));
    totals.push(reply.body.total as number);
    cursor = reply.body.nextCursor as string | null;
  } while (cursor);
  return { sheets, totals };
}

describe('a revised sheet uploaded in a later job', () => {
  let org: TestOrg;
  let projectId: string;
  const jobs: { status: string }[] = [];

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Revisions')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    // The set as issued, then the revised A-102 alone under another file name.
    const issued = await startIngest(org.apiKey, projectId, [
      {
        fileName: 'bid-set-architectural.pdf',
        bytes: await drawingSetPdf(issuedSet),
        classification: 'plans',
      },
    ]);
    jobs.push(await waitForJobEnd(org.apiKey, issued));
    const revised = await startIngest(org.apiKey, projectId, [
      {
        fileName: 'addendum-1-sk-01.pdf',
        bytes: await drawingSetPdf([revisedSecondFloor]),
        classification: 'plans',
      },
    ]);
    jobs.push(await waitForJobEnd(org.apiKey, revised));
  }, 600_000);

  it('lists by default the new printing and not the one it supersedes', async () => {
    // Act
    const { sheets, totals } = await allSheets(org.apiKey, projectId, '');

    // Assess
    expect(jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
    expect(sheets.map((sheet) => [sheet.sheetNumber, sheet.fileName])).toEqual([
      ['A-101', 'bid-set-architectural.pdf'],
      ['A-201', 'bid-set-architectural.pdf'],
      ['A-102', 'addendum-1-sk-01.pdf'],
    ]);
    expect(sheets.every((sheet) => sheet.current && sheet.supersededBy === null)).toBe(true);
    // The total counts what the listing returns, on every page.
    expect(totals).toEqual([3, 3]);
  });

  it('lists both printings with includeSuperseded=true, linked both ways', async () => {
    // Act
    const { sheets, totals } = await allSheets(org.apiKey, projectId, '&includeSuperseded=true');

    // Assess
    expect(sheets).toHaveLength(4);
    expect(totals).toEqual([4, 4]);
    const [earlier, later] = [
      sheets.find((sheet) => sheet.sheetNumber === 'A-102' && sheet.fileName === 'bid-set-architectural.pdf'),
      sheets.find((sheet) => sheet.sheetNumber === 'A-102' && sheet.fileName === 'addendum-1-sk-01.pdf'),
    ];
    expect(earlier).toMatchObject({ current: false, supersededBy: later?.sheetId, revisionOf: null });
    expect(later).toMatchObject({
      current: true,
      supersededBy: null,
      revisionOf: { sheetId: earlier?.sheetId },
    });
    expect(later?.revisionOf?.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('keeps the sheets of the first job that were not revised current', async () => {
    // Act
    const { sheets } = await allSheets(org.apiKey, projectId, '&includeSuperseded=true&fileName=bid-set');

    // Assess
    expect(
      sheets.map((sheet) => [sheet.sheetNumber, sheet.current, sheet.supersededBy, sheet.revisionOf]),
    ).toEqual([
      ['A-101', true, null, null],
      ['A-102', false, expect.stringMatching(/^sht_/), null],
      ['A-201', true, null, null],
    ]);
  });

  it('refuses an includeSuperseded that is not a boolean', async () => {
    const reply = await api(`/api/open/v1/projects/${projectId}/sheets?includeSuperseded=maybe`, {
      key: org.apiKey,
    });
    expect(reply.status).toBe(400);
  });
});
