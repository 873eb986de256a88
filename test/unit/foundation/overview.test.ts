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

  it('cannot search while indexed sources lag behind the source rows', () => {
    const counts = { ...EMPTY_COUNTS, files: 1, regions: 10, normalizedRegions: 10 };
    expect(computeOverview(project({ counts, indexedSources: 3 }), null).capabilities.canSearch).toBe(false);
    expect(computeOverview(project({ counts, indexedSources: 10 }), null).capabilities.canSearch).toBe(true);
  });

  it('reports a failed project as error', () => {
    expect(computeOverview(project({ status: 'failed' }), null).status).toBe('error');
  });
});
