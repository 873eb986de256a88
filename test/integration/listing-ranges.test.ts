import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { upgradeStoredContent } from '../../functions/adapters/dynamodb/content-upgrade.ts';
import { entities, partitions } from '../../functions/adapters/dynamodb/table.ts';
import type { FacetRecord, RegionRecord, SpecSectionRecord } from '../../functions/core/content/model.ts';
import { contentIds } from '../../functions/core/content/model.ts';
import { newId } from '../../functions/core/ids.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { contentStore } from '../../functions/shared/wiring/adapters.ts';
import { searchIndexStates } from '../../functions/shared/wiring/search.ts';
import { readyDocument } from './content-fixtures.ts';
import { api, createOrg, createProject, type TestOrg, waitForProject } from './helpers.ts';

const TABLE = process.env.TABLE_NAME ?? '';
const REGION_TYPES = ['view', 'notes', 'title_block'] as const;

/** One file of `pages` sheets with `perPage` regions each, region types in turn; no PDF needed. */
function drawingFile(projectId: string, orgId: string, fileName: string, pages: number, perPage: number) {
  const fileId = newId('fil');
  const documentId = newId('doc');
  const classification = fileName.startsWith('spec') ? ('specifications' as const) : ('plans' as const);
  const common = { projectId, fileId, fileName, fileNameLower: fileName.toLowerCase(), classification };
  const regions: RegionRecord[] = [];
  for (let page = 1; page <= pages; page++)
    for (let index = 0; index < perPage; index++)
      regions.push({
        ...common,
        regionId: contentIds.region(fileId, page, index),
        regionIndex: index,
        sheetId: contentIds.sheet(fileId, page),
        pageNumber: page,
        sheetNumber: `A-${page}`,
        label: `region ${index}`,
        regionType: REGION_TYPES[index % REGION_TYPES.length] as string,
        drawingType: index % 2 === 0 ? 'plan' : null,
        layoutType: 'drawing_sheet',
        text: `text ${page}/${index}`,
        textSource: 'textLayer',
        ocrConfidence: null,
        displayBox: { left: 0, top: 0, right: 10, bottom: 10 },
        titleDisplayBox: { left: 0, top: 0, right: 10, bottom: 2 },
        normalizedData: null,
        cropPath: null,
      });
  const document = readyDocument({
    orgId,
    projectId,
    fileId,
    documentId,
    fileName,
    classification,
    pageCount: pages,
  });
  return {
    fileId,
    documentId,
    regions,
    content: { document, sheets: [], regions, sections: [], facets: [] },
  };
}

describe('region listings read only the key ranges their filters allow', () => {
  let org: TestOrg;
  let projectId: string;
  let files: ReturnType<typeof drawingFile>[];
  const everyRegion = () => files.flatMap((file) => file.regions);

  /** Every page of a listing, through its cursors; each page's total and the items in order. */
  async function allPages(query: string, limit: number) {
    const totals: number[] = [];
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const reply = await api(
        `/api/open/v1/projects/${projectId}/regions?limit=${limit}&compact=true${query}${suffix}`,
        { key: org.apiKey },
      );
      expect(reply.status).toBe(200);
      totals.push(reply.body.total);
      ids.push(...reply.body.regions.map((region: { regionId: string }) => region.regionId));
      cursor = reply.body.nextCursor;
      if (!cursor) break;
    }
    return { totals, ids };
  }

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Listing ranges')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    files = [
      drawingFile(projectId, org.orgId, 'Architectural.pdf', 4, 6),
      drawingFile(projectId, org.orgId, 'Structural.pdf', 3, 5),
      drawingFile(projectId, org.orgId, 'spec-book.pdf', 2, 3),
    ];
    for (const file of files) await contentStore().writeFileContent(projectId, file.fileId, file.content);
  });

  it('pages every filter through to the exact rows, with one total on every page', async () => {
    // Prepare
    const sheetIds = [
      contentIds.sheet(files[1]?.fileId ?? '', 2),
      contentIds.sheet(files[0]?.fileId ?? '', 3),
    ];
    const cases: [string, (region: RegionRecord) => boolean][] = [
      ['', () => true],
      ['&regionType=notes', (region) => region.regionType === 'notes'],
      ['&pageNumber=2', (region) => region.pageNumber === 2],
      ['&pageNumber=2&regionType=view', (region) => region.pageNumber === 2 && region.regionType === 'view'],
      ['&fileName=URAL', (region) => region.fileName.toLowerCase().includes('ural')],
      ['&classification=specifications', (region) => region.classification === 'specifications'],
      [
        '&drawingType=plan&regionType=view',
        (region) => region.drawingType === 'plan' && region.regionType === 'view',
      ],
      [`&sheets=${sheetIds.join(',')}`, (region) => sheetIds.includes(region.sheetId)],
      [
        `&fileId=${files[0]?.fileId}&pageNumber=4`,
        (region) => region.fileId === files[0]?.fileId && region.pageNumber === 4,
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = everyRegion()
        .filter(keep)
        .map((region) => region.regionId);
      // Act
      const { totals, ids } = await allPages(query, 4);
      // Assess: listing order is file, page, position; the total is the same on every page.
      expect([query, ids.sort()]).toEqual([query, [...expected].sort()]);
      expect(ids.length).toBe(expected.length);
      expect(new Set(totals)).toEqual(new Set([expected.length]));
    }
  });

  it('keeps the project counters exact under retried and concurrent document writes', async () => {
    // Prepare: a project of its own, and four files.
    const own = String((await createProject(org.apiKey, 'Counters')).body.project.id);
    await waitForProject(org.apiKey, own);
    const [first, second, third, spec] = [
      drawingFile(own, org.orgId, 'One.pdf', 2, 3),
      drawingFile(own, org.orgId, 'Two.pdf', 3, 2),
      drawingFile(own, org.orgId, 'Three.pdf', 1, 4),
      drawingFile(own, org.orgId, 'spec-1.pdf', 1, 1),
    ];
    const write = (file: ReturnType<typeof drawingFile>) =>
      contentStore().writeFileContent(own, file.fileId, file.content);

    // Act: a retried write, concurrent writes, an index state, and a file's content replaced.
    await write(first);
    await write(first);
    await Promise.all([write(second), write(third), write(spec)]);
    await searchIndexStates().setSearchIndexState(own, second.documentId, {
      status: 'indexed',
      sourceCount: 6,
      passageCount: 9,
      indexedAt: new Date().toISOString(),
      error: null,
    });
    const fewer = { ...third, content: { ...third.content, regions: third.regions.slice(0, 1) } };
    await write(fewer);
    const totals = await contentStore().projectTotals(own);

    // Assess
    expect(totals.counts).toEqual({
      files: 4,
      docs: 0,
      sheets: 0,
      regions: 6 + 6 + 1 + 1,
      vectors: 6,
      vectorChunks: 9,
      normalizedRegions: 0,
      specifications: 0,
    });
    expect(totals.searchableSources).toBe(6);
  });

  it("filters sections by the sheets that reference them, past DynamoDB's 100 operands per IN, up to a stated bound", async () => {
    // Prepare: a book of 250 sections; one sheet references 150 of them, another 401 numbers.
    const own = String((await createProject(org.apiKey, 'Referenced sections')).body.project.id);
    await waitForProject(org.apiKey, own);
    const numberOf = (index: number) =>
      `${String(1 + Math.floor(index / 90)).padStart(2, '0')} ${String(10 + (index % 90)).padStart(2, '0')} 00`;
    const book = drawingFile(own, org.orgId, 'spec-book.pdf', 1, 0);
    const sections: SpecSectionRecord[] = Array.from({ length: 250 }, (_, index) => ({
      projectId: own,
      specificationId: contentIds.section(book.fileId, index),
      specId: book.documentId,
      fileId: book.fileId,
      fileName: 'spec-book.pdf',
      fileNameLower: 'spec-book.pdf',
      classification: 'specifications',
      sectionIndex: index,
      sectionNumber: numberOf(index),
      sectionTitle: `Section ${index}`,
      pageStart: index + 1,
      pageEnd: index + 1,
      textLength: 10,
      facetCount: 0,
      pdfPath: null,
    }));
    // Two facets per section, labelled with their section's index.
    const facets: FacetRecord[] = sections.flatMap((section) =>
      [0, 1].map((facetIndex) => ({
        projectId: own,
        specificationId: section.specificationId,
        facetId: `fct_${section.sectionIndex}_${facetIndex}`,
        facetIndex,
        facetKey: `part_${facetIndex + 1}`,
        facetKind: 'part',
        facetLabel: `section ${section.sectionIndex} facet ${facetIndex}`,
        coverageKind: 'full',
        facetText: 'text',
        pageStart: section.pageStart,
        pageEnd: section.pageEnd,
      })),
    );
    const plans = drawingFile(own, org.orgId, 'Plans.pdf', 3, 1);
    const referencing = (region: RegionRecord, numbers: string[]): RegionRecord => ({
      ...region,
      normalizedData: { specReferences: numbers.map((sectionNumber) => ({ sectionNumber })) } as never,
    });
    const referenced = Array.from({ length: 150 }, (_, index) => numberOf(((index * 250) / 150) | 0));
    const tooMany = Array.from({ length: 401 }, (_, index) => `99 ${String(index).padStart(3, '0')}`);
    // Three sections far apart: their facets are read section by section, not through the span.
    const scattered = [numberOf(3), numberOf(120), numberOf(240)];
    const [first, second, third] = plans.regions;
    if (!first || !second || !third) throw new Error('three regions expected');
    const regions = [
      referencing(first, referenced),
      referencing(second, tooMany),
      referencing(third, scattered),
    ];
    await contentStore().writeFileContent(own, book.fileId, { ...book.content, sections, facets });
    await contentStore().writeFileContent(own, plans.fileId, { ...plans.content, regions });

    // Act
    const listed = await api(
      `/api/open/v1/projects/${own}/specifications?sheets=${first.sheetId}&limit=500&compact=true`,
      { key: org.apiKey },
    );
    const refused = await api(`/api/open/v1/projects/${own}/specifications?sheets=${second.sheetId}`, {
      key: org.apiKey,
    });
    const apart = await api(`/api/open/v1/projects/${own}/specifications?sheets=${third.sheetId}`, {
      key: org.apiKey,
    });
    type Listed = { sectionNumber: string; facets: { facetLabel: string }[] };
    const facetsRight = (listing: Listed[]) =>
      listing.every((section) => {
        const index = sections.find(
          (candidate) => candidate.sectionNumber === section.sectionNumber,
        )?.sectionIndex;
        return (
          JSON.stringify(section.facets.map((facet) => facet.facetLabel)) ===
          JSON.stringify([`section ${index} facet 0`, `section ${index} facet 1`])
        );
      });

    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(new Set(referenced).size);
    expect(
      listed.body.specifications.map((section: { sectionNumber: string }) => section.sectionNumber),
    ).toEqual(
      sections.map((section) => section.sectionNumber).filter((number) => referenced.includes(number)),
    );
    expect(facetsRight(listed.body.specifications)).toBe(true);
    expect(apart.body.specifications.map((section: Listed) => section.sectionNumber)).toEqual(scattered);
    expect(facetsRight(apart.body.specifications)).toBe(true);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('too_many_referenced_sections');
  });

  it('refuses a cursor sealed for another filter with 400 invalid_cursor', async () => {
    // Prepare
    const first = await api(`/api/open/v1/projects/${projectId}/regions?limit=2&regionType=view`, {
      key: org.apiKey,
    });
    // Act
    const reply = await api(
      `/api/open/v1/projects/${projectId}/regions?limit=2&regionType=notes&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { key: org.apiKey },
    );
    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_cursor');
  });

  it('brings rows of the earlier key design into the indexes, and counts their document on first read', async () => {
    // Prepare: a file written as the previous version did (no index entries, a facet under its
    // section, no content summary on the document row).
    const file = drawingFile(projectId, org.orgId, 'Old.pdf', 1, 2);
    for (const region of file.regions)
      await dynamo.send(
        new PutCommand({
          TableName: TABLE,
          Item: {
            ...entities.region.key(projectId, file.fileId, region.pageNumber, region.regionIndex),
            entity: 'region',
            v: 1,
            ...region,
          },
        }),
      );
    const oldFacetKey = { pk: `PROJECT#${projectId}`, sk: `SPEC#${file.fileId}#0000#F#0000` };
    await dynamo.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...oldFacetKey, entity: 'specFacet', v: 1, projectId, facetId: 'fct_old', facetText: 'old' },
      }),
    );
    await dynamo.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...entities.document.key(projectId, file.documentId),
          entity: 'document',
          v: 1,
          ...file.content.document,
        },
      }),
    );
    const before = await allPages('&fileName=old.pdf&regionType=view', 10);

    // Act
    const changed = await upgradeStoredContent(dynamo, TABLE);
    const again = await upgradeStoredContent(dynamo, TABLE);
    const after = await allPages('&regionType=view&fileName=old.pdf', 10);
    const movedFacet = await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': partitions.project(projectId),
          ':prefix': `FACET#${file.fileId}#`,
        },
      }),
    );
    const totals = await contentStore().projectTotals(projectId);
    const documentRow = await dynamo.send(
      new GetCommand({ TableName: TABLE, Key: entities.document.key(projectId, file.documentId) }),
    );

    // Assess: before the upgrade the index misses the old rows; the summary is counted on first read.
    expect(before.ids).toEqual([]);
    // Two regions, the facet, and the document (its waiting sheet keys).
    expect(changed).toBe(4);
    expect(again).toBe(0);
    expect(after.ids).toEqual([file.regions[0]?.regionId]);
    expect(movedFacet.Items?.map((item) => item.facetId)).toEqual(['fct_old']);
    // The sheets its references wait for are listed (none here), so a later file can resolve them.
    expect(documentRow.Item?.unresolvedSheetRefs).toEqual([]);
    expect(totals.counts.regions).toBe(everyRegion().length + file.regions.length);
    expect(totals.counts.files).toBe(files.length + 1);
  });
});
