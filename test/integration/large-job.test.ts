import { describe, expect, it } from 'vitest';
import { projectManualPdf } from '../fixtures/pdfs.ts';
import { api, createOrg, createProject, startIngest, waitForJobEnd, waitForProject } from './helpers.ts';

const SECTIONS = 200;
const PAGES_PER_SECTION = 10;

/** A 2,000-page book through the whole local pipeline: batches, child executions, assembly, index. */
describe('a large job', () => {
  it('ingests a generated 2,000-page project manual, every page and section accounted for', async () => {
    // Prepare
    const org = await createOrg();
    const projectId = String((await createProject(org.apiKey, 'Large job')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const bytes = await projectManualPdf(SECTIONS, PAGES_PER_SECTION);
    const started = Date.now();

    // Act
    const jobId = await startIngest(org.apiKey, projectId, [{ fileName: 'project-manual.pdf', bytes }]);
    const job = await waitForJobEnd(org.apiKey, jobId, 900_000);
    const elapsedSeconds = (Date.now() - started) / 1000;
    console.log(
      `large job: ${SECTIONS * PAGES_PER_SECTION} pages in ${elapsedSeconds.toFixed(1)} s (${((SECTIONS * PAGES_PER_SECTION) / elapsedSeconds).toFixed(1)} pages/s)`,
    );
    // Every section, through the cursors (pages stop early under the response size budget).
    const listed: { sectionNumber: string; pageStart: number; pageEnd: number }[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await api(
        `/api/open/v1/projects/${projectId}/specifications?limit=500&compact=true${query}`,
        {
          key: org.apiKey,
        },
      );
      listed.push(...page.body.specifications);
      totals.add(page.body.total);
      cursor = page.body.nextCursor;
    } while (cursor);
    const overview = (await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey })).body
      .overview;
    const hit = await api(`/api/open/v1/projects/${projectId}/source-search`, {
      method: 'POST',
      key: org.apiKey,
      body: { query: 'work result 173', maxHits: 3 },
    });

    // Assess
    expect(job).toMatchObject({
      status: 'completed',
      pageCount: 2000,
      successfulPageCount: 2000,
      failedPageCount: 0,
      billing: { creditsDebited: 2000, creditsReserved: 0 },
    });
    expect([...totals]).toEqual([SECTIONS]);
    expect(listed).toHaveLength(SECTIONS);
    expect(listed.at(-1)).toMatchObject({ sectionNumber: '03 29 00', pageStart: 1991, pageEnd: 2000 });
    expect(listed.every((section, index) => section.pageStart === index * PAGES_PER_SECTION + 1)).toBe(true);
    expect(overview.counts).toMatchObject({ files: 1, specifications: SECTIONS });
    expect(overview.capabilities.canSearch).toBe(true);
    // Section 173 is 02 92 00 (90 numbers a division from 01 10 00).
    expect(hit.body.hits[0]?.source.label).toContain('02 92 00');
  }, 1_200_000);
});
