import {
  PsaApiError,
  type PsaClient,
  type ReviewCitation,
  type Sheet,
  type SourceSearchHit,
  type Specification,
} from '@project-source/sdk';
import { h, highlighted, replace } from './dom.ts';
import { signedIn, signIn, signOut } from './session.ts';
import { sheetView } from './sheet.ts';
import './style.css';

const mountPoint = document.querySelector<HTMLDivElement>('#app');
if (!mountPoint) throw new Error('index.html has no #app element');
const app: HTMLDivElement = mountPoint;
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The route in the hash: #/p/<project>[/sheet/<sheet>[/<region>] | /spec/<spec>]. Ids are checked. */
function route(): { projectId?: string; sheetId?: string; regionId?: string; specId?: string } {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] !== 'p' || !parts[1] || !ID.test(parts[1])) return {};
  const [, projectId, kind, id, regionId] = parts;
  const valid = (value: string | undefined) => (value && ID.test(value) ? value : undefined);
  return {
    projectId,
    ...(kind === 'sheet' ? { sheetId: valid(id), regionId: valid(regionId) } : {}),
    ...(kind === 'spec' ? { specId: valid(id) } : {}),
  };
}
const go = (hash: string) => {
  window.location.hash = hash;
};

function errorText(error: unknown): string {
  if (error instanceof PsaApiError)
    return `${error.message} (${error.code}, request ${error.requestId ?? '-'})`;
  return (error as Error)?.message ?? String(error);
}

function signInView(message?: string): void {
  const input = h('input', {
    type: 'password',
    name: 'apiKey',
    placeholder: 'psk_…',
    autocomplete: 'off',
    'data-testid': 'api-key',
  });
  const status = h('p', { class: 'error', 'data-testid': 'sign-in-error' }, message ?? '');
  const form = h(
    'form',
    {
      class: 'sign-in',
      onsubmit: (async (event: Event) => {
        event.preventDefault();
        try {
          await signIn(input.value);
          void render();
        } catch (error) {
          status.textContent =
            error instanceof PsaApiError && error.status === 401 ? 'That key was refused.' : errorText(error);
        }
      }) as EventListener,
    },
    h('h1', {}, 'Project Source viewer'),
    h('label', {}, 'API key', input),
    h('button', { type: 'submit', 'data-testid': 'sign-in' }, 'Sign in'),
    status,
    h(
      'p',
      { class: 'hint' },
      'The key stays in this tab (session storage) and is sent only to this service.',
    ),
  );
  replace(app, form);
}

/** Project-scoped data the views share (loaded once per project). */
interface ProjectData {
  projectId: string;
  sheets: Sheet[];
  specifications: Specification[];
}
let loaded: ProjectData | null = null;
let panels: { projectId: string; search: HTMLElement; review: HTMLElement } | null = null;

async function projectData(client: PsaClient, projectId: string): Promise<ProjectData> {
  if (loaded?.projectId === projectId) return loaded;
  const sheets: Sheet[] = [];
  for await (const sheet of client.sheets.list(projectId, { limit: 500 })) sheets.push(sheet);
  const specifications: Specification[] = [];
  for await (const spec of client.specifications.list(projectId, { limit: 500 })) specifications.push(spec);
  sheets.sort(
    (a, b) => (a.sheetNumber ?? '').localeCompare(b.sheetNumber ?? '') || a.pageNumber - b.pageNumber,
  );
  loaded = { projectId, sheets, specifications };
  return loaded;
}

const normalizeSheet = (value: string) => value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

async function render(): Promise<void> {
  const client = signedIn();
  if (!client) return signInView();
  const current = route();
  const projectList = h('nav', { class: 'projects', 'data-testid': 'project-list' }, h('h2', {}, 'Projects'));
  const main = h('main', { class: 'main', 'data-testid': 'main' });
  const side = h('aside', { class: 'side' });
  replace(
    app,
    h(
      'header',
      { class: 'top' },
      h('a', { href: '#/', class: 'brand' }, 'Project Source'),
      h(
        'button',
        {
          class: 'link',
          onclick: () => {
            signOut();
            panels = null;
            loaded = null;
            void render();
          },
        },
        'Sign out',
      ),
    ),
    h('div', { class: 'layout' }, projectList, main, side),
  );
  try {
    for await (const project of client.projects.list({ limit: 100 })) {
      projectList.append(
        h(
          'a',
          {
            href: `#/p/${project.id}`,
            class: project.id === current.projectId ? 'active' : undefined,
            'data-testid': 'project-link',
          },
          project.name,
          h('small', {}, project.status),
        ),
      );
    }
  } catch (error) {
    if (error instanceof PsaApiError && error.status === 401) {
      signOut();
      return signInView('The key was refused; sign in again.');
    }
    replace(main, h('p', { class: 'error' }, errorText(error)));
    return;
  }
  if (!current.projectId) {
    replace(main, h('p', { class: 'hint' }, 'Choose a project.'));
    return;
  }
  const projectId = current.projectId;
  // The panels outlive navigation inside a project: hits and the answer stay while sheets open.
  if (panels?.projectId !== projectId) {
    panels = { projectId, search: searchPanel(client, projectId), review: reviewPanel(client, projectId) };
  }
  side.append(panels.search, panels.review);
  try {
    if (current.sheetId)
      await renderSheet(client, main, projectId, current.sheetId, current.regionId ?? null);
    else if (current.specId) await renderSpecification(client, main, projectId, current.specId);
    else await renderProject(client, main, projectId);
  } catch (error) {
    replace(main, h('p', { class: 'error' }, errorText(error)));
  }
}

async function renderProject(client: PsaClient, main: HTMLElement, projectId: string): Promise<void> {
  const { project, overview } = await client.projects.overview(projectId);
  loaded = null;
  const data = await projectData(client, projectId);
  const jobBox = h('section', { class: 'job', 'data-testid': 'job-progress' });
  replace(
    main,
    h('h1', {}, project.name),
    h(
      'p',
      { class: 'counts' },
      `${overview.statusLabel} · ${overview.counts.files} files · ${overview.counts.sheets} sheets · ${overview.counts.regions} regions · ${overview.counts.specifications} specification sections`,
    ),
    jobBox,
    h('h2', {}, 'Sheets'),
    h(
      'ul',
      { class: 'cards', 'data-testid': 'sheet-list' },
      ...data.sheets.map((sheet) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: `#/p/${projectId}/sheet/${sheet.sheetId}`, 'data-testid': 'sheet-link' },
            h('strong', {}, sheet.sheetNumber ?? `${sheet.fileName} p. ${sheet.pageNumber}`),
            ` ${sheet.sheetTitle ?? ''}`,
            h('small', {}, `${sheet.regionCount} regions · ${sheet.discipline?.label ?? ''}`),
          ),
        ),
      ),
    ),
    h('h2', {}, 'Specifications'),
    h(
      'ul',
      { class: 'cards', 'data-testid': 'spec-list' },
      ...data.specifications.map((spec) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: `#/p/${projectId}/spec/${spec.specificationId}`, 'data-testid': 'spec-link' },
            h('strong', {}, spec.sectionNumber),
            ` ${spec.sectionTitle}`,
            h(
              'small',
              {},
              `${spec.fileName} pp. ${spec.pageStart}-${spec.pageEnd} · ${spec.facets.length} facets`,
            ),
          ),
        ),
      ),
    ),
  );
  const latest = overview.latestJob;
  if (!latest) {
    replace(jobBox, h('p', { class: 'hint' }, 'No job yet: upload with `psa upload` or the API.'));
    return;
  }
  const bar = h('progress', { max: 100, value: 0 });
  const label = h('span', { 'data-testid': 'job-status' });
  replace(jobBox, h('h2', {}, 'Latest job'), bar, label);
  const show = (job: Awaited<ReturnType<PsaClient['jobs']['get']>>) => {
    bar.value = job.progress.percent;
    label.textContent = ` ${job.displayName}: ${job.status} · ${job.progress.processedPages}/${job.progress.totalPages} pages · ${job.progress.message}`;
  };
  const ended = await client.waitForJob(latest.id, { intervalMs: 2_000, onPoll: show });
  // Processing just ended while we watched: show what it extracted.
  if (latest.status !== ended.status && route().projectId === projectId && !route().sheetId) void render();
}

async function renderSheet(
  client: PsaClient,
  main: HTMLElement,
  projectId: string,
  sheetId: string,
  regionId: string | null,
): Promise<void> {
  const data = await projectData(client, projectId);
  const sheet = data.sheets.find((candidate) => candidate.sheetId === sheetId);
  if (!sheet) throw new Error('That sheet is not in this project.');
  const regions = [];
  for await (const region of client.regions.listForSheet(projectId, sheetId, { limit: 500 }))
    regions.push(region);
  const bySheetNumber = new Map(data.sheets.map((s) => [normalizeSheet(s.sheetNumber ?? ''), s]));
  replace(
    main,
    h('p', {}, h('a', { href: `#/p/${projectId}` }, '← all sheets')),
    h(
      'h1',
      { 'data-testid': 'sheet-title' },
      `${sheet.sheetNumber ?? ''} ${sheet.sheetTitle ?? ''}`,
      h('small', {}, ` ${sheet.fileName} · page ${sheet.pageNumber}`),
    ),
    sheetView(
      client,
      sheet,
      regions,
      {
        sheetFor: (number) => bySheetNumber.get(normalizeSheet(number)),
        open: (target, region) => go(`#/p/${projectId}/sheet/${target}${region ? `/${region}` : ''}`),
      },
      regionId,
    ),
  );
}

async function renderSpecification(client: PsaClient, main: HTMLElement, projectId: string, specId: string) {
  const data = await projectData(client, projectId);
  const spec = data.specifications.find((candidate) => candidate.specificationId === specId);
  if (!spec) throw new Error('That specification section is not in this project.');
  const pdf = spec.artifacts?.find((artifact) => artifact.type === 'specification_file');
  replace(
    main,
    h('p', {}, h('a', { href: `#/p/${projectId}` }, '← all sections')),
    h('h1', { 'data-testid': 'spec-title' }, `${spec.sectionNumber} ${spec.sectionTitle}`),
    h('p', { class: 'counts' }, `${spec.fileName} · pages ${spec.pageStart}-${spec.pageEnd}`),
    pdf
      ? h(
          'button',
          { onclick: () => void openArtifact(client, pdf.url, `${spec.sectionNumber}.pdf`) },
          'Open section PDF',
        )
      : null,
    h(
      'div',
      { class: 'facets', 'data-testid': 'facet-list' },
      ...spec.facets.map((facet) =>
        h(
          'details',
          { open: true, 'data-testid': 'facet', 'data-facet-kind': facet.facetKind },
          h(
            'summary',
            {},
            h('strong', {}, facet.facetLabel),
            h('small', {}, ` ${facet.facetKind} · p. ${facet.pageStart}`),
          ),
          h('pre', {}, facet.facetText),
        ),
      ),
    ),
  );
}

/** Shows a crop (PNG) in the dialog, or opens a PDF in a new tab, from bytes fetched with the key. */
async function openArtifact(client: PsaClient, url: string, title: string): Promise<void> {
  const dialog =
    document.querySelector<HTMLDialogElement>('dialog.artifact') ??
    document.body.appendChild(h('dialog', { class: 'artifact', 'data-testid': 'artifact-dialog' }));
  const artifact = await client.artifacts.download(url);
  const blob = URL.createObjectURL(new Blob([artifact.bytes as BlobPart], { type: artifact.contentType }));
  if (artifact.bytes[0] === 0x25) {
    window.open(blob, '_blank', 'noopener');
    return;
  }
  replace(
    dialog,
    h('h3', {}, title),
    h('img', { src: blob, alt: title, 'data-testid': 'artifact-image' }),
    h('form', { method: 'dialog' }, h('button', {}, 'Close')),
  );
  if (!dialog.open) dialog.showModal();
}

/**
 * Where a quote sits in a source's text: its words in order, across any whitespace (the text keeps
 * the page's line breaks, the quote does not); a quote cut with an ellipsis matches by its first words.
 */
function quoteSpan(text: string, quote: string): { start: number; end: number } | null {
  const words = quote
    .replace(/[…]|\.\.\./g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  for (const count of [words.length, Math.min(words.length, 12), Math.min(words.length, 6)]) {
    if (count === 0) break;
    const match = new RegExp(words.slice(0, count).join('\\s+'), 'i').exec(text);
    if (match) return { start: match.index, end: match.index + match[0].length };
  }
  return null;
}

/**
 * Opens the sheet at a region hit, or the section of a specification hit; other sources show their
 * text, with the cited quote highlighted and scrolled into view.
 */
async function openSource(
  client: PsaClient,
  projectId: string,
  uri: string,
  title: string,
  quote?: string,
): Promise<void> {
  const source = await client.sources.read(projectId, uri, { limit: 2000 });
  const data = await projectData(client, projectId);
  if (source.source.type === 'region') {
    const sheet = data.sheets.find(
      (s) => s.documentId === source.document.documentId && s.pageNumber === source.pageStart,
    );
    if (sheet) return go(`#/p/${projectId}/sheet/${sheet.sheetId}/${source.source.id}`);
  }
  if (source.source.type === 'specification') {
    const spec = data.specifications.find((s) => uri.includes(`/specifications/${s.specificationId}`));
    if (spec) return go(`#/p/${projectId}/spec/${spec.specificationId}`);
  }
  const main = document.querySelector<HTMLElement>('main.main');
  if (main) {
    const span = quote ? quoteSpan(source.text, quote) : null;
    const mark = span
      ? h('mark', { class: 'quote', 'data-testid': 'source-quote' }, source.text.slice(span.start, span.end))
      : null;
    replace(
      main,
      h('p', {}, h('a', { href: `#/p/${projectId}` }, '← project')),
      h('h1', {}, title),
      h('p', { class: 'counts' }, `${source.document.fileName} · page ${source.pageStart}`),
      h(
        'pre',
        { 'data-testid': 'source-text' },
        span ? source.text.slice(0, span.start) : source.text,
        mark,
        span ? source.text.slice(span.end) : null,
      ),
    );
    // A new page of text starts at its top, or at the quote when there is one.
    main.scrollTop = 0;
    mark?.scrollIntoView({ block: 'center' });
  }
}

function searchPanel(client: PsaClient, projectId: string): HTMLElement {
  const input = h('input', {
    type: 'search',
    placeholder: 'Search sheets, specs, documents…',
    'data-testid': 'search-input',
  });
  const results = h('ol', { class: 'hits', 'data-testid': 'search-results' });
  const form = h(
    'form',
    {
      onsubmit: (async (event: Event) => {
        event.preventDefault();
        const query = input.value.trim();
        if (!query) return;
        replace(results, h('li', { class: 'hint' }, 'Searching…'));
        try {
          const found = await client.sources.search(projectId, { query, maxHits: 10 });
          replace(
            results,
            ...(found.hits.length
              ? found.hits.map((hit) => hitItem(hit))
              : [h('li', { class: 'hint' }, 'No hits.')]),
          );
        } catch (error) {
          replace(results, h('li', { class: 'error' }, errorText(error)));
        }
      }) as EventListener,
    },
    input,
    h('button', { type: 'submit', 'data-testid': 'search-submit' }, 'Search'),
  );
  const hitItem = (hit: SourceSearchHit) =>
    h(
      'li',
      {},
      h(
        'button',
        {
          class: 'hit',
          'data-testid': 'search-hit',
          'data-source-type': hit.source.type,
          onclick: () => void openSource(client, projectId, hit.sourceCatalogUri, hit.source.label),
        },
        h('strong', {}, hit.source.label),
        h('small', {}, ` ${hit.location.fileName} p. ${hit.location.pageNumber}`),
        h('span', { class: 'snippet' }, highlighted(hit.snippet)),
      ),
    );
  return h('section', { class: 'panel' }, h('h2', {}, 'Search'), form, results);
}

function reviewPanel(client: PsaClient, projectId: string): HTMLElement {
  const input = h('textarea', {
    rows: 2,
    placeholder: 'Ask a question about the documents…',
    'data-testid': 'question-input',
  });
  const answer = h('div', { class: 'answer', 'data-testid': 'answer' });
  const citations = h('ol', { class: 'citations', 'data-testid': 'citations' });
  const status = h('p', { class: 'hint', 'data-testid': 'review-status' });
  let reviewId: string | null = null;
  const citationItem = (citation: ReviewCitation) =>
    h(
      'li',
      { value: citation.marker },
      h(
        'button',
        {
          class: 'citation',
          'data-testid': 'citation',
          onclick: () => {
            if (citation.artifact)
              void openArtifact(client, citation.artifact.url, `[${citation.marker}] ${citation.fileName}`);
            else
              void openSource(
                client,
                projectId,
                citation.sourceCatalogUri,
                `[${citation.marker}] ${citation.fileName}`,
                citation.quote,
              );
          },
        },
        h('strong', {}, `${citation.fileName} p. ${citation.pageNumber}`),
        (citation.sheetNumber ?? citation.sectionNumber)
          ? ` · ${citation.sheetNumber ?? citation.sectionNumber}`
          : '',
        h('q', {}, citation.quote),
      ),
    );
  const form = h(
    'form',
    {
      onsubmit: (async (event: Event) => {
        event.preventDefault();
        const question = input.value.trim();
        if (!question) return;
        replace(answer);
        replace(citations);
        status.textContent = 'Asking…';
        try {
          reviewId ??= (await client.reviews.create(projectId, 'Viewer questions')).id;
          const execution = await client.reviews.ask(projectId, reviewId, question);
          for await (const streamed of client.streamExecution(execution)) {
            if (streamed.type === 'tool.started')
              status.textContent = `${streamed.payload.name.replace(/_/g, ' ')}…`;
            if (streamed.type === 'response.text.delta') answer.append(streamed.payload.delta);
            if (streamed.type === 'citation') citations.append(citationItem(streamed.payload));
            if (streamed.type === 'response.completed') {
              answer.textContent = streamed.payload.text;
              status.textContent = `Answered (${streamed.payload.status}).`;
            }
            if (streamed.type === 'response.error')
              status.textContent = `${streamed.payload.message} (${streamed.payload.code})`;
          }
        } catch (error) {
          status.textContent = errorText(error);
        }
      }) as EventListener,
    },
    input,
    h('button', { type: 'submit', 'data-testid': 'ask-submit' }, 'Ask'),
  );
  return h('section', { class: 'panel' }, h('h2', {}, 'Ask'), form, status, answer, citations);
}

window.addEventListener('hashchange', () => void render());
void render();
