import { ProjectNotFoundError } from '../errors.ts';
import { isWellFormedId } from '../ids.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { type PageEnvelope, pageEnvelope } from '../pagination/page.ts';
import {
  computeOverview,
  type OwnedProject,
  type Project,
  type ProjectOverview,
  toPublicProject,
} from './model.ts';
import type { LatestJobLookup, ProjectStore } from './ports.ts';

/** A project of the caller's organization, or ProjectNotFoundError: another org's project does not exist for them. */
export async function requireProject(
  projects: Pick<ProjectStore, 'get'>,
  orgId: string,
  projectId: string,
): Promise<OwnedProject> {
  if (!isWellFormedId('prj', projectId)) throw new ProjectNotFoundError();
  const record = await projects.get(orgId, projectId);
  if (!record) throw new ProjectNotFoundError();
  return record;
}

export async function getProject(
  deps: { projects: ProjectStore },
  input: { orgId: string; projectId: string },
): Promise<Project> {
  return toPublicProject(await requireProject(deps.projects, input.orgId, input.projectId));
}

export async function getProjectOverview(
  deps: { projects: ProjectStore; jobs: LatestJobLookup },
  input: { orgId: string; projectId: string },
): Promise<{ project: Project; overview: ProjectOverview }> {
  const record = await requireProject(deps.projects, input.orgId, input.projectId);
  const latestJob = await deps.jobs.latestJob(input.orgId, record.id);
  return { project: toPublicProject(record), overview: computeOverview(record, latestJob) };
}

export async function listProjects(
  deps: { projects: ProjectStore; cursors: CursorCodec; jobs: LatestJobLookup },
  input: { orgId: string; limit: number; cursor: string | undefined; includeOverview: boolean },
): Promise<PageEnvelope & { projects: (Project & { overview?: ProjectOverview })[] }> {
  const scope = { endpoint: 'listProjects', orgId: input.orgId, filters: {} };
  const position = input.cursor ? deps.cursors.decode(input.cursor, scope) : null;
  const [page, total] = await Promise.all([
    deps.projects.list(input.orgId, { limit: input.limit, position }),
    deps.projects.count(input.orgId),
  ]);
  const nextCursor = page.nextPosition === null ? null : deps.cursors.encode(scope, page.nextPosition);
  return {
    projects: await Promise.all(
      page.items.map(async (record) =>
        input.includeOverview
          ? {
              ...toPublicProject(record),
              overview: computeOverview(record, await deps.jobs.latestJob(input.orgId, record.id)),
            }
          : toPublicProject(record),
      ),
    ),
    ...pageEnvelope({
      total,
      limit: input.limit,
      cursor: input.cursor ?? null,
      nextCursor,
      returnedCount: page.items.length,
    }),
  };
}
