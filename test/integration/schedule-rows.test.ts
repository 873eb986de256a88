import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleSheetPdf } from '../fixtures/pdfs.ts';
import {
  api,
  apiUrl,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
interface Hit {
  sourceCatalogUri: string;
  snippet: string;
  location: { pageNumber: number; sheetNumber: string | null; box: Box | null };
}

describe('a schedule printed as a ruled table', () => {
  let org: TestOrg;
  let projectId: string;

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Schedules')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      { fileName: 'a601.pdf', bytes: await scheduleSheetPdf('A-601'), classification: 'plans' },
    ]);
    const job = await waitForJobEnd(org.apiKey, jobId);
    expect(job.status).toBe('completed');
  }, 600_000);

  it('is a region carrying its table: header, and rows of cells with boxes', async () => {
    // Act
    const reply = await api(`/api/open/v1/projects/${projectId}/regions?regionType=schedule`, {
      key: org.apiKey,
    });

    // Assess
    expect(reply.status).toBe(200);
    const region = (reply.body.regions as Array<{ label: string; table?: Record<string, unknown> }>).find(
      (candidate) => candidate.label === 'DOOR SCHEDULE',
    );
    const table = region?.table as
      | {
          header: string[][];
          rows: Array<{ cells: Array<{ text: string; displayBox: Box }>; displayBox: Box }>;
        }
      | undefined;
    expect(table?.header).toEqual([['MARK', 'ROOM', 'WIDTH', 'HEIGHT', 'HARDWARE SET', 'REMARKS']]);
    expect(table?.rows.map((row) => row.cells[0]?.text)).toEqual(['101', '102', '103', '104', '105', '106']);
    expect(table?.rows[3]?.cells.map((cell) => cell.text)).toEqual([
      '104',
      'ELECTRICAL',
      `3'-0"`,
      `7'-0"`,
      'HW-7',
      'RATED 90 MIN',
    ]);
    // Row 104 is the sixth ruled band from the frame's top at 228 (title, header, 101-103 above it): 328 to 348.
    expect(table?.rows[3]?.displayBox).toMatchObject({ left: 200, right: 1100 });
    expect(table?.rows[3]?.displayBox.top).toBeCloseTo(328, 0);
    expect(table?.rows[3]?.displayBox.bottom).toBeCloseTo(348, 0);
  });

  it("finds a row by its key and its column's name first, quoted with its cells and cited with the row's box", async () => {
    // Act
    const reply = await api(`/api/open/v1/projects/${projectId}/source-search`, {
      method: 'POST',
      key: org.apiKey,
      body: { query: 'door 104 hardware set' },
    });

    // Assess
    expect(reply.status).toBe(200);
    const hit = (reply.body.hits as Hit[])[0];
    expect(hit?.sourceCatalogUri).toMatch(/\/regions\/[a-z]{3}_[0-9a-z_]+\/rows\/4$/);
    expect(hit?.snippet.replace(/\*\*/g, '')).toContain('MARK: 104 | ROOM: ELECTRICAL | WIDTH');
    expect(hit?.location.box?.top).toBeCloseTo(328, 0);
    expect(hit?.location.box?.bottom).toBeCloseTo(348, 0);
  });

  it('reads one row as a source by its URI', async () => {
    // Prepare
    const search = await api(`/api/open/v1/projects/${projectId}/source-search`, {
      method: 'POST',
      key: org.apiKey,
      body: { query: 'HW-7', mode: 'exact' },
    });
    const uri = String((search.body.hits as Hit[])[0]?.sourceCatalogUri);

    // Act
    const reply = await api(`/api/open/v1/projects/${projectId}/sources?uri=${encodeURIComponent(uri)}`, {
      key: org.apiKey,
    });

    // Assess
    expect(uri).toMatch(/\/rows\/4$/);
    expect(reply.status).toBe(200);
    expect(reply.body.text).toBe(
      `MARK: 104 | ROOM: ELECTRICAL | WIDTH: 3'-0" | HEIGHT: 7'-0" | HARDWARE SET: HW-7 | REMARKS: RATED 90 MIN`,
    );
    expect(reply.body.pageStart).toBe(1);
  });

  it('is served alone as JSON and as CSV; a region that is no table is a 404', async () => {
    // Prepare
    const listed = await api(`/api/open/v1/projects/${projectId}/regions`, { key: org.apiKey });
    const regions = listed.body.regions as Array<{ regionId: string; label: string; table?: unknown }>;
    const schedule = regions.find((region) => region.label === 'DOOR SCHEDULE');
    const plain = regions.find((region) => !region.table);
    const base = `/api/open/v1/projects/${projectId}/regions`;

    // Act
    const json = await api(`${base}/${schedule?.regionId}/table`, { key: org.apiKey });
    const csv = await fetch(`${apiUrl}${base}/${schedule?.regionId}/table?format=csv`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    const none = await api(`${base}/${plain?.regionId}/table`, { key: org.apiKey });
    const unknown = await api(`${base}/reg_00000000000000000000000000_1_0/table`, { key: org.apiKey });

    // Assess
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ regionId: schedule?.regionId, sheetNumber: 'A-601', pageNumber: 1 });
    expect(json.body.table.rows).toHaveLength(6);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('MARK,ROOM,WIDTH,HEIGHT,HARDWARE SET,REMARKS');
    expect(lines[4]).toBe(`104,ELECTRICAL,"3'-0""","7'-0""",HW-7,RATED 90 MIN`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('table_not_found');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('region_not_found');
  });
});
