import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { PsaApiError } from '../errors.ts';
import { createClient, type PsaNodeClient } from '../node.ts';
import type { ProjectListItem } from '../types.ts';
import { askQuestion } from './commands/ask.ts';
import { uploadFolder, watchJob } from './commands/jobs.ts';
import { regionTableText, searchTable } from './commands/search.ts';
import { loadConfig, saveConfig, validApiKey, validApiUrl } from './config.ts';

/** Where `npm start` serves the local stack; anything else is named with --api-url or PSA_API_URL. */
const DEFAULT_API_URL = 'http://127.0.0.1:3000';
const HOW_TO_SET_URL = 'pass --api-url <url> or set PSA_API_URL (psa login stores it)';
/** The base URL the command talks to, named in any error about reaching it. */
let triedUrl: string | null = null;
let triedDefault = false;

function apiUrlOf(option: string | undefined, stored: string | undefined): string {
  triedDefault = option === undefined && stored === undefined;
  triedUrl = validApiUrl(option ?? stored ?? DEFAULT_API_URL);
  return triedUrl;
}

/** `fetch failed` says nothing of where: name the URL, why, and how to point psa elsewhere. */
function unreachable(error: unknown): string | null {
  if (!(error instanceof TypeError) || triedUrl === null) return null;
  const cause = (error.cause as { code?: string; message?: string } | undefined) ?? {};
  const why = cause.code ?? cause.message ?? error.message;
  return (
    `Could not reach the API at ${triedUrl}${triedDefault ? ' (the default, where npm start serves it)' : ''}: ${why}. ` +
    `Start the service, or ${HOW_TO_SET_URL}.`
  );
}
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const SOURCE_URI =
  /^service:\/\/projects\/([A-Za-z0-9_-]{1,128})\/(regions|specifications|documents)\/[A-Za-z0-9_/-]{1,512}$/;

interface GlobalOptions {
  json?: boolean;
  apiUrl?: string;
}

function id(value: string, what: string): string {
  if (!ID.test(value)) throw new Error(`Not a ${what} id: ${value.slice(0, 100)}`);
  return value;
}

function print(json: boolean | undefined, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const program = new Command()
  .name('psa')
  .description('Upload, watch, search and question construction documents with the Project Source API.')
  .addOption(new Option('--api-url <url>', 'the API base URL').env('PSA_API_URL'))
  .option('--json', 'print JSON for scripts instead of text, tables and progress bars')
  .showHelpAfterError();

function client(command: Command): PsaNodeClient {
  const options = command.optsWithGlobals<GlobalOptions>();
  const stored = loadConfig();
  const apiKey = process.env.PSA_API_KEY || stored.apiKey;
  if (!apiKey) throw new Error('No API key: run `psa login` (or set PSA_API_KEY).');
  return createClient({
    baseUrl: apiUrlOf(options.apiUrl, stored.apiUrl),
    apiKey: validApiKey(apiKey),
  });
}

program
  .command('login')
  .description('store an API key (read from the prompt, or from standard input) in your config, mode 0600')
  .action(async (_options, command: Command) => {
    const { apiUrl, json } = command.optsWithGlobals<GlobalOptions>();
    const baseUrl = apiUrlOf(apiUrl, loadConfig().apiUrl);
    let key: string;
    if (process.stdin.isTTY) {
      const { default: password } = await import('@inquirer/password');
      key = await password({ message: 'API key', mask: '*' });
    } else {
      key = await readStdin();
    }
    const apiKey = validApiKey(key);
    // A key the service refuses is not stored; one without `jobs:read` is still a valid key.
    try {
      await createClient({ baseUrl, apiKey })
        .api.GET('/api/open/v1/projects', { params: { query: { limit: 1 } } })
        .then(({ response, error }) => {
          if (!response.ok && response.status !== 403) throw PsaApiError.from(response, error);
        });
    } catch (error) {
      if (error instanceof PsaApiError && error.status === 401)
        throw new Error(
          `The service at ${baseUrl} refused that key (${error.code}). Check the key, or if that is the wrong service, ${HOW_TO_SET_URL}.`,
        );
      // Something else answers there (another service on the port, a proxy): say where, and how to change it.
      if (error instanceof PsaApiError)
        throw new Error(
          `${baseUrl} answered ${error.status} (${error.code}): ${error.message}. If that is not the Project Source API, ${HOW_TO_SET_URL}.`,
        );
      throw error;
    }
    const path = saveConfig({ apiUrl: baseUrl, apiKey });
    print(
      json,
      { apiUrl: baseUrl, configPath: path },
      () => `Logged in to ${baseUrl}; key stored in ${path}.`,
    );
  });

const projects = program.command('projects').description('create, list and show projects');
projects
  .command('create <name>')
  .description('create a project and wait until it is ready')
  .option('--no-wait', 'return at once, while it is provisioning')
  .action(async (name: string, options: { wait: boolean }, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const psa = client(command);
    const created = await psa.projects.create(name);
    const project = options.wait ? await psa.waitForProject(created.project.id) : created.project;
    print(json, { ...created, project }, () => `${project.id}  ${project.name}  ${project.status}`);
  });
projects
  .command('list')
  .description('every project of your organization, with its overview')
  .action(async (_options, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const rows: ProjectListItem[] = [];
    for await (const project of client(command).projects.list({ include: 'overview', limit: 100 }))
      rows.push(project);
    print(json, rows, () =>
      rows.length
        ? rows
            .map((p) => `${p.id}  ${p.status.padEnd(12)}  ${p.overview?.counts.files ?? 0} files  ${p.name}`)
            .join('\n')
        : 'No projects yet: psa projects create "<name>"',
    );
  });
projects
  .command('show <project>')
  .description('a project and its overview (counts, latest job, next action)')
  .action(async (projectId: string, _options, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const data = await client(command).projects.overview(id(projectId, 'project'));
    const { project, overview } = data;
    print(json, data, () =>
      [
        `${project.name} (${project.id})`,
        `status       ${overview.statusLabel}`,
        `next action  ${overview.nextAction ?? '-'}`,
        `latest job   ${overview.latestJob ? `${overview.latestJob.id} ${overview.latestJob.status}` : '-'}`,
        ...Object.entries(overview.counts).map(([name, count]) => `${name.padEnd(12)} ${count}`),
      ].join('\n'),
    );
  });

program
  .command('upload <project> <paths...>')
  .description('upload files and folders of PDFs to a new job (or --job), then watch it process')
  .option('--job <job>', 'an existing job: resumes an interrupted upload to it')
  .option('--name <displayName>', 'the job display name', 'Upload from psa')
  .option('--concurrency <n>', 'uploads in flight at once', '4')
  .option('--no-watch', 'do not wait for processing')
  .action(
    async (
      projectId: string,
      paths: string[],
      options: { job?: string; name: string; concurrency: string; watch: boolean },
      command: Command,
    ) => {
      const { json } = command.optsWithGlobals<GlobalOptions>();
      const concurrency = Number(options.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
        throw new Error('--concurrency must be an integer from 1 to 32.');
      }
      await uploadFolder(client(command), {
        projectId: id(projectId, 'project'),
        paths,
        jobId: options.job === undefined ? undefined : id(options.job, 'job'),
        displayName: options.name,
        concurrency,
        watch: options.watch,
        json: Boolean(json),
      });
    },
  );

const jobs = program.command('jobs').description('follow jobs');
jobs
  .command('watch <job>')
  .description('live progress of a job until it completes or fails')
  .option('--interval <seconds>', 'seconds between polls', '2')
  .action(async (jobId: string, options: { interval: string }, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const interval = Number(options.interval);
    if (!(interval >= 0.1 && interval <= 600))
      throw new Error('--interval must be between 0.1 and 600 seconds.');
    const job = await watchJob(client(command), id(jobId, 'job'), {
      json: Boolean(json),
      intervalMs: interval * 1000,
    });
    if (job.status !== 'completed') process.exitCode = 1;
  });

program
  .command('search <project> <query>')
  .description('search the indexed sources of a project: a table of hits')
  .option('--max-hits <n>', 'at most this many hits (1 to 50)', '10')
  .option('--type <entityType...>', 'only these source kinds: region, specification, doc')
  .action(
    async (
      projectId: string,
      query: string,
      options: { maxHits: string; type?: string[] },
      command: Command,
    ) => {
      const { json } = command.optsWithGlobals<GlobalOptions>();
      const maxHits = Number(options.maxHits);
      if (!Number.isInteger(maxHits) || maxHits < 1 || maxHits > 50)
        throw new Error('--max-hits must be 1 to 50.');
      const result = await client(command).sources.search(id(projectId, 'project'), {
        query,
        maxHits,
        ...(options.type ? { entityTypes: options.type as ('region' | 'specification' | 'doc')[] } : {}),
      });
      print(json, result, () => searchTable(result));
    },
  );

program
  .command('ask <project> <question>')
  .description('ask a question: the answer streams as it is written, then its numbered citations')
  .option('--review <review>', 'ask in this review (default: a new review named after the question)')
  .action(async (projectId: string, question: string, options: { review?: string }, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    await askQuestion(client(command), {
      projectId: id(projectId, 'project'),
      question,
      reviewId: options.review === undefined ? undefined : id(options.review, 'review'),
      json: Boolean(json),
    });
  });

program
  .command('table <project> <region>')
  .description("print a schedule's or index's table (a region id from a listing or a row's sourceCatalogUri)")
  .option('--csv', 'print it as CSV instead (RFC 4180, header rows first)')
  .action(async (projectId: string, region: string, options: { csv?: boolean }, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const psa = client(command);
    const regionId = id(/\/regions\/([A-Za-z0-9_-]+)/.exec(region)?.[1] ?? region, 'region');
    if (options.csv) {
      process.stdout.write(await psa.regions.tableCsv(id(projectId, 'project'), regionId));
      return;
    }
    const found = await psa.regions.table(id(projectId, 'project'), regionId);
    print(json, found, () => regionTableText(found, projectId));
  });

program
  .command('open <sourceCatalogUri>')
  .description('save the crop (PNG) of a region or the PDF of a section to a file')
  .option('-o, --output <file>', 'where to write it (default: the name the service suggests, here)')
  .option('--force', 'overwrite an existing file')
  .action(async (uri: string, options: { output?: string; force?: boolean }, command: Command) => {
    const { json } = command.optsWithGlobals<GlobalOptions>();
    const projectId = SOURCE_URI.exec(uri)?.[1];
    if (!projectId) throw new Error('Not a sourceCatalogUri (service://projects/<project>/<kind>/<id>...).');
    const psa = client(command);
    const source = await psa.sources.read(projectId, uri, { limit: 1 });
    const artifact = source.artifacts.find(
      (a) => a.type === 'region_crop' || a.type === 'specification_file',
    );
    if (!artifact) throw new Error(`${source.source.label} has no crop or section PDF.`);
    const downloaded = await psa.artifacts.download(artifact.url);
    const extension = artifact.type === 'region_crop' ? '.png' : '.pdf';
    const file = resolve(options.output ?? downloaded.fileName ?? `${source.source.id}${extension}`);
    if (existsSync(file) && !options.force) throw new Error(`${file} exists (use --force to overwrite).`);
    writeFileSync(file, downloaded.bytes);
    print(
      json,
      { file, bytes: downloaded.bytes.length, type: artifact.type, source: source.source },
      () => `${source.source.label}: ${artifact.type} saved to ${file} (${downloaded.bytes.length} bytes)`,
    );
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const json = process.argv.includes('--json');
  if (error instanceof PsaApiError) {
    const body = {
      error: { code: error.code, message: error.message, requestId: error.requestId, status: error.status },
    };
    process.stderr.write(
      json
        ? `${JSON.stringify(body)}\n`
        : `error: ${error.message} (${error.code}, request ${error.requestId ?? '-'})\n`,
    );
  } else {
    const message = unreachable(error) ?? (error as Error).message ?? String(error);
    process.stderr.write(
      json ? `${JSON.stringify({ error: { code: 'cli_error', message } })}\n` : `error: ${message}\n`,
    );
  }
  process.exitCode = 1;
}
