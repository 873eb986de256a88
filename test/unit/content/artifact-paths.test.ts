import { describe, expect, it } from 'vitest';
import { ArtifactPaths } from '../../../functions/core/content/artifacts.ts';

const KEY = 'k'.repeat(43);
const STORAGE_KEY = 'orgs/org_1/projects/prj_1/files/fil_1/regions/reg_1_1_0.png';

describe('artifact paths', () => {
  it('reveal nothing of the storage key, and resolve back to it in their own project only', () => {
    // Prepare
    const paths = new ArtifactPaths(KEY);

    // Act
    const path = paths.issue('project:prj_1', STORAGE_KEY);

    // Assess
    expect(path).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(path, 'base64url').toString('latin1')).not.toContain('orgs/');
    expect(path).not.toContain(Buffer.from('orgs/org_1').toString('base64url').slice(0, 8));
    expect(paths.resolve('project:prj_1', path)).toBe(STORAGE_KEY);
    expect(paths.resolve('project:prj_2', path)).toBeNull();
    expect(paths.issue('project:prj_1', STORAGE_KEY)).toBe(path);
  });

  it('refuses any alteration: trailing junk, a changed character, another key, a constructed path', () => {
    // Prepare
    const paths = new ArtifactPaths(KEY);
    const path = paths.issue('project:prj_1', STORAGE_KEY);
    const flipped = `${path.slice(0, 20)}${path[20] === 'A' ? 'B' : 'A'}${path.slice(21)}`;

    // Act
    const attempts = [
      `${path}A`,
      `${path}.`,
      `${path}==`,
      ` ${path}`,
      flipped,
      path.slice(0, -2),
      Buffer.from(STORAGE_KEY).toString('base64url'),
      new ArtifactPaths('x'.repeat(43)).issue('project:prj_1', STORAGE_KEY),
      '',
    ].map((attempt) => paths.resolve('project:prj_1', attempt));

    // Assess
    expect(attempts).toEqual(attempts.map(() => null));
  });
});
