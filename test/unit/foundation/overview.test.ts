import { describe, expect, it } from 'vitest';
import { computeOverview, EMPTY_COUNTS, type ProjectRecord } from '../../../functions/core/projects/model.ts';

function project(overrides: Partial<ProjectRecord> = {}): ProjectRecord {
  return {
    orgId: 'org_a',
    id: 'prj_a',
    name: 'A',
    status: 'ready',
    runtimeStatus: 'ready',
    error: null,
    counts: { ...EMPTY_COUNTS },
    disciplineCounts: [],
    indexedSources: 0,
    searchableSources: 0,
    settings: null,
    indexLocation: 's3://x/',
    charge: { ledgerEntryId: 'led_a', credits: 100 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const job = (status: string, active = status === 'processing') => ({
  job: { id: 'job_1', status, createdAt: 'a', updatedAt: 'b', completedAt: null, error: null },
  active,
});

describe('computeOverview', () => {
  it('asks to wait while provisioning and allows nothing', () => {
    const overview = computeOverview(project({ status: 'provisioning', runtimeStatus: 'starting' }), null);
    expect(overview.status).toBe('provisioning');
    expect(overview.nextAction).toBe('wait');
    expect(Object.values(overview.capabilities).every((value) => value === false)).toBe(true);
  });

  it('asks for uploads when a ready project has no files', () => {
    expect(computeOverview(project(), null).nextAction).toBe('upload');
  });

  it('reports processing while the latest job is active', () => {
    const overview = computeOverview(project({ counts: { ...EMPTY_COUNTS, files: 2 } }), job('processing'));
    expect(overview).toMatchObject({ status: 'processing', nextAction: 'wait' });
  });

  it('suggests normalization when regions outnumber normalized regions', () => {
    const counts = { ...EMPTY_COUNTS, files: 1, regions: 10, normalizedRegions: 4 };
    const overview = computeOverview(project({ counts, indexedSources: 10 }), job('completed'));
    expect(overview.nextAction).toBe('normalize');
    expect(overview.capabilities.canNormalize).toBe(true);
  });

  it('counts no region as normalized when the totals were counted for an older normalizedData version', () => {
    const counts = { ...EMPTY_COUNTS, files: 1, regions: 10, normalizedRegions: 10 };
    const current = computeOverview(project({ counts }), job('completed'));
    const older = computeOverview(project({ counts, normalizedSchemaVersion: 0 }), job('completed'));
    expect(current.capabilities.canNormalize).toBe(false);
    expect(older.counts.normalizedRegions).toBe(0);
    expect(older.capabilities.canNormalize).toBe(true);
    expect(older.nextAction).toBe('normalize');
  });

  it('searches once a document is indexed, and suggests vectorizing while sources are not indexed', () => {
    // Prepare
    const counts = { ...EMPTY_COUNTS, files: 2, regions: 10, normalizedRegions: 10 };
    // Act
    const nothingIndexed = computeOverview(
      project({ counts, indexedSources: 0, searchableSources: 10 }),
      null,
    );
    const partly = computeOverview(project({ counts, indexedSources: 3, searchableSources: 10 }), null);
    const all = computeOverview(project({ counts, indexedSources: 10, searchableSources: 10 }), null);
    // Assess
    expect(nothingIndexed.capabilities).toMatchObject({ canSearch: false, canVectorize: true });
    expect(nothingIndexed.nextAction).toBe('vectorize');
    expect(partly.capabilities).toMatchObject({ canSearch: true, canVectorize: true });
    expect(all.capabilities).toMatchObject({ canSearch: true, canVectorize: false });
    expect(all.nextAction).toBeNull();
    // A project without sources answers search with no hits.
    expect(computeOverview(project(), null).capabilities.canSearch).toBe(true);
  });

  it('reports a failed project as error', () => {
    expect(computeOverview(project({ status: 'failed' }), null).status).toBe('error');
  });
});
