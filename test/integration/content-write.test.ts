import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { entities, partitions } from '../../functions/adapters/dynamodb/table.ts';
import type { FacetRecord, SpecSectionRecord } from '../../functions/core/content/model.ts';
import { contentIds } from '../../functions/core/content/model.ts';
import { newId } from '../../functions/core/ids.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { contentStore } from '../../functions/shared/wiring/adapters.ts';
import { readyDocument } from './content-fixtures.ts';
import { createOrg, createProject, type TestOrg, waitForProject } from './helpers.ts';

const TABLE = process.env.TABLE_NAME ?? '';

/** A specification book of two sections with two facets each, its section PDFs not stored yet. */
function specBook(projectId: string, orgId: string) {
  const fileId = newId('fil');
  const documentId = newId('doc');
  const fileName = 'spec-book.pdf';
  const sections: SpecSectionRecord[] = [0, 1].map((index) => ({
    projectId,
    specificationId: contentIds.section(fileId, index),
    specId: documentId,
    fileId,
    fileName,
    fileNameLower: fileName,
    classification: 'specifications',
    sectionIndex: index,
    sectionNumber: `07 5${index} 00`,
    sectionTitle: `Section ${index}`,
    pageStart: index + 1,
    pageEnd: index + 1,
    textLength: 10,
    facetCount: 2,
    pdfPath: null,
  }));
  const facets: FacetRecord[] = sections.flatMap((section) =>
    [0, 1].map((facetIndex) => ({
      projectId,
      specificationId: section.specificationId,
      facetId: contentIds.facet(fileId, section.sectionIndex, facetIndex),
      facetIndex,
      facetKey: `part_${facetIndex + 1}`,
      facetKind: 'part',
      facetLabel: `PART ${facetIndex + 1}`,
      coverageKind: 'full',
      facetText: 'text',
      pageStart: section.pageStart,
      pageEnd: section.pageEnd,
    })),
  );
  const document = readyDocument({
    orgId,
    projectId,
    fileId,
    documentId,
    fileName,
    classification: 'specifications',
    pageCount: 2,
    specificationCount: 2,
  });
  return { fileId, documentId, content: { document, sheets: [], regions: [], sections, facets } };
}

const rowsUnder = async (projectId: string, prefix: string) =>
  (
    await dynamo.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partitions.project(projectId), ':prefix': prefix },
      }),
    )
  ).Items ?? [];

const documentRow = async (projectId: string, documentId: string) =>
  (await dynamo.send(new GetCommand({ TableName: TABLE, Key: entities.document.key(projectId, documentId) })))
    .Item;

describe("a file's rows written while its section PDFs are stored", () => {
  let org: TestOrg;
  let projectId: string;

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Content writes')).body.project.id);
    await waitForProject(org.apiKey, projectId);
  });

  it('writes the facets meanwhile, then the sections as given back and the document row last', async () => {
    // Prepare
    const book = specBook(projectId, org.orgId);
    const seen: { facets: number; sections: number; document: boolean }[] = [];

    // Act: the sections come back once the facets are in the table (they are written without waiting).
    await contentStore().writeFileContent(projectId, book.fileId, book.content, async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        if ((await rowsUnder(projectId, `${entities.specFacet.prefix}${book.fileId}#`)).length === 4) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      seen.push({
        facets: (await rowsUnder(projectId, `${entities.specFacet.prefix}${book.fileId}#`)).length,
        sections: (await rowsUnder(projectId, `${entities.specSection.prefix}${book.fileId}#`)).length,
        document: (await documentRow(projectId, book.documentId)) !== undefined,
      });
      return book.content.sections.map((section) => ({ ...section, pdfPath: `pdf/${section.sectionIndex}` }));
    });

    // Assess
    expect(seen).toEqual([{ facets: 4, sections: 0, document: false }]);
    const sections = await rowsUnder(projectId, `${entities.specSection.prefix}${book.fileId}#`);
    expect(sections.map((row) => row.pdfPath as string | null)).toEqual(['pdf/0', 'pdf/1']);
    expect(await documentRow(projectId, book.documentId)).toMatchObject({ status: 'ready' });
  });

  it('writes no section and no document row when the section PDFs fail, and says so', async () => {
    // Prepare
    const book = specBook(projectId, org.orgId);

    // Act
    const written = contentStore().writeFileContent(projectId, book.fileId, book.content, () =>
      Promise.reject(new Error('storage unavailable')),
    );

    // Assess
    await expect(written).rejects.toThrow('storage unavailable');
    expect(await rowsUnder(projectId, `${entities.specSection.prefix}${book.fileId}#`)).toEqual([]);
    expect(await documentRow(projectId, book.documentId)).toBeUndefined();
  });
});
