import { describe, expect, it } from 'vitest';
import { DynamoContentStore } from '../../functions/adapters/dynamodb/content-store.ts';
import type { FacetRecord, SpecSectionRecord } from '../../functions/core/content/model.ts';
import { contentIds } from '../../functions/core/content/model.ts';
import { newId } from '../../functions/core/ids.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { readyDocument } from './content-fixtures.ts';
import { api, createOrg, createProject, waitForProject } from './helpers.ts';

/** Ten sections of ten 50,000-character facets: about 5 MB of facet text, over one response's budget. */
function bigSpecification(projectId: string, orgId: string) {
  const fileId = newId('fil');
  const documentId = newId('doc');
  const common = { projectId, fileId, fileName: 'big-spec.pdf', fileNameLower: 'big-spec.pdf' };
  const sections: SpecSectionRecord[] = [];
  const facets: FacetRecord[] = [];
  for (let index = 0; index < 10; index++) {
    const specificationId = contentIds.section(fileId, index);
    sections.push({
      ...common,
      specificationId,
      specId: documentId,
      classification: 'specifications',
      sectionIndex: index,
      sectionNumber: `09 ${String(10 + index)} 00`,
      sectionTitle: `SECTION ${index}`,
      pageStart: index + 1,
      pageEnd: index + 1,
      textLength: 500_000,
      facetCount: 10,
      pdfPath: null,
    });
    for (let facetIndex = 0; facetIndex < 10; facetIndex++) {
      facets.push({
        projectId,
        specificationId,
        facetId: contentIds.facet(fileId, index, facetIndex),
        facetIndex,
        facetKey: `part-${facetIndex}`,
        facetKind: 'part',
        facetLabel: `PART ${facetIndex}`,
        coverageKind: 'full',
        facetText: `${index}.${facetIndex} `.repeat(20_000).slice(0, 50_000),
        pageStart: index + 1,
        pageEnd: index + 1,
      });
    }
  }
  const document = readyDocument({
    orgId,
    projectId,
    fileId,
    documentId,
    fileName: 'big-spec.pdf',
    classification: 'specifications',
    pageCount: 10,
    specificationCount: 10,
  });
  return { fileId, content: { document, sheets: [], regions: [], sections, facets } };
}

describe('listing pages under the response size limit', () => {
  it('stops a page early when its items are large, and the next cursor resumes right after it', async () => {
    // Prepare
    const org = await createOrg();
    const projectId = (await createProject(org.apiKey, 'Large facets')).body.project.id;
    await waitForProject(org.apiKey, projectId);
    const { fileId, content } = bigSpecification(projectId, org.orgId);
    await new DynamoContentStore(dynamo, process.env.TABLE_NAME ?? '').writeFileContent(
      projectId,
      fileId,
      content,
    );

    // Act
    const pages = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await api(`/api/open/v1/projects/${projectId}/specifications?limit=500${query}`, {
        key: org.apiKey,
      });
      expect(page.status).toBe(200);
      pages.push(page.body);
      cursor = page.body.nextCursor;
    } while (cursor && pages.length < 20);

    // Assess
    const sectionNumbers = pages.flatMap((page) =>
      page.specifications.map((section: { sectionNumber: string }) => section.sectionNumber),
    );
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0].returnedCount).toBeLessThan(10);
    expect(pages[0].total).toBe(10);
    expect(sectionNumbers).toEqual(content.sections.map((section) => section.sectionNumber));
    for (const page of pages) expect(JSON.stringify(page).length).toBeLessThan(6_000_000);
  });
});
