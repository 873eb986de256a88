import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { scheduleSheetPdf } from '../../test/fixtures/pdfs.ts';
import { api, createOrg, type TestOrg } from '../../test/integration/helpers.ts';
import { pdfFolder } from './fixtures.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The binary npm linked for `npx psa`, with the PATH `npx` gives it (so its `env node` is the repository's Node 24). */
const BIN = join(REPO, 'node_modules', '.bin');
const PSA = join(BIN, 'psa');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function psa(args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PSA, args, {
      env: { PATH: `${BIN}:${process.env.PATH ?? ''}`, HOME: env.PSA_CONFIG_DIR ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('the psa CLI, run as a binary against the local stack', () => {
  let org: TestOrg;
  let configDir: string;
  let env: Record<string, string>;
  let projectId: string;
  let jobId: string;
  const run = (...args: string[]) => psa(args, env);

  beforeAll(async () => {
    org = await createOrg(100_000);
    configDir = join(mkdtempSync(join(tmpdir(), 'psa-cli-')), 'config');
    env = {
      PSA_CONFIG_DIR: configDir,
      PSA_API_URL: inject('apiUrl'),
    };
  });

  it('logs in with a key from standard input, stored with mode 0600 and never printed', async () => {
    // Act
    const refused = await psa(
      ['login'],
      env,
      'psk_wrongwrongwrong_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n',
    );
    const login = await psa(['login'], env, `${org.apiKey}\n`);

    // Assess
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused');
    expect(login.code).toBe(0);
    const config = join(configDir, 'config.json');
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ apiUrl: env.PSA_API_URL, apiKey: org.apiKey });
    expect(login.stdout + login.stderr + refused.stdout + refused.stderr).not.toContain('psk_');
  });

  it('names the URL it tried and how to set another when login cannot reach the service or is refused', async () => {
    // Prepare: a port nothing listens on (the default's port on this machine may be taken by npm start).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));

    // Act
    const unreachable = await psa(['login', '--api-url', nowhere], env, `${org.apiKey}\n`);
    // Whatever answers on the default port (nothing, or a local stack): a made-up key, and its own config.
    const byDefault = await psa(
      ['login'],
      { PSA_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'psa-default-')), 'config') },
      `psk_${'d'.repeat(40)}\n`,
    );
    const refused = await psa(['login'], env, 'psk_wrongwrongwrong_xxxxxxxxxxxxxxxxxxxxxxxx\n');

    // Assess
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`Could not reach the API at ${nowhere}: ECONNREFUSED`);
    expect(unreachable.stderr).toContain('--api-url <url> or set PSA_API_URL');
    expect(byDefault.stdout + byDefault.stderr).toContain('http://127.0.0.1:3000');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The service at ${env.PSA_API_URL} refused that key`);
    expect(refused.stderr).toContain('PSA_API_URL');
  });

  it('creates, lists and shows projects (text and --json)', async () => {
    // Act
    const created = await run('projects', 'create', 'CLI walkthrough', '--json');
    projectId = JSON.parse(created.stdout).project.id;
    const listed = await run('projects', 'list', '--json');
    const shown = await run('projects', 'show', projectId);
    const missing = await run('projects', 'show', 'prj_00000000000000000000000000');

    // Assess
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).project.status).toBe('ready');
    expect(JSON.parse(listed.stdout).map((p: { id: string }) => p.id)).toContain(projectId);
    expect(shown.stdout).toContain('CLI walkthrough');
    expect(shown.stdout).toMatch(/next action\s+upload/);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/project_not_found, request \S+/);
  });

  it('uploads a folder and watches the job to the end', async () => {
    // Prepare
    const folder = await pdfFolder({ large: true });

    // Act
    const upload = await run('upload', projectId, folder);
    jobId = /job (job_[0-9a-z]+)/.exec(upload.stderr)?.[1] ?? '';
    const watched = await run('jobs', 'watch', jobId, '--json');

    // Assess
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toContain('Uploaded 5 of 5 files');
    expect(upload.stderr).toMatch(/spec-large\.pdf: completed 7\.\d\/7\.\d MiB/);
    expect(upload.stdout).toMatch(new RegExp(`${jobId} completed: (\\d+)/\\1 pages`));
    expect(watched.code).toBe(0);
    expect(JSON.parse(watched.stdout).job).toMatchObject({ id: jobId, status: 'completed' });
  });

  it('checks every file before creating a job: a missing file or a non-PDF creates nothing', async () => {
    // Prepare
    const folder = await pdfFolder({ large: false });
    const notes = join(mkdtempSync(join(tmpdir(), 'psa-notes-')), 'notes.txt');
    writeFileSync(notes, 'not a drawing');
    const renamed = join(dirname(notes), 'fake.pdf');
    writeFileSync(renamed, 'plain text under a .pdf name');
    const jobsBefore = await api(`/api/open/v1/projects/${projectId}/jobs?limit=100`, { key: org.apiKey });

    // Act
    const missing = await run('upload', projectId, join(folder, 'missing.pdf'));
    const mixed = await run('upload', projectId, folder, notes, renamed);
    const jobsAfter = await api(`/api/open/v1/projects/${projectId}/jobs?limit=100`, { key: org.apiKey });

    // Assess
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing.pdf: no such file or folder');
    expect(missing.stderr).not.toContain('--job');
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('notes.txt: not a PDF (only PDF files are processed');
    expect(mixed.stderr).toContain('fake.pdf: not a PDF (no %PDF- header)');
    expect(jobsAfter.body.jobs.map((job: { id: string }) => job.id)).toEqual(
      jobsBefore.body.jobs.map((job: { id: string }) => job.id),
    );
  });

  it('searches: a table of hits with sheet or section, file, page and snippet', async () => {
    // Act
    const table = await run('search', projectId, 'gypsum board');
    const json = await run('search', projectId, 'gypsum board', '--json', '--max-hits', '3');

    // Assess
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ #\s+│ score\s+│ sheet \/ section\s+│ file\s+│ page │ snippet/);
    expect(table.stdout).toContain('spec-09-29-00.pdf');
    expect(table.stdout).toMatch(/\*\*gypsum\*\*/i);
    const hits = JSON.parse(json.stdout).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(3);
  });

  it("prints a schedule's table, and the same as CSV", async () => {
    // Prepare: a sheet with a ruled door schedule, uploaded with the CLI.
    const folder = join(mkdtempSync(join(tmpdir(), 'psa-schedule-')), 'schedules');
    mkdirSync(folder);
    writeFileSync(join(folder, 'A-601.pdf'), await scheduleSheetPdf('A-601'));
    const upload = await run('upload', projectId, folder);
    expect(upload.code, upload.stderr).toBe(0);
    const regions = await api(`/api/open/v1/projects/${projectId}/regions?regionType=schedule`, {
      key: org.apiKey,
    });
    const regionId = String(
      (regions.body.regions as Array<{ regionId: string; label: string }>).find(
        (region) => region.label === 'DOOR SCHEDULE',
      )?.regionId,
    );

    // Act
    const text = await run('table', projectId, regionId);
    const csv = await run('table', projectId, regionId, '--csv');

    // Assess
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('A-601 · DOOR SCHEDULE');
    expect(text.stdout).toMatch(/│ MARK\s+│ ROOM\s+│ WIDTH\s+│ HEIGHT\s+│ HARDWARE SET\s+│ REMARKS/);
    expect(text.stdout).toMatch(/│ 104\s+│ ELECTRICAL\s+│/);
    expect(text.stdout).toContain('6 rows');
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual([
      'MARK,ROOM,WIDTH,HEIGHT,HARDWARE SET,REMARKS',
      `101,OFFICE,"3'-0""","7'-0""",HW-1,`,
    ]);
  });

  it('asks: the answer, then numbered citations; open saves the cited crop or section PDF', async () => {
    // Act
    const asked = await run('ask', projectId, 'Who pays the permit fees?');
    const json = await run('ask', projectId, 'Who pays the permit fees?', '--json');
    const citation = JSON.parse(json.stdout).citations[0];
    const sectionHit = JSON.parse(
      (await run('search', projectId, 'gypsum board', '--json', '--type', 'specification')).stdout,
    ).hits[0];
    const target = join(mkdtempSync(join(tmpdir(), 'psa-open-')), 'section.pdf');
    const opened = await run('open', sectionHit.sourceCatalogUri, '-o', target, '--json');
    const sheetHit = JSON.parse(
      (await run('search', projectId, 'first floor plan', '--json', '--type', 'region')).stdout,
    ).hits[0];
    const crop = join(dirname(target), 'crop.png');
    const openedCrop = await run('open', sheetHit.sourceCatalogUri, '-o', crop);
    const bad = await run('open', 'https://example.com/x');

    // Assess
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('General Contractor is responsible for all permit fees');
    expect(asked.stdout).toMatch(/Citations\n\[1\] addendum-02\.pdf p\. 1/);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'succeeded', error: null });
    expect(asked.stdout).toContain(citation.sourceCatalogUri);
    expect(opened.code, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout).bytes).toBe(statSync(target).size);
    expect(readFileSync(target).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(openedCrop.code, openedCrop.stderr).toBe(0);
    expect(readFileSync(crop).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Not a sourceCatalogUri');
  });
});
