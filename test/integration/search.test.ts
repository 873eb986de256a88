import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoIndexLock } from '../../functions/adapters/dynamodb/search-index-store.ts';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { projectStore } from '../../functions/shared/wiring/adapters.ts';
import { searchIndexStates, sourceIndex } from '../../functions/shared/wiring/search.ts';
import { addendumPdf, drawingSheetPdf, specificationPdf } from '../fixtures/pdfs.ts';
import {
  type ApiReply,
  api,
  apiUrl,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';
import { preflightingJob } from './job-fixtures.ts';

interface Hit {
  score: number;
  snippet: string;
  sourceCatalogUri: string;
  source: { type: string; id: string; label: string };
  location: { fileName: string; pageNumber: number; pageEnd: number; sheetNumber: string | null };
  matchedModes: string[];
}

const HOLDER = 'search-test-hold';

describe('source search', () => {
  let org: TestOrg;
  let projectId: string;
  const flow = {} as {
    whileBuilding: ApiReply;
    documentsWhileBuilding: ApiReply;
    overviewBefore: ApiReply;
    job: { status: string };
  };
  const search = (body: Record<string, unknown>, key = org.apiKey, project = projectId) =>
    api(`/api/open/v1/projects/${project}/source-search`, { method: 'POST', key, body });
  const hitsOf = (reply: ApiReply) => reply.body.hits as Hit[];

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Search')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    // Another writer holds the project's index: the pipeline's indexing waits for it, as it would
    // behind another job's indexing.
    const lock = new DynamoIndexLock(dynamo, process.env.TABLE_NAME ?? '');
    expect(await lock.acquire(projectId, HOLDER, 10 * 60_000)).toBe(true);
    const jobId = await startIngest(org.apiKey, projectId, [
      { fileName: 'spec-09-29-00.pdf', bytes: await specificationPdf() },
      {
        fileName: 'A-101.pdf',
        bytes: await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'),
        classification: 'plans',
      },
      {
        fileName: 'A-501.pdf',
        bytes: await drawingSheetPdf('A-501', 'ROOF DETAILS'),
        classification: 'plans',
      },
      { fileName: 'addendum-02.pdf', bytes: await addendumPdf() },
    ]);
    // Assembled documents appear (with their index pending) while indexing waits.
    const deadline = Date.now() + 400_000;
    for (;;) {
      flow.documentsWhileBuilding = await api(`/api/open/v1/projects/${projectId}/documents`, {
        key: org.apiKey,
      });
      if (flow.documentsWhileBuilding.body.documents.length > 0) break;
      if (Date.now() > deadline) throw new Error('documents were not assembled in time');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    flow.whileBuilding = await search({ query: 'gypsum board' });
    flow.overviewBefore = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });
    await lock.release(projectId, HOLDER);
    flow.job = await waitForJobEnd(org.apiKey, jobId);
  }, 600_000);

  it('answers 409 source_index_not_ready with Retry-After while the index is being built', () => {
    // Files wait in the pipeline's indexing step (two at a time), so later files are not assembled yet.
    const states = flow.documentsWhileBuilding.body.documents.map(
      (document: { searchIndex: { status: string } }) => document.searchIndex.status,
    );
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['pending']));
    expect(flow.whileBuilding.status).toBe(409);
    expect(flow.whileBuilding.body.error.code).toBe('source_index_not_ready');
    expect(flow.whileBuilding.headers.get('retry-after')).toBe('5');
    expect(flow.overviewBefore.body.overview.capabilities.canSearch).toBe(false);
  });

  it('indexes every document once the writer is free, and the overview counts what was indexed', async () => {
    // Act
    const documents = await api(`/api/open/v1/projects/${projectId}/documents`, { key: org.apiKey });
    const overview = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });
    // Assess
    expect(flow.job.status).toBe('completed');
    const states = documents.body.documents.map((d: { searchIndex: unknown }) => d.searchIndex);
    expect(states.every((state: { status: string }) => state.status === 'indexed')).toBe(true);
    const sources = states.reduce(
      (sum: number, state: { sourceCount: number }) => sum + state.sourceCount,
      0,
    );
    const passages = states.reduce(
      (sum: number, state: { passageCount: number }) => sum + state.passageCount,
      0,
    );
    expect(sources).toBeGreaterThan(4);
    expect(overview.body.overview.counts).toMatchObject({ vectors: sources, vectorChunks: passages });
    expect(overview.body.overview.capabilities).toMatchObject({ canSearch: true, canVectorize: false });
  });

  it('finds a sheet by every way its number is written', async () => {
    // Act
    const replies = await Promise.all(
      ['A-101', 'A101', 'A 101', 'A.101', 'sheet a-101'].map((query) => search({ query, mode: 'exact' })),
    );
    // Assess
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(hitsOf(reply)[0]?.location.sheetNumber).toBe('A-101');
    }
  });

  it('finds a specification section by every way its number is written', async () => {
    const replies = await Promise.all(
      ['09 29 00', '092900', '09-29-00', 'Section 09 29 00'].map((query) => search({ query, mode: 'exact' })),
    );
    for (const reply of replies) {
      const top = hitsOf(reply)[0];
      expect(top?.source.type).toBe('specification');
      expect(top?.source.label).toContain('09 29 00');
    }
  });

  it('finds a detail by its reference and an abbreviation by its meaning', async () => {
    // Act
    const detail = await search({ query: '3/A-501', mode: 'exact' });
    const abbreviation = await search({ query: 'GWB', mode: 'exact', entityTypes: ['specification'] });
    // Assess
    expect(hitsOf(detail).map((hit) => hit.location.sheetNumber)).toContain('A-101');
    expect(hitsOf(abbreviation).length).toBeGreaterThan(0);
    expect(hitsOf(abbreviation)[0]?.source.label).toContain('09 29 00');
  });

  it('finds the trade term of plain words, and the document a query names first', async () => {
    // Act: neither `delay` nor `penalty` is printed anywhere; the addendum says "liquidated damages".
    const plain = await search({ query: 'delay penalty', mode: 'exact' });
    // Only A-501 prints ROOF DETAILS; the query names the addendum, whose passages come first.
    const named = await search({ query: 'roof details addendum', mode: 'exact' });
    // Assess
    expect(hitsOf(plain)[0]?.location).toMatchObject({ fileName: 'addendum-02.pdf', pageNumber: 2 });
    expect(hitsOf(named)[0]?.location.fileName).toBe('addendum-02.pdf');
  });

  it('answers a paraphrase semantically and hybrid, with the modes it used and scores descending', async () => {
    // Act
    const semantic = await search({ query: 'who pays for the building permit', mode: 'semantic' });
    const hybrid = await search({ query: 'who pays for the building permit' });
    // Assess
    expect(semantic.body.modes).toEqual(['semantic']);
    expect(hybrid.body.modes).toEqual(['exact', 'semantic']);
    for (const reply of [semantic, hybrid]) {
      const hits = hitsOf(reply);
      expect(
        hits
          .slice(0, 3)
          .some((hit) => hit.location.fileName === 'addendum-02.pdf' && hit.location.pageNumber === 1),
      ).toBe(true);
      const scores = hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(reply.body.hitCount).toBe(hits.length);
      expect(reply.body.searchedChunkCount).toBeGreaterThan(0);
    }
  });

  it('shows the matched words in the snippet and points every hit at a page', async () => {
    const reply = await search({ query: 'baby changing stations', mode: 'exact' });
    const top = hitsOf(reply)[0];
    expect(top?.snippet).toContain('**changing**');
    expect(top?.location).toMatchObject({ fileName: 'addendum-02.pdf', pageNumber: 2 });
    expect(top?.source.type).toBe('doc');
    expect(top?.sourceCatalogUri).toMatch(
      /^service:\/\/projects\/prj_[0-9a-z]+\/documents\/doc_[0-9a-z]+\/pages\/2$/,
    );
  });

  it('applies every filter', async () => {
    // Act
    const query = 'gypsum board';
    const [docs, specs, byName, byPage, bySheet, byClass, byLayout, few] = await Promise.all([
      search({ query: 'permit fees gypsum board', entityTypes: ['doc'] }),
      search({ query, entityTypes: ['specification'] }),
      search({ query, fileName: 'A-1' }),
      search({ query: 'permit fees baby changing', pageNumber: 2 }),
      search({ query, sheetNumber: 'a101' }),
      search({ query, classification: 'plans' }),
      search({ query, layoutType: 'drawing_sheet' }),
      search({ query, maxHits: 1 }),
    ]);
    // Assess
    expect(hitsOf(docs).length).toBeGreaterThan(0);
    expect(hitsOf(docs).every((hit) => hit.source.type === 'doc')).toBe(true);
    expect(hitsOf(specs).every((hit) => hit.source.type === 'specification')).toBe(true);
    expect(hitsOf(byName).length).toBeGreaterThan(0);
    expect(hitsOf(byName).every((hit) => hit.location.fileName === 'A-101.pdf')).toBe(true);
    // A source that covers the page (a section on pages 1 to 2) matches it.
    expect(hitsOf(byPage).length).toBeGreaterThan(0);
    expect(hitsOf(byPage).every((hit) => hit.location.pageNumber <= 2 && hit.location.pageEnd >= 2)).toBe(
      true,
    );
    expect(hitsOf(bySheet).length).toBeGreaterThan(0);
    expect(hitsOf(bySheet).every((hit) => hit.location.sheetNumber === 'A-101')).toBe(true);
    expect(hitsOf(byClass).every((hit) => hit.location.fileName.startsWith('A-'))).toBe(true);
    expect(hitsOf(byLayout).every((hit) => hit.source.type === 'region')).toBe(true);
    expect(hitsOf(few)).toHaveLength(1);
  });

  it('reads the whole text of a source found by a search, with its pages, box and artifact', async () => {
    // Prepare
    const section = hitsOf(await search({ query: 'Section 09 29 00', entityTypes: ['specification'] })).find(
      (hit) => !hit.sourceCatalogUri.includes('/facets/'),
    );
    const [region] = hitsOf(
      await search({ query: 'general notes gypsum', entityTypes: ['region'], sheetNumber: 'A-101' }),
    );
    const read = (uri: string, query = '') =>
      api(`/api/open/v1/projects/${projectId}/sources?uri=${encodeURIComponent(uri)}${query}`, {
        key: org.apiKey,
      });
    // Act
    const sectionText = await read(section?.sourceCatalogUri ?? '');
    const regionText = await read(region?.sourceCatalogUri ?? '');
    const window = await read(region?.sourceCatalogUri ?? '', '&offset=5&limit=10');
    // Assess
    expect(sectionText.status).toBe(200);
    expect(sectionText.body).toMatchObject({
      pageStart: 1,
      pageEnd: 2,
      document: { fileName: 'spec-09-29-00.pdf' },
    });
    expect(sectionText.body.artifacts.map((artifact: { type: string }) => artifact.type)).toEqual([
      'specification_file',
    ]);
    expect(regionText.body.text).toContain('GYPSUM BOARD');
    expect(regionText.body.box).not.toBeNull();
    expect(regionText.body.sheetNumber).toBe('A-101');
    expect(regionText.body.artifacts.map((artifact: { type: string }) => artifact.type)).toEqual([
      'region_crop',
    ]);
    expect(window.body).toMatchObject({ offset: 5, text: regionText.body.text.slice(5, 15), nextOffset: 15 });
    const crop = await fetch(`${apiUrl}${regionText.body.artifacts[0].url}`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(crop.status).toBe(200);
  });

  it('answers 404 for a source of another project or organization, and 400 without a uri', async () => {
    // Prepare
    const other = await createOrg();
    const otherProject = String((await createProject(other.apiKey, 'Other')).body.project.id);
    const [hit] = hitsOf(await search({ query: 'gypsum board' }));
    const uri = hit?.sourceCatalogUri ?? '';
    // Act
    const foreignKey = await api(
      `/api/open/v1/projects/${projectId}/sources?uri=${encodeURIComponent(uri)}`,
      {
        key: other.apiKey,
      },
    );
    const foreignProject = await api(
      `/api/open/v1/projects/${otherProject}/sources?uri=${encodeURIComponent(uri)}`,
      {
        key: other.apiKey,
      },
    );
    const made = await api(
      `/api/open/v1/projects/${projectId}/sources?uri=${encodeURIComponent(uri.replace(projectId, otherProject))}`,
      { key: org.apiKey },
    );
    const garbage = await api(`/api/open/v1/projects/${projectId}/sources?uri=service%3A%2F%2Fx`, {
      key: org.apiKey,
    });
    const missing = await api(`/api/open/v1/projects/${projectId}/sources`, { key: org.apiKey });
    // Assess
    expect(foreignKey.body.error.code).toBe('project_not_found');
    expect([foreignProject.status, made.status, garbage.status]).toEqual([404, 404, 404]);
    expect(made.body.error.code).toBe('source_not_found');
    expect(missing.status).toBe(400);
  });

  it('refuses bad input with 400 and hides other organizations behind 404', async () => {
    // Prepare
    const other = await createOrg();
    // Act
    const replies = await Promise.all([
      search({ query: '' }),
      search({}),
      search({ query: 'x', maxHits: 0 }),
      search({ query: 'x', maxHits: 51 }),
      search({ query: 'x', entityTypes: ['sheet'] }),
      search({ query: 'x', unknown: true }),
    ]);
    const foreign = await search({ query: 'gypsum' }, other.apiKey);
    const review = await search({ query: 'gypsum', reviewId: 'rev_00000000000000000000000000' });
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('project_not_found');
    expect(review.status).toBe(404);
  });

  it('searches projects by name and by sources, never across organizations', async () => {
    // Prepare
    const other = await createOrg();
    const otherProject = String((await createProject(other.apiKey, 'Search Élan gymnasium')).body.project.id);
    await waitForProject(other.apiKey, otherProject);
    const named = String(
      (await createProject(org.apiKey, 'Search Élan Gymnasium Renovation')).body.project.id,
    );
    await waitForProject(org.apiKey, named);
    const searchProjects = (body: Record<string, unknown>, key = org.apiKey) =>
      api('/api/open/v1/projects/search', { method: 'POST', key, body });
    // Act
    const byName = await searchProjects({ query: 'elan gym' });
    const bySource = await searchProjects({ query: 'baby changing stations' });
    const bothOrgs = await searchProjects({ query: 'search' });
    const scoped = await searchProjects({
      query: 'baby changing stations',
      projectIds: [otherProject, named],
    });
    const firstPage = await searchProjects({ query: 'search', limit: 1 });
    const secondPage = await searchProjects({ query: 'search', limit: 1, cursor: firstPage.body.nextCursor });
    const badCursor = await searchProjects({ query: 'x', cursor: firstPage.body.nextCursor });
    const refused = await Promise.all([
      searchProjects({ query: '' }),
      searchProjects({ query: 'x', limit: 101 }),
    ]);
    // Assess
    // The name match comes first; `gym` also finds the fixture drawings' GYMNASIUM through the
    // plain-language expansion, a match by source only; the other organization's project never shows.
    expect(byName.body.projects.map((item: { project: { id: string } }) => item.project.id)).toEqual([
      named,
      projectId,
    ]);
    expect(byName.body.projects[0].matchReasons).toContain('name');
    expect(byName.body.projects[1].matchReasons).toEqual(['source']);
    const sourceItem = bySource.body.projects.find(
      (item: { project: { id: string } }) => item.project.id === projectId,
    );
    expect(sourceItem.matchReasons).toEqual(['source']);
    expect(sourceItem.sourceMatches[0]).toMatchObject({ fileName: 'addendum-02.pdf', pageNumber: 2 });
    expect(sourceItem.sourceMatches[0].excerpt).toContain('**changing**');
    const ids = bothOrgs.body.projects.map((item: { project: { id: string } }) => item.project.id);
    expect(ids).toContain(projectId);
    expect(ids).not.toContain(otherProject);
    expect(scoped.body.warnings).toEqual([
      { code: 'project_not_found', projectId: otherProject, message: expect.any(String) },
    ]);
    expect(scoped.body.projects).toEqual([]);
    expect(firstPage.body).toMatchObject({ returnedCount: 1, hasMore: true, total: 2 });
    expect(secondPage.body.projects[0].project.id).not.toBe(firstPage.body.projects[0].project.id);
    expect(secondPage.body.hasMore).toBe(false);
    expect(badCursor.status).toBe(400);
    expect(refused.map((reply) => reply.status)).toEqual([400, 400]);
  });

  it('reconciles as a job: the request schedules the repairs (202, a job) and the pipeline step makes them, a file whose passages were deleted and a document whose indexing failed', async () => {
    // Prepare
    const project = await projectStore().get(org.orgId, projectId);
    const documents = (await api(`/api/open/v1/projects/${projectId}/documents`, { key: org.apiKey })).body
      .documents;
    const addendum = documents.find(
      (document: { fileName: string }) => document.fileName === 'addendum-02.pdf',
    );
    const sheet = documents.find((document: { fileName: string }) => document.fileName === 'A-501.pdf');
    await sourceIndex().removeFile(project?.indexLocation ?? '', addendum.fileId);
    await searchIndexStates().setSearchIndexState(projectId, sheet.documentId, {
      ...sheet.searchIndex,
      status: 'failed',
      indexedAt: null,
      error: { code: 'indexing_failed', message: 'test' },
    });
    const reconcile = (body: Record<string, unknown>) =>
      api(`/api/open/v1/projects/${projectId}/source-index/reconcile`, {
        method: 'POST',
        key: org.apiKey,
        body,
      });
    const lost = await search({ query: 'baby changing stations', mode: 'exact' });
    const partial = await search({ query: 'roof details A-501', mode: 'exact' });

    // Act: one task a job, each followed to its end, then a last call that finds nothing to repair.
    const first = await reconcile({ limit: 1 });
    const firstJob = await waitForJobEnd(org.apiKey, first.body.sourceIndex.jobId);
    const second = await reconcile({});
    const secondJob = await waitForJobEnd(org.apiKey, second.body.sourceIndex.jobId);
    const last = await reconcile({});
    const found = await search({ query: 'baby changing stations', mode: 'exact' });
    const refused = await Promise.all([reconcile({ limit: 0 }), reconcile({ limit: 26 })]);

    // Assess
    expect(hitsOf(lost).some((hit) => hit.location.fileName === 'addendum-02.pdf')).toBe(false);
    // A document whose indexing failed is not searched (its rows may be stale), and the answer says so.
    expect(partial.body.status).toBe('partial');
    expect(hitsOf(partial).some((hit) => hit.location.fileName === 'A-501.pdf')).toBe(false);
    expect(first.status).toBe(202);
    expect(first.body.sourceIndex).toMatchObject({
      status: 'incomplete',
      missingDocuments: 2,
      repairedTasks: 0,
      scheduledTasks: 1,
      remainingTasks: 2,
      jobId: expect.stringMatching(/^job_/),
    });
    expect(second.status).toBe(202);
    expect(second.body.sourceIndex).toMatchObject({
      missingDocuments: 1,
      scheduledTasks: 1,
      remainingTasks: 1,
    });
    expect(second.body.sourceIndex.jobId).not.toBe(first.body.sourceIndex.jobId);
    for (const job of [firstJob, secondJob])
      expect(job).toMatchObject({ kind: 'index_reconciliation', status: 'completed' });
    expect(last.status).toBe(200);
    expect(last.body.sourceIndex).toMatchObject({
      status: 'ok',
      remainingTasks: 0,
      missingDocuments: 0,
      staleDocuments: 0,
      indexedDocuments: 4,
      jobId: null,
    });
    expect(last.body.overview.capabilities).toMatchObject({ canSearch: true, canVectorize: false });
    expect(hitsOf(found)[0]?.location.fileName).toBe('addendum-02.pdf');
    expect(refused.map((reply) => reply.status)).toEqual([400, 400]);
  });

  it('answers 409 source_index_not_ready while the first files are still being read (none assembled yet), as the README says', async () => {
    // Prepare: a project whose only job has its files uploaded and not yet read
    const { org: reading, projectId: readingProject } = await preflightingJob({
      'spec-09-29-00.pdf': { bytes: await specificationPdf() },
    });
    // Act
    const reply = await search({ query: 'gypsum board' }, reading.apiKey, readingProject);
    // Assess
    expect([reply.status, reply.body.error.code, reply.headers.get('retry-after')]).toEqual([
      409,
      'source_index_not_ready',
      '5',
    ]);
  });

  it('reports `partial` while a job still reads files of an indexed project', async () => {
    // Prepare: a later job of this project, its files being read
    const jobId = (
      await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key: org.apiKey, body: {} })
    ).body.job.id as string;
    await dynamo.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: entities.job.key(org.orgId, jobId),
        UpdateExpression: 'SET #status = :processing',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':processing': 'processing' },
      }),
    );
    // Act
    const reply = await search({ query: 'gypsum board' });
    // Assess
    expect([reply.status, reply.body.status]).toEqual([200, 'partial']);
    expect(hitsOf(reply).length).toBeGreaterThan(0);
  });
});
