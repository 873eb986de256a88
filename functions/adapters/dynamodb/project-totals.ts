import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { SearchIndexState } from '../../core/content/model.ts';
import type { ContentSummary } from '../../core/content/summary.ts';
import type { ProjectTotalsWriter } from '../../core/pipeline/ports.ts';
import type { OverviewCounts } from '../../core/projects/model.ts';
import { NORMALIZED_DATA_SCHEMA_VERSION } from '../../engine/model.ts';
import { cancellationReasons } from './errors.ts';
import { entities } from './table.ts';

type Item = Record<string, unknown>;

/**
 * A project's totals as one item of flat counters (`regions`, `regionType#view`, `normalized#v1`,
 * ...), kept current by atomic ADDs of each document's change: reading totals is one GetItem,
 * however large the project. A document row counts once it carries a `revision`; each change
 * replaces the row under a condition on that revision and adds the difference of the counters in
 * the same transaction, so a retried or concurrent write never counts twice.
 */
export interface DocumentCounted {
  classification?: string;
  contentSummary?: ContentSummary;
  searchIndex?: SearchIndexState;
  revision?: number;
}

export function documentCounters(document: DocumentCounted): Record<string, number> {
  const counters: Record<string, number> = {
    files: 1,
    docs: document.classification === 'plans' || document.classification === 'specifications' ? 0 : 1,
  };
  const summary = document.contentSummary;
  if (summary) {
    Object.assign(counters, {
      sheets: summary.sheets,
      regions: summary.regions,
      sections: summary.sections,
      facets: summary.facets,
      [`normalized#v${summary.normalizedSchemaVersion}`]: summary.normalizedRegions,
    });
    for (const [prefix, counts] of [
      ['regionType', summary.regionTypes],
      ['drawingType', summary.drawingTypes],
      ['layoutType', summary.layoutTypes],
    ] as const)
      for (const [value, count] of Object.entries(counts)) counters[`${prefix}#${value}`] = count;
    for (const [code, { count }] of Object.entries(summary.disciplines))
      counters[`discipline#${code}`] = count;
    // Page-number totals come from the counters only while every summary counts its pages.
    if (summary.pageNumbers)
      for (const [page, count] of Object.entries(summary.pageNumbers)) counters[`pageNumber#${page}`] = count;
    else counters.pagesUncounted = 1;
  }
  const state = document.searchIndex;
  if (state) {
    counters.sources = state.sourceCount;
    counters.indexedSources = state.status === 'indexed' ? state.sourceCount : 0;
    counters.indexedPassages = state.status === 'indexed' ? state.passageCount : 0;
  }
  return counters;
}

function difference(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const change = (after[name] ?? 0) - (before[name] ?? 0);
    if (change !== 0) delta[name] = change;
  }
  return delta;
}

const ATTEMPTS = 5;

/** The counter of document row changes, on the project's counters item. */
export const DOCUMENTS_VERSION = 'documentsVersion';

/**
 * Changes one document row and the project's counters together. `change` gets the row as stored
 * (null when absent) and returns the row to store, or null to leave it. Returns the stored row.
 */
export async function changeDocument(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  documentId: string,
  change: (current: Item | null) => Item | null,
): Promise<Item | null> {
  const key = entities.document.key(projectId, documentId);
  for (let attempt = 1; ; attempt++) {
    const { Item: current = null } = await client.send(
      new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    const next = change(current);
    if (next === null) return current;
    const revision = typeof current?.revision === 'number' ? current.revision : null;
    const stored: Item = { ...next, ...key, revision: (revision ?? 0) + 1 };
    // A row written before counters existed was never counted: all of it is added now.
    const before = revision === null ? {} : documentCounters(current as DocumentCounted);
    const delta = difference(before, documentCounters(stored as DocumentCounted));
    const labels = Object.entries(
      (stored.contentSummary as ContentSummary | undefined)?.disciplines ?? {},
    ).map(([code, { label }]) => [`disciplineLabel#${code}`, label] as const);
    const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
      {
        Put: {
          TableName: tableName,
          Item: stored,
          ConditionExpression:
            revision === null
              ? current === null
                ? 'attribute_not_exists(pk)'
                : 'attribute_not_exists(revision)'
              : 'revision = :revision',
          ...(revision === null ? {} : { ExpressionAttributeValues: { ':revision': revision } }),
        },
      },
    ];
    // Every change of a document row counts in `documentsVersion`: what a function keeps of the
    // documents' states (`DynamoSearchIndexStates`) holds while the version it was read at does.
    const counterNames = Object.keys({ ...delta, [DOCUMENTS_VERSION]: 1 });
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const adds = counterNames.map((name, index) => {
      names[`#c${index}`] = name;
      values[`:c${index}`] = name === DOCUMENTS_VERSION ? 1 : delta[name];
      return `#c${index} :c${index}`;
    });
    const sets = labels.map(([name, label], index) => {
      names[`#l${index}`] = name;
      values[`:l${index}`] = label;
      return `#l${index} = :l${index}`;
    });
    items.push({
      Update: {
        TableName: tableName,
        Key: entities.projectCounters.key(projectId),
        UpdateExpression: [
          adds.length ? `ADD ${adds.join(', ')}` : '',
          sets.length ? `SET ${sets.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join(' '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
      return stored;
    } catch (error) {
      // Another writer changed the row since it was read: read it again and redo the change.
      const conflicted = cancellationReasons(error)?.some(
        (reason) => reason.failed || reason.code === 'TransactionConflict',
      );
      if (!conflicted || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** The project's counters (all zero for a project with no documents). */
export async function projectCounters(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
): Promise<Record<string, number | string>> {
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: entities.projectCounters.key(projectId),
      ConsistentRead: true,
    }),
  );
  return (Item ?? {}) as Record<string, number | string>;
}

/**
 * The project's totals from its counters item: one read, whatever the project holds. The end of a job
 * copies them onto the project item (`DynamoProjectTotalsWriter`), which the projects listing reads.
 */
export async function projectTotals(client: DynamoDBDocumentClient, tableName: string, projectId: string) {
  const counters = await projectCounters(client, tableName, projectId);
  const count = (name: string) => (typeof counters[name] === 'number' ? (counters[name] as number) : 0);
  const counts: OverviewCounts = {
    files: count('files'),
    sheets: count('sheets'),
    regions: count('regions'),
    // Sources and passages of indexed documents: each passage is one embedded vector.
    vectors: count('indexedSources'),
    vectorChunks: count('indexedPassages'),
    normalizedRegions: count(`normalized#v${NORMALIZED_DATA_SCHEMA_VERSION}`),
    specifications: count('sections'),
    docs: count('docs'),
  };
  const disciplines = Object.keys(counters)
    .filter((name) => name.startsWith('discipline#') && count(name) > 0)
    .map((name) => {
      const code = name.slice('discipline#'.length);
      return { code, label: String(counters[`disciplineLabel#${code}`] ?? code), count: count(name) };
    });
  return {
    counts,
    searchableSources: count('sources'),
    indexedSources: count('indexedSources'),
    disciplines: disciplines.sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}

export class DynamoProjectTotalsWriter implements ProjectTotalsWriter {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async saveTotals(orgId: string, projectId: string, totals: Awaited<ReturnType<typeof projectTotals>>) {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.project.key(orgId, projectId),
        UpdateExpression:
          'SET counts = :counts, disciplineCounts = :disciplines, indexedSources = :indexed, searchableSources = :searchable, normalizedSchemaVersion = :normalizedVersion, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':counts': totals.counts,
          ':disciplines': totals.disciplines,
          ':indexed': totals.indexedSources,
          ':searchable': totals.searchableSources,
          ':normalizedVersion': NORMALIZED_DATA_SCHEMA_VERSION,
          ':now': new Date().toISOString(),
        },
      }),
    );
  }
}
