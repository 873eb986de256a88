import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { api } from './helpers.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const operatorCommand = (script: string) => (args: string[]) =>
  run(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, script), ...args], {
    cwd: ROOT,
    env: process.env,
  });
const command = operatorCommand('bin/bootstrap-organization.ts');
const upgrade = operatorCommand('bin/upgrade-stored-content.ts');

/** The operator's command that makes the first organization and key of a stage, run against the local table. */
describe('bin/bootstrap-organization.ts', () => {
  it('creates an organization with its credits and a working key, shown once', async () => {
    // Act
    const { stdout } = await command([
      '--table',
      String(process.env.TABLE_NAME),
      '--name',
      'Bootstrap Builders',
      '--credits',
      '1234',
    ]);
    const created = JSON.parse(stdout) as {
      orgId: string;
      keyId: string;
      apiKey: string;
      sessionToken: string;
    };
    const keys = await api('/api/open-api/keys', { cookie: created.sessionToken });
    const project = await api('/api/open/v1/projects', {
      method: 'POST',
      key: created.apiKey,
      body: { name: 'Bootstrapped' },
    });

    // Assess
    expect(created.orgId).toMatch(/^org_/);
    expect(keys.status).toBe(200);
    expect(JSON.stringify(keys.body)).toContain(created.keyId);
    expect(JSON.stringify(keys.body)).not.toContain(created.apiKey);
    expect(project.status).toBe(202);
    expect(project.body.billing).toMatchObject({ availableCredits: 1234 - 100 });
  });

  it('refuses a missing name, a bad credit amount or no target table, creating nothing', async () => {
    // Act
    const outcomes = await Promise.all(
      [
        ['--table', 'x', '--credits', '5'],
        ['--table', 'x', '--name', 'A', '--credits=-1'],
        ['--name', 'A'],
        ['--stage', 'Bad Stage!', '--name', 'A'],
      ].map((args) =>
        command(args).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        ),
      ),
    );

    // Assess
    expect(outcomes.map((outcome) => outcome.code)).toEqual([2, 2, 2, 2]);
    expect(outcomes.map((outcome) => outcome.stderr.trim())).toEqual([
      '--name is required (1 to 200 characters).',
      '--credits must be a whole number, 0 or more.',
      'Give --stage (the deployed stage) or --table (a table name).',
      '--stage is lowercase letters, digits and dashes.',
    ]);
  });
});

/** The operator's command that brings a stage's stored content to the current key design (after an upgrade). */
describe('bin/upgrade-stored-content.ts', () => {
  it('runs against a table, and a second run finds nothing left to change', async () => {
    // Act
    const first = JSON.parse((await upgrade(['--table', String(process.env.TABLE_NAME)])).stdout);
    const second = JSON.parse((await upgrade(['--table', String(process.env.TABLE_NAME)])).stdout);

    // Assess
    expect(first).toMatchObject({ table: process.env.TABLE_NAME, changed: expect.any(Number) });
    expect(second).toEqual({ table: process.env.TABLE_NAME, changed: 0 });
  });

  it('refuses no target table or a bad stage name', async () => {
    // Act
    const outcomes = await Promise.all(
      [[], ['--stage', 'Bad Stage!']].map((args) =>
        upgrade(args).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr.trim() }),
        ),
      ),
    );

    // Assess
    expect(outcomes).toEqual([
      { code: 2, stderr: 'Give --stage (the deployed stage) or --table (a table name).' },
      { code: 2, stderr: '--stage is lowercase letters, digits and dashes.' },
    ]);
  });
});
