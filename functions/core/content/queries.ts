import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { type PageEnvelope, pageEnvelope } from '../pagination/page.ts';
import type { OwnedProject } from '../projects/model.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import type { ArtifactPaths } from './artifacts.ts';
import type {
  DocumentEntity,
  DocumentRecord,
  FacetRecord,
  RegionEntity,
  RegionRecord,
  SectionEntity,
  SheetEntity,
  SheetRecord,
  SpecificationEntity,
} from './model.ts';
import type {
  ContentReader,
  DocumentFilter,
  Paged,
  RegionFilter,
  SectionFilter,
  SheetFilter,
} from './ports.ts';

export interface ListInput<F> {
  orgId: string;
  projectId: string;
  filter: F;
  limit: number;
  cursor: string | undefined;
  compact: boolean;
}

interface Deps {
  projects: ProjectStore;
  content: ContentReader;
  cursors: CursorCodec;
  artifacts: ArtifactPaths;
}

/**
 * Lambda responses are limited to 6 MB: a page stops early (with a nextCursor) rather than fail
 * when its items are large (facet texts reach 50,000 characters each).
 */
const RESPONSE_BUDGET_BYTES = 4_500_000;

async function page<F extends object, R, E>(
  deps: Deps,
  endpoint: string,
  input: ListInput<F>,
  read: (project: OwnedProject, position: unknown | null) => Promise<Paged<R>>,
  present: (record: R) => Promise<E> | E,
  checked?: OwnedProject,
): Promise<PageEnvelope & { items: E[] }> {
  // Ownership first: content is keyed by project, and the readers only take an owned project.
  const project = checked ?? (await requireProject(deps.projects, input.orgId, input.projectId));
  const scope = {
    endpoint,
    orgId: input.orgId,
    filters: {
      projectId: input.projectId,
      compact: input.compact,
      ...(input.filter as Record<string, unknown>),
    },
  };
  const position = input.cursor ? deps.cursors.decode(input.cursor, scope) : null;
  const result = await read(project, position);
  const items: E[] = [];
  let bytes = 0;
  let cutAfter: unknown | null = null;
  for (const record of result.items) {
    const entity = await present(record);
    bytes += JSON.stringify(entity).length;
    if (items.length > 0 && bytes > RESPONSE_BUDGET_BYTES) {
      cutAfter = result.positions[items.length - 1] ?? null;
      break;
    }
    items.push(entity);
  }
  const nextPosition = cutAfter !== null ? cutAfter : result.nextPosition;
  const nextCursor = nextPosition === null ? null : deps.cursors.encode(scope, nextPosition);
  return {
    items,
    ...pageEnvelope({
      total: result.total,
      limit: input.limit,
      cursor: input.cursor ?? null,
      nextCursor,
      returnedCount: items.length,
    }),
  };
}

function regionEntity(deps: Deps, projectId: string, record: RegionRecord, compact: boolean): RegionEntity {
  const { projectId: _p, regionIndex: _i, fileNameLower: _f, cropPath, ...entity } = record;
  return {
    ...entity,
    ...(compact
      ? {}
      : { artifacts: cropPath ? [deps.artifacts.projectReference(projectId, 'region_crop', cropPath)] : [] }),
  };
}

export async function listRegions(deps: Deps, input: ListInput<RegionFilter>, checked?: OwnedProject) {
  const { items, ...envelope } = await page(
    deps,
    'listRegions',
    input,
    (project, position) => deps.content.regions(project, input.filter, { limit: input.limit, position }),
    (record) => regionEntity(deps, input.projectId, record, input.compact),
    checked,
  );
  return { ...envelope, regions: items };
}

export async function listSheetRegions(deps: Deps, input: ListInput<RegionFilter> & { sheetId: string }) {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  if (!(await deps.content.sheetExists(project, input.sheetId))) {
    throw new NotFoundError('sheet_not_found', 'No sheet with this id in the project.');
  }
  return listRegions(deps, { ...input, filter: { ...input.filter, sheetIds: [input.sheetId] } }, project);
}

/** A sheet as listed: its stored fields without the storage ones (the fingerprint), and whether it is current. */
export function sheetEntity(record: SheetRecord): SheetEntity {
  const { projectId: _p, fileNameLower: _f, fingerprint: _fp, revisionOf, supersededBy, ...entity } = record;
  return {
    ...entity,
    current: !supersededBy,
    revisionOf: revisionOf ? { sheetId: revisionOf.sheetId, confidence: revisionOf.confidence } : null,
    supersededBy: supersededBy ?? null,
  };
}

export async function listSheets(deps: Deps, input: ListInput<SheetFilter>) {
  const { items, ...envelope } = await page(
    deps,
    'listSheets',
    input,
    (project, position) => deps.content.sheets(project, input.filter, { limit: input.limit, position }),
    sheetEntity,
  );
  return { ...envelope, sheets: items };
}

/** Sections the `sheets` filter of the specifications listing may stand for (a whole large book). */
export const MAX_REFERENCED_SECTIONS = 400;

export async function listSpecifications(
  deps: Deps,
  input: ListInput<SectionFilter & { sheets?: string[] }>,
) {
  const { sheets, ...rest } = input.filter;
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  const filter: SectionFilter = { ...rest };
  if (sheets) {
    filter.sectionNumbers = await deps.content.sectionNumbersReferencedBy(project, sheets);
    // Each number is a placeholder of the filter expression, which DynamoDB caps at 4 KB.
    if (filter.sectionNumbers.length > MAX_REFERENCED_SECTIONS)
      throw new InvalidRequestError(
        'too_many_referenced_sections',
        `The sheets given reference ${filter.sectionNumbers.length} sections; the filter takes sheets that reference at most ${MAX_REFERENCED_SECTIONS}. Give fewer sheets.`,
      );
  }
  let facetsBySection = new Map<string, FacetRecord[]>();
  const { items, ...envelope } = await page(
    deps,
    'listSpecifications',
    input,
    async (owned, position) => {
      const listed = await deps.content.sections(owned, filter, { limit: input.limit, position });
      // The page's facets in as few reads as their keys allow (not one read per section).
      facetsBySection = await deps.content.facetsOfSections(owned, listed.items);
      return listed;
    },
    (record): SpecificationEntity => {
      const facets = facetsBySection.get(record.specificationId) ?? [];
      const pdf = record.pdfPath
        ? deps.artifacts.projectReference(input.projectId, 'specification_file', record.pdfPath)
        : null;
      return {
        specificationId: record.specificationId,
        specId: record.specId,
        fileId: record.fileId,
        fileName: record.fileName,
        classification: record.classification,
        sectionNumber: record.sectionNumber,
        sectionTitle: record.sectionTitle,
        pageStart: record.pageStart,
        pageEnd: record.pageEnd,
        facets: facets.map((facet) => ({
          facetId: facet.facetId,
          facetKey: facet.facetKey,
          facetKind: facet.facetKind,
          facetLabel: facet.facetLabel,
          coverageKind: facet.coverageKind,
          facetText: facet.facetText,
          pageStart: facet.pageStart,
          pageEnd: facet.pageEnd,
          ...(input.compact ? {} : { artifacts: pdf ? [pdf] : [] }),
        })),
        ...(input.compact ? {} : { artifacts: pdf ? [pdf] : [] }),
      };
    },
    project,
  );
  return { ...envelope, specifications: items };
}

export class SpecificationNotFoundError extends NotFoundError {
  constructor() {
    super('open_api_specification_not_found', 'No specification document with this id in the project.');
  }
}

export async function listSpecificationSections(
  deps: Deps,
  input: ListInput<SectionFilter> & { specId: string },
) {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  const document = /^doc_[0-9a-z]{26}$/.test(input.specId)
    ? await deps.content.document(project, input.specId)
    : null;
  if (!document || document.specificationCount === 0) throw new SpecificationNotFoundError();
  const { items, ...envelope } = await page(
    deps,
    'listSpecificationSections',
    { ...input, filter: { ...input.filter, specId: input.specId } },
    (owned, position) =>
      deps.content.sections(
        owned,
        { ...input.filter, fileId: document.fileId, specId: document.documentId },
        { limit: input.limit, position },
      ),
    (record): SectionEntity => ({
      sectionId: record.specificationId,
      specId: record.specId,
      sectionNumber: record.sectionNumber,
      sectionTitle: record.sectionTitle,
      pageStart: record.pageStart,
      pageEnd: record.pageEnd,
      textLength: record.textLength,
      ...(input.compact
        ? {}
        : {
            artifacts: record.pdfPath
              ? [deps.artifacts.projectReference(input.projectId, 'specification_file', record.pdfPath)]
              : [],
          }),
    }),
    project,
  );
  return { ...envelope, sections: items };
}

export async function listDocuments(deps: Deps, input: ListInput<DocumentFilter>) {
  const { items, ...envelope } = await page(
    deps,
    'listDocuments',
    input,
    (project, position) => deps.content.documents(project, input.filter, { limit: input.limit, position }),
    (record: DocumentRecord): DocumentEntity => {
      const {
        orgId: _o,
        projectId: _p,
        fileNameLower: _f,
        contentSummary: _s,
        unresolvedSheetRefs: _u,
        ...entity
      } = record;
      return entity;
    },
  );
  return { ...envelope, documents: items };
}
