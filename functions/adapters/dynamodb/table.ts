/**
 * THE key design of the single table: one definition per stored item (`entities`), in the shape of
 * ElectroDB's entity (its label, its version, the keys of each index it appears in, its attributes),
 * from which every key, item and parsed record comes. `lib/stateful-stack.ts` builds the table from
 * `TABLE_DESIGN`, so the table and the code cannot drift. Why not ElectroDB itself: docs/decisions.md
 * ("One definition per stored item").
 *
 * Generic attributes: pk/sk, gsi1pk/gsi1sk, ... Segments are labelled (`ORG#o1`).
 * Everything an organization owns sits under keys that start with its id, so a lookup with the
 * caller's organization can never return another organization's item: isolation by construction.
 */

import type { ApiKeyRecord } from '../../core/auth/model.ts';
import type { SessionRecord } from '../../core/auth/ports.ts';
import type {
  DocumentRecord,
  FacetRecord,
  RegionRecord,
  SheetRecord,
  SpecSectionRecord,
} from '../../core/content/model.ts';
import type { JobFileRecord, JobRecord } from '../../core/jobs/model.ts';
import type { ProjectRecord } from '../../core/projects/model.ts';
import type { ExecutionRecord, ReviewRecord } from '../../core/reviews/model.ts';
import type { WebhookRecord } from '../../core/webhooks/model.ts';
/**
 * What an index holds of each item beside its keys: `ALL` (a read needs no second one), `KEYS_ONLY`,
 * or `INCLUDE` these attributes (the ones its queries filter on; the page's items are then read from
 * the table by key). Every attribute an index holds is written again with every write of the item.
 */
export type IndexProjection =
  | { type: 'ALL' }
  | { type: 'KEYS_ONLY' }
  | { type: 'INCLUDE'; attributes: readonly string[] };

/** The attributes the regions listing filters on (content-reader.ts): what the region indexes hold. */
export const REGION_FILTER_ATTRIBUTES = [
  'fileId',
  'fileNameLower',
  'classification',
  'pageNumber',
  'regionType',
  'drawingType',
  'layoutType',
] as const;

export const TABLE_DESIGN = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAtEpoch',
  indexes: {
    /**
     * Children of a parent listed in time order: an org's API keys, a project's jobs and reviews, and
     * documents by digest. ALL: every listing returns whole records (small items), so a second read
     * per page would cost more than the projection.
     */
    byParent: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'ALL' } },
    /**
     * Jobs still accepting uploads, by the time their upload window ends: the expiry sweep, which
     * reads each job it finds from the table (consistently) before ending it.
     */
    openJobsByExpiry: {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      projection: { type: 'KEYS_ONLY' },
    },
    /**
     * A project's regions of one `regionType`, in the order of the regions listing. Regions are the
     * largest rows (normalized data, text): the index holds what the listing filters on, and a page's
     * regions are read from the table by key.
     */
    regionsByType: {
      name: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      projection: { type: 'INCLUDE', attributes: REGION_FILTER_ATTRIBUTES },
    },
    /** A project's regions on one page number (of any file), in the order of the regions listing. */
    regionsByPage: {
      name: 'gsi4',
      partitionKey: 'gsi4pk',
      sortKey: 'gsi4sk',
      projection: { type: 'INCLUDE', attributes: REGION_FILTER_ATTRIBUTES },
    },
  },
} as const satisfies {
  partitionKey: string;
  sortKey: string;
  ttlAttribute: string;
  indexes: Record<
    string,
    { name: string; partitionKey: string; sortKey: string; projection: IndexProjection }
  >;
};

/**
 * Partition-key prefixes of the items every authenticated request may update: its rate-limit window
 * and its key's last use. A function with read access to the table may update only these
 * (`dynamodb:LeadingKeys`).
 */
export const REQUEST_ACCOUNTING_PREFIXES = ['RATE#', 'APIKEY#'] as const;

export type Key = { pk: string; sk: string };
type Item = Record<string, unknown>;

/** The partitions shared by several items: an organization's, a project's, an execution's. */
export const partitions = {
  organization: (orgId: string) => `ORG#${orgId}`,
  project: (projectId: string) => `PROJECT#${projectId}`,
  execution: (executionId: string) => `EXECUTION#${executionId}`,
  /** A project's regions of one type (the regionsByType index), in the regions listing's order. */
  regionsOfType: (projectId: string, regionType: string) => `PROJECT#${projectId}#REGIONTYPE#${regionType}`,
  /** A project's regions on one page number, of any file (the regionsByPage index). */
  regionsOnPage: (projectId: string, pageNumber: number) => `PROJECT#${projectId}#PAGE#${pad(pageNumber, 5)}`,
  /** An organization's API keys (the byParent index). */
  apiKeysOfOrganization: (orgId: string) => `ORG#${orgId}#APIKEYS`,
} as const;

/** The one partition of the open-jobs index (jobs accepting uploads are few at any time). */
const OPEN_JOBS = 'OPENJOBS';

const STORAGE_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'entity',
  'v',
  'revision',
]);

interface EntitySchema {
  /** The label every item of this kind carries (`entity`), and the version of its shape (`v`). */
  entity: string;
  version: number;
  /** The primary key from its composites. */
  key: (...composites: never[]) => Key;
  /** The sort-key prefix that every item of this kind starts with in its partition. */
  prefix?: string;
  /** The keys of the secondary indexes this item is written into, from their composites. */
  indexes?: { [index: string]: (...composites: never[]) => Item };
  /** The record's attributes; a stored item without one reads it as null. Without the list, every attribute but the storage ones. */
  attributes?: readonly string[];
}

export class StoredItemError extends Error {
  override readonly name = 'StoredItemError';
}

/**
 * One stored item kind: its schema, plus `format` (a record and its keys -> the item to write) and
 * `parse` (an item read -> the record, without its storage attributes). `parse` refuses an item of
 * another kind or of a newer version than this code knows, so a read never passes one shape off as another.
 */
function defineEntity<Stored>() {
  return <Schema extends EntitySchema>(schema: Schema) => ({
    ...schema,
    format(keys: Item, record: Stored): Item {
      return { ...keys, entity: schema.entity, v: schema.version, ...record };
    },
    parse(item: Item): Stored {
      if (item.entity !== undefined && item.entity !== schema.entity)
        throw new StoredItemError(`Expected a ${schema.entity} item, read a ${String(item.entity)} item.`);
      if (typeof item.v === 'number' && item.v > schema.version)
        throw new StoredItemError(
          `A ${schema.entity} item of version ${item.v} is newer than this code (version ${schema.version}).`,
        );
      const record: Item = {};
      if (schema.attributes) for (const field of schema.attributes) record[field] = item[field] ?? null;
      else
        for (const [field, value] of Object.entries(item))
          if (!STORAGE_ATTRIBUTES.has(field)) record[field] = value;
      return record as Stored;
    },
    /** The fields of a projection read (a `ProjectionExpression` of `fields`), typed as the record's. */
    pick<Field extends keyof Stored & string>(item: Item, fields: readonly Field[]): Pick<Stored, Field> {
      const record: Item = {};
      for (const field of fields) if (item[field] !== undefined) record[field] = item[field];
      return record as Pick<Stored, Field>;
    },
  });
}

/** A region's sort key: the regions listing's order (file, page, position). */
const regionSortKey = (fileId: string, page: number, index: number) =>
  `REGION#${fileId}#${pad(page, 5)}#${pad(index, 4)}`;

export const entities = {
  organization: defineEntity<Item>()({
    entity: 'organization',
    version: 1,
    key: (orgId: string) => ({ pk: partitions.organization(orgId), sk: 'ORG' }),
  }),
  /** One append-only credit movement; the id decides the key, so writing it twice fails its condition. */
  ledgerEntry: defineEntity<Item>()({
    entity: 'ledgerEntry',
    version: 1,
    key: (orgId: string, entryId: string) => ({
      pk: partitions.organization(orgId),
      sk: `LEDGER#${entryId}`,
    }),
    prefix: 'LEDGER#',
  }),
  project: defineEntity<ProjectRecord>()({
    entity: 'project',
    version: 1,
    key: (orgId: string, projectId: string) => ({
      pk: partitions.organization(orgId),
      sk: `PROJECT#${projectId}`,
    }),
    prefix: 'PROJECT#',
    attributes: [
      'orgId',
      'id',
      'name',
      'status',
      'runtimeStatus',
      'error',
      'counts',
      'disciplineCounts',
      'indexedSources',
      'searchableSources',
      'settings',
      'indexLocation',
      'charge',
      'createdAt',
      'updatedAt',
    ],
  }),
  /** Uniqueness guard for project names, case-insensitive (NFKC + lower case). */
  projectName: defineEntity<Item>()({
    entity: 'projectName',
    version: 1,
    key: (orgId: string, name: string) => ({
      pk: partitions.organization(orgId),
      sk: `PROJECTNAME#${normalizeName(name)}`,
    }),
  }),
  job: defineEntity<JobRecord>()({
    entity: 'job',
    version: 1,
    key: (orgId: string, jobId: string) => ({ pk: partitions.organization(orgId), sk: `JOB#${jobId}` }),
    prefix: 'JOB#',
    indexes: {
      byParent: (projectId: string, jobId: string) => ({
        gsi1pk: `${partitions.project(projectId)}#JOBS`,
        gsi1sk: `JOB#${jobId}`,
      }),
      /** Set while a job accepts uploads, removed when it leaves those statuses (a sparse index). */
      openJobsByExpiry: (expiresAt: string, jobId: string) => ({
        gsi2pk: OPEN_JOBS,
        gsi2sk: `${expiresAt}#${jobId}`,
      }),
    },
  }),
  jobFile: defineEntity<JobFileRecord>()({
    entity: 'jobFile',
    version: 1,
    key: (jobId: string, fileId: string) => ({ pk: `JOB#${jobId}`, sk: `FILE#${fileId}` }),
    prefix: 'FILE#',
  }),
  document: defineEntity<DocumentRecord>()({
    entity: 'document',
    version: 1,
    key: (projectId: string, documentId: string) => ({
      pk: partitions.project(projectId),
      sk: `DOC#${documentId}`,
    }),
    prefix: 'DOC#',
    indexes: {
      /** Documents by content digest, for deduplication of uploads within a project. */
      byParent: (projectId: string, sha256: string, documentId: string) => ({
        gsi1pk: `${partitions.project(projectId)}#SHA#${sha256}`,
        gsi1sk: `DOC#${documentId}`,
      }),
    },
  }),
  /** The project's totals, kept by atomic additions as its documents change (project-totals.ts). */
  projectCounters: defineEntity<Item>()({
    entity: 'projectCounters',
    version: 1,
    key: (projectId: string) => ({ pk: partitions.project(projectId), sk: 'COUNTERS' }),
  }),
  /** The lease of the one writer of a project's source index. */
  indexLock: defineEntity<Item>()({
    entity: 'indexLock',
    version: 1,
    key: (projectId: string) => ({ pk: partitions.project(projectId), sk: 'INDEXLOCK' }),
  }),
  /** Extracted content lives in its project's partition, ordered by file, page and position. */
  sheet: defineEntity<SheetRecord>()({
    entity: 'sheet',
    version: 1,
    key: (projectId: string, fileId: string, page: number) => ({
      pk: partitions.project(projectId),
      sk: `SHEET#${fileId}#${pad(page, 5)}`,
    }),
    prefix: 'SHEET#',
  }),
  region: defineEntity<RegionRecord>()({
    entity: 'region',
    version: 1,
    key: (projectId: string, fileId: string, page: number, index: number) => ({
      pk: partitions.project(projectId),
      sk: regionSortKey(fileId, page, index),
    }),
    prefix: 'REGION#',
    indexes: {
      /**
       * A region's entries in the filter indexes, ordered like the regions listing (the region's own
       * sort key), so a filtered page reads only matching regions.
       */
      filters: (
        projectId: string,
        region: { fileId: string; pageNumber: number; regionIndex: number; regionType: string },
      ) => {
        const sk = regionSortKey(region.fileId, region.pageNumber, region.regionIndex);
        return {
          gsi3pk: partitions.regionsOfType(projectId, region.regionType),
          gsi3sk: sk,
          gsi4pk: partitions.regionsOnPage(projectId, region.pageNumber),
          gsi4sk: sk,
        };
      },
    },
  }),
  specSection: defineEntity<SpecSectionRecord>()({
    entity: 'specSection',
    version: 1,
    key: (projectId: string, fileId: string, index: number) => ({
      pk: partitions.project(projectId),
      sk: `SPEC#${fileId}#${pad(index, 4)}`,
    }),
    prefix: 'SPEC#',
  }),
  /**
   * Facets under their own prefix, in their section's order: a page of sections reads no facet
   * text, and one section's facets are one query.
   */
  specFacet: defineEntity<FacetRecord>()({
    entity: 'specFacet',
    version: 1,
    key: (projectId: string, fileId: string, index: number, facet: number) => ({
      pk: partitions.project(projectId),
      sk: `FACET#${fileId}#${pad(index, 4)}#${pad(facet, 4)}`,
    }),
    prefix: 'FACET#',
  }),
  webhook: defineEntity<WebhookRecord>()({
    entity: 'webhook',
    version: 1,
    key: (orgId: string) => ({ pk: partitions.organization(orgId), sk: 'WEBHOOK' }),
  }),
  apiKey: defineEntity<ApiKeyRecord>()({
    entity: 'apiKey',
    version: 1,
    key: (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' }),
    indexes: {
      byParent: (orgId: string, keyId: string, createdAt: string) => ({
        gsi1pk: partitions.apiKeysOfOrganization(orgId),
        gsi1sk: `APIKEY#${createdAt}#${keyId}`,
      }),
    },
    attributes: [
      'id',
      'orgId',
      'label',
      'keyPrefix',
      'scopes',
      'createdByUserId',
      'hashVersion',
      'secretHash',
      'createdAt',
      'expiresAt',
      'lastUsedAt',
      'lastUsedIp',
      'revokedAt',
      'rateLimitPerMinute',
    ],
  }),
  session: defineEntity<SessionRecord>()({
    entity: 'session',
    version: 1,
    key: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  }),
  review: defineEntity<ReviewRecord>()({
    entity: 'review',
    version: 1,
    key: (orgId: string, reviewId: string) => ({
      pk: partitions.organization(orgId),
      sk: `REVIEW#${reviewId}`,
    }),
    indexes: {
      /** Reviews of a project, newest first (ids are time-ordered). */
      byParent: (projectId: string, reviewId: string) => ({
        gsi1pk: `${partitions.project(projectId)}#REVIEWS`,
        gsi1sk: `REVIEW#${reviewId}`,
      }),
    },
  }),
  /** A remembered Idempotency-Key of an organization, for one operation (the key's digest). */
  idempotencyKey: defineEntity<Item>()({
    entity: 'idempotencyKey',
    version: 1,
    key: (orgId: string, scope: string, keyDigest: string) => ({
      pk: partitions.organization(orgId),
      sk: `IDEMPOTENCY#${scope}#${keyDigest}`,
    }),
  }),
  reviewExecution: defineEntity<ExecutionRecord>()({
    entity: 'reviewExecution',
    version: 1,
    key: (orgId: string, executionId: string) => ({
      pk: partitions.organization(orgId),
      sk: `EXECUTION#${executionId}`,
    }),
  }),
  /** Events of one execution, ordered by sequence (zero-padded so string order is numeric order). */
  executionEvent: defineEntity<Item>()({
    entity: 'executionEvent',
    version: 1,
    key: (executionId: string, sequence: number) => ({
      pk: partitions.execution(executionId),
      sk: `EVENT#${String(sequence).padStart(12, '0')}`,
    }),
    prefix: 'EVENT#',
  }),
  /** Marks an event written once by key (a retried step), in its own partition beside the events. */
  executionEventKey: defineEntity<Item>()({
    entity: 'executionEventKey',
    version: 1,
    key: (executionId: string, eventKey: string) => ({
      pk: `${partitions.execution(executionId)}#KEYS`,
      sk: `KEY#${eventKey}`,
    }),
  }),
  rateWindow: defineEntity<Item>()({
    entity: 'rateWindow',
    version: 1,
    key: (subject: string, windowStart: number) => ({ pk: `RATE#${subject}`, sk: `W#${windowStart}` }),
  }),
} as const;

/** The partition of the open-jobs index. */
export const openJobsPartition = OPEN_JOBS;

export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

/** One ledger entry as stored. */
export function ledgerEntryItem(entry: {
  orgId: string;
  id: string;
  kind: string;
  amount: number;
  createdAt: string;
  [detail: string]: unknown;
}) {
  return entities.ledgerEntry.format(entities.ledgerEntry.key(entry.orgId, entry.id), entry);
}
