import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FacetRecord, SpecSectionRecord } from '../../core/content/model.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { entities, pad, partitions } from './table.ts';

/**
 * The facets of a page of sections, by section id, in facet order. Facets sort by file and section
 * index (`FACET#<file>#<section>#<facet>`), so each file's sections are one key range when they lie
 * close together (a page of a listing); sections scattered over a file (a narrow filter) are read one
 * by one rather than through their whole span.
 */
export async function facetsOfSections(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  sections: SpecSectionRecord[],
): Promise<Map<string, FacetRecord[]>> {
  const bySection = new Map<string, FacetRecord[]>(sections.map((section) => [section.specificationId, []]));
  const byFile = new Map<string, SpecSectionRecord[]>();
  for (const section of sections)
    byFile.set(section.fileId, [...(byFile.get(section.fileId) ?? []), section]);
  const pk = partitions.project(projectId);
  const sectionPrefix = (fileId: string, sectionIndex: number) =>
    `${entities.specFacet.prefix}${fileId}#${pad(sectionIndex, 4)}#`;
  await Promise.all(
    [...byFile].map(async ([fileId, fileSections]) => {
      const indexes = fileSections.map((section) => section.sectionIndex);
      const first = Math.min(...indexes);
      const last = Math.max(...indexes);
      const items =
        last - first + 1 <= 2 * fileSections.length
          ? await queryAll(client, {
              TableName: tableName,
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: {
                ':pk': pk,
                ':from': sectionPrefix(fileId, first),
                // '~' sorts after the digits of every facet index of the last section.
                ':to': `${sectionPrefix(fileId, last)}~`,
              },
            })
          : (
              await Promise.all(
                fileSections.map((section) =>
                  queryAll(client, prefixQuery(tableName, pk, sectionPrefix(fileId, section.sectionIndex))),
                ),
              )
            ).flat();
      const sectionIds = new Map(
        fileSections.map((section) => [section.sectionIndex, section.specificationId]),
      );
      for (const item of items) {
        const sectionId = sectionIds.get(Number(String(item.sk).split('#')[2]));
        if (sectionId !== undefined) bySection.get(sectionId)?.push(entities.specFacet.parse(item));
      }
    }),
  );
  return bySection;
}
