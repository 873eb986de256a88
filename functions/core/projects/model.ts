import { z } from 'zod';
import { NORMALIZED_DATA_SCHEMA_VERSION } from '../../engine/model.ts';
import { type ErrorInfo, ErrorInfoSchema } from '../errors.ts';
import type { LatestJobSummary } from './ports.ts';

export const PROJECT_NAME_MAX = 180;

export const ProjectStatusSchema = z
  .enum(['provisioning', 'ready', 'failed'])
  .describe(
    '`provisioning` right after creation, `ready` when usable, `failed` when provisioning failed (terminal; the charge is refunded).',
  );

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string().max(PROJECT_NAME_MAX),
  projectKind: z.literal('open_api'),
  disciplines: z.array(z.string()),
  status: ProjectStatusSchema,
  runtime: z.object({
    status: z.enum(['starting', 'ready', 'running', 'failed']),
    upgradeStatus: z.enum(['none']).nullable(),
  }),
  error: ErrorInfoSchema.nullable().describe('Why provisioning failed; null otherwise.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const OverviewCountsSchema = z.object({
  files: z.number().int(),
  sheets: z.number().int(),
  regions: z.number().int(),
  vectors: z.number().int(),
  vectorChunks: z.number().int(),
  normalizedRegions: z.number().int(),
  specifications: z.number().int(),
  docs: z.number().int(),
});
export type OverviewCounts = z.infer<typeof OverviewCountsSchema>;

export const LatestJobSchema = z.object({
  id: z.string(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  error: ErrorInfoSchema.nullable(),
});
export type LatestJob = z.infer<typeof LatestJobSchema>;

export const ProjectOverviewSchema = z.object({
  status: z.enum(['provisioning', 'processing', 'ready', 'error']),
  statusLabel: z.string(),
  counts: OverviewCountsSchema,
  disciplines: z.array(z.object({ code: z.string(), label: z.string(), count: z.number().int() })),
  latestJob: LatestJobSchema.nullable(),
  nextAction: z.enum(['wait', 'upload', 'vectorize', 'normalize']).nullable(),
  capabilities: z.object({
    canCreateJob: z.boolean(),
    canUpload: z.boolean(),
    canSearch: z.boolean(),
    canVectorize: z.boolean(),
    canNormalize: z.boolean(),
  }),
});
export type ProjectOverview = z.infer<typeof ProjectOverviewSchema>;

export const BillingSchema = z.object({
  availableCredits: z.number().int(),
  creditsCharged: z.number().int(),
  requiredCredits: z.number().int(),
});

declare const ownershipChecked: unique symbol;

/**
 * A project read through its organization's key, so its organization is the caller's. Only the
 * project store's `get` returns one; readers of a project's content (keyed by project, not by
 * organization) take one, so content cannot be read before the ownership check.
 */
export type OwnedProject = ProjectRecord & { readonly [ownershipChecked]: true };
/** What a content reader needs of an owned project. */
export type OwnedProjectRef = Pick<OwnedProject, 'id' | typeof ownershipChecked>;

/** What the table stores for a project; the public shape is derived from it. */
export interface ProjectRecord {
  orgId: string;
  id: string;
  name: string;
  status: Project['status'];
  runtimeStatus: Project['runtime']['status'];
  error: ErrorInfo | null;
  counts: OverviewCounts;
  disciplineCounts: { code: string; label: string; count: number }[];
  /** Sources (regions, sections, facets, document pages) of indexed documents, as of the last totals. */
  indexedSources: number;
  /** Sources of every ready document (indexed or not), as of the last totals; null on older rows. */
  searchableSources: number | null;
  /**
   * The normalizedData schema version `counts.normalizedRegions` was counted for. Once the engine
   * moves to a newer version, regions normalized by the older one no longer count (absent: 1).
   */
  normalizedSchemaVersion?: number;
  settings: ProjectSettings | null;
  indexLocation: string | null;
  charge: { ledgerEntryId: string; credits: number };
  createdAt: string;
  updatedAt: string;
}

export interface ProjectSettings {
  ocr: 'auto' | 'off';
  defaultClassification: 'auto';
  schemaVersion: 1;
}

export const EMPTY_COUNTS: OverviewCounts = {
  files: 0,
  sheets: 0,
  regions: 0,
  vectors: 0,
  vectorChunks: 0,
  normalizedRegions: 0,
  specifications: 0,
  docs: 0,
};

export function toPublicProject(record: ProjectRecord): Project {
  return {
    id: record.id,
    name: record.name,
    projectKind: 'open_api',
    disciplines: record.disciplineCounts.map((discipline) => discipline.label),
    status: record.status,
    runtime: { status: record.runtimeStatus, upgradeStatus: record.status === 'ready' ? 'none' : null },
    error: record.error,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

const STATUS_LABELS: Record<ProjectOverview['status'], string> = {
  provisioning: 'Provisioning',
  processing: 'Processing files',
  ready: 'Ready',
  error: 'Error',
};

/**
 * The overview follows the spec's rules: normalization is useful when regions outnumber
 * normalized regions; index reconciliation when sources exist but search is not possible.
 */
export function computeOverview(record: ProjectRecord, latest: LatestJobSummary | null): ProjectOverview {
  const ready = record.status === 'ready';
  const jobActive = latest?.active ?? false;
  // Counted for an older normalizedData version: none of those regions is normalized any more.
  const counts =
    (record.normalizedSchemaVersion ?? 1) < NORMALIZED_DATA_SCHEMA_VERSION
      ? { ...record.counts, normalizedRegions: 0 }
      : record.counts;
  const indexed = record.indexedSources ?? 0;
  const searchable = record.searchableSources ?? 0;
  // Search answers (200) unless sources exist and none is indexed yet (409); sources of documents not
  // indexed (pending, failed) make reconciliation ("vectorize") useful.
  const canSearch = ready && (indexed > 0 || (searchable === 0 && !jobActive));
  const canNormalize = ready && !jobActive && counts.regions > counts.normalizedRegions;
  const canVectorize = ready && !jobActive && searchable > indexed;

  let status: ProjectOverview['status'];
  if (record.status === 'failed') status = 'error';
  else if (record.status === 'provisioning') status = 'provisioning';
  else if (jobActive) status = 'processing';
  else status = 'ready';

  let nextAction: ProjectOverview['nextAction'] = null;
  if (status === 'provisioning' || status === 'processing') nextAction = 'wait';
  else if (status === 'ready' && counts.files === 0) nextAction = 'upload';
  else if (canNormalize) nextAction = 'normalize';
  else if (canVectorize) nextAction = 'vectorize';

  return {
    status,
    statusLabel: STATUS_LABELS[status],
    counts,
    disciplines: record.disciplineCounts,
    latestJob: latest?.job ?? null,
    nextAction,
    capabilities: {
      canCreateJob: ready,
      canUpload: ready,
      canSearch,
      canVectorize,
      canNormalize,
    },
  };
}
