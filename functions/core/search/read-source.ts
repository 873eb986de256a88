import type { DisplayBox } from '../../engine/model.ts';
import type { ArtifactPaths } from '../content/artifacts.ts';
import { NotFoundError } from '../errors.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import type { SourceText } from './model.ts';
import type { SourceIndex } from './ports.ts';
import { parseSourceUri } from './sources.ts';

export class SourceNotFoundError extends NotFoundError {
  constructor() {
    super('source_not_found', 'No source with this sourceCatalogUri in the project.');
  }
}

const union = (boxes: DisplayBox[]): DisplayBox | null =>
  boxes.length === 0
    ? null
    : {
        left: Math.min(...boxes.map((box) => box.left)),
        top: Math.min(...boxes.map((box) => box.top)),
        right: Math.max(...boxes.map((box) => box.right)),
        bottom: Math.max(...boxes.map((box) => box.bottom)),
      };

/**
 * Read the full text of one source.
 * Input: the caller's organization, the project id, a sourceCatalogUri, a character window.
 * Output: the source's text (the window of it), page range, box, parent document and artifacts.
 * Steps: ownership first (404); the URI must be of the grammar and name this project (another
 * project's URI is a 404, like a missing one); read the source's passages from the project's index
 * in order and join them; cut the window; issue artifact paths for this project.
 */
export async function readSource(
  deps: { projects: Pick<ProjectStore, 'get'>; index: SourceIndex; artifacts: ArtifactPaths },
  input: { orgId: string; projectId: string; uri: string; offset: number; limit: number },
): Promise<SourceText> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  const ref = parseSourceUri(input.uri);
  if (!ref || ref.projectId !== project.id || !project.indexLocation) throw new SourceNotFoundError();
  const passages = await deps.index.passagesOf(project.indexLocation, input.uri);
  const first = passages[0];
  if (!first) throw new SourceNotFoundError();
  const text = passages.map((passage) => passage.text).join('\n');
  const end = Math.min(text.length, input.offset + input.limit);
  const artifacts = [
    ...new Map(
      passages.flatMap((passage) =>
        passage.artifact ? [[passage.artifact.key, passage.artifact] as const] : [],
      ),
    ).values(),
  ].map((artifact) => deps.artifacts.projectReference(project.id, artifact.type, artifact.key));
  return {
    sourceCatalogUri: input.uri,
    source: { type: first.entityType, id: first.sourceId, label: first.label },
    document: { documentId: first.documentId, fileId: first.fileId, fileName: first.fileName },
    pageStart: Math.min(...passages.map((passage) => passage.pageNumber)),
    pageEnd: Math.max(...passages.map((passage) => passage.pageEnd)),
    sheetNumber: first.sheetNumber || null,
    box: union(passages.flatMap((passage) => (passage.box ? [passage.box] : []))),
    textLength: text.length,
    offset: Math.min(input.offset, text.length),
    text: text.slice(input.offset, end),
    nextOffset: end < text.length ? end : null,
    passageCount: passages.length,
    artifacts,
  };
}
