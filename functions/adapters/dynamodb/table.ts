/**
 * THE key design of the single table. Every key, index name and entity version lives here;
 * `lib/stateful-stack.ts` builds the table from `TABLE_DESIGN`, so the table and the code cannot drift.
 *
 * Generic attributes: pk/sk, gsi1pk/gsi1sk. Segments are labelled (`ORG#o1`).
 * Everything an organization owns sits under keys that start with its id, so a lookup with the
 * caller's organization can never return another organization's item: isolation by construction.
 */

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

export const ENTITY_VERSION = {
  organization: 1,
  ledgerEntry: 1,
  project: 1,
  projectName: 1,
  apiKey: 1,
  session: 1,
  rateWindow: 1,
  webhook: 1,
  job: 1,
  jobFile: 1,
  document: 1,
  sheet: 1,
  region: 1,
  specSection: 1,
  specFacet: 1,
  review: 1,
  idempotencyKey: 1,
  reviewExecution: 1,
  executionEvent: 1,
  executionEventKey: 1,
} as const;

export type Key = { pk: string; sk: string };

/** The one partition of the open-jobs index (jobs accepting uploads are few at any time). */
const OPEN_JOBS = 'OPENJOBS';

export const keys = {
  organization: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  ledgerEntry: (orgId: string, entryId: string): Key => ({ pk: `ORG#${orgId}`, sk: `LEDGER#${entryId}` }),
  ledgerPrefix: 'LEDGER#',
  project: (orgId: string, projectId: string): Key => ({ pk: `ORG#${orgId}`, sk: `PROJECT#${projectId}` }),
  projectPrefix: 'PROJECT#',
  /** Uniqueness guard for project names, case-insensitive (NFKC + lower case). */
  projectName: (orgId: string, name: string): Key => ({
    pk: `ORG#${orgId}`,
    sk: `PROJECTNAME#${normalizeName(name)}`,
  }),
  job: (orgId: string, jobId: string): Key => ({ pk: `ORG#${orgId}`, sk: `JOB#${jobId}` }),
  jobPrefix: 'JOB#',
  jobInProject: (projectId: string, jobId: string) => ({
    gsi1pk: `PROJECT#${projectId}#JOBS`,
    gsi1sk: `JOB#${jobId}`,
  }),
  /** Set while a job accepts uploads, removed when it leaves those statuses (a sparse index). */
  openJob: (expiresAt: string, jobId: string) => ({ gsi2pk: OPEN_JOBS, gsi2sk: `${expiresAt}#${jobId}` }),
  openJobsPartition: OPEN_JOBS,
  jobFile: (jobId: string, fileId: string): Key => ({ pk: `JOB#${jobId}`, sk: `FILE#${fileId}` }),
  jobFilePrefix: 'FILE#',
  document: (projectId: string, documentId: string): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `DOC#${documentId}`,
  }),
  /** The project's totals, kept by atomic additions as its documents change (project-counters.ts). */
  projectCounters: (projectId: string): Key => ({ pk: `PROJECT#${projectId}`, sk: 'COUNTERS' }),
  /** The lease of the one writer of a project's source index. */
  indexLock: (projectId: string): Key => ({ pk: `PROJECT#${projectId}`, sk: 'INDEXLOCK' }),
  /** Documents by content digest, for deduplication of uploads within a project. */
  documentByDigest: (projectId: string, sha256: string, documentId: string) => ({
    gsi1pk: `PROJECT#${projectId}#SHA#${sha256}`,
    gsi1sk: `DOC#${documentId}`,
  }),
  /** Extracted content lives in its project's partition, ordered by file, page and position. */
  sheet: (projectId: string, fileId: string, page: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `SHEET#${fileId}#${pad(page, 5)}`,
  }),
  sheetPrefix: 'SHEET#',
  region: (projectId: string, fileId: string, page: number, index: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `REGION#${fileId}#${pad(page, 5)}#${pad(index, 4)}`,
  }),
  regionPrefix: 'REGION#',
  /**
   * A region's entries in the filter indexes, ordered like the regions listing (the region's own
   * sort key), so a filtered page reads only matching regions.
   */
  regionIndexKeys: (
    projectId: string,
    region: { fileId: string; pageNumber: number; regionIndex: number; regionType: string },
  ) => {
    const sk = `REGION#${region.fileId}#${pad(region.pageNumber, 5)}#${pad(region.regionIndex, 4)}`;
    return {
      gsi3pk: `PROJECT#${projectId}#REGIONTYPE#${region.regionType}`,
      gsi3sk: sk,
      gsi4pk: `PROJECT#${projectId}#PAGE#${pad(region.pageNumber, 5)}`,
      gsi4sk: sk,
    };
  },
  regionsOfType: (projectId: string, regionType: string) => `PROJECT#${projectId}#REGIONTYPE#${regionType}`,
  regionsOnPage: (projectId: string, pageNumber: number) => `PROJECT#${projectId}#PAGE#${pad(pageNumber, 5)}`,
  specSection: (projectId: string, fileId: string, index: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `SPEC#${fileId}#${pad(index, 4)}`,
  }),
  /**
   * Facets under their own prefix, in their section's order: a page of sections reads no facet
   * text, and one section's facets are one query.
   */
  specFacet: (projectId: string, fileId: string, index: number, facet: number): Key => ({
    pk: `PROJECT#${projectId}`,
    sk: `FACET#${fileId}#${pad(index, 4)}#${pad(facet, 4)}`,
  }),
  specPrefix: 'SPEC#',
  facetPrefix: 'FACET#',
  documentPrefix: 'DOC#',
  webhook: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'WEBHOOK' }),
  apiKey: (keyId: string): Key => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' }),
  apiKeysOfOrg: (orgId: string) => ({ gsi1pk: `ORG#${orgId}#APIKEYS` }),
  apiKeyInOrg: (orgId: string, keyId: string, createdAt: string) => ({
    gsi1pk: `ORG#${orgId}#APIKEYS`,
    gsi1sk: `APIKEY#${createdAt}#${keyId}`,
  }),
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  review: (orgId: string, reviewId: string): Key => ({ pk: `ORG#${orgId}`, sk: `REVIEW#${reviewId}` }),
  /** Reviews of a project, newest first (ids are time-ordered). */
  reviewInProject: (projectId: string, reviewId: string) => ({
    gsi1pk: `PROJECT#${projectId}#REVIEWS`,
    gsi1sk: `REVIEW#${reviewId}`,
  }),
  /** A remembered Idempotency-Key of an organization, for one operation (the key's digest). */
  idempotencyKey: (orgId: string, scope: string, keyDigest: string): Key => ({
    pk: `ORG#${orgId}`,
    sk: `IDEMPOTENCY#${scope}#${keyDigest}`,
  }),
  reviewExecution: (orgId: string, executionId: string): Key => ({
    pk: `ORG#${orgId}`,
    sk: `EXECUTION#${executionId}`,
  }),
  /** Events of one execution, ordered by sequence (zero-padded so string order is numeric order). */
  executionEvent: (executionId: string, sequence: number): Key => ({
    pk: `EXECUTION#${executionId}`,
    sk: `EVENT#${String(sequence).padStart(12, '0')}`,
  }),
  executionEventPrefix: 'EVENT#',
  /** Marks an event written once by key (a retried step), in its own partition beside the events. */
  executionEventKey: (executionId: string, eventKey: string): Key => ({
    pk: `EXECUTION#${executionId}#KEYS`,
    sk: `KEY#${eventKey}`,
  }),
  rateWindow: (subject: string, windowStart: number): Key => ({
    pk: `RATE#${subject}`,
    sk: `W#${windowStart}`,
  }),
} as const;

export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

export function normalizeName(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

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

/** An item without its storage attributes (keys, entity label, version): the record the code works with. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const record: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(item))
    if (!STORAGE_ATTRIBUTES.has(field)) record[field] = value;
  return record as T;
}

/** One append-only ledger entry as stored; the id decides the key, so writing it twice fails its condition. */
export function ledgerEntryItem(entry: {
  orgId: string;
  id: string;
  kind: string;
  amount: number;
  createdAt: string;
  [detail: string]: unknown;
}) {
  return {
    ...keys.ledgerEntry(entry.orgId, entry.id),
    entity: 'ledgerEntry',
    v: ENTITY_VERSION.ledgerEntry,
    ...entry,
  };
}
