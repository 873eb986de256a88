import type { Readable } from 'openapi-typescript-helpers';
import type { PsaClient } from './client.ts';
import type { components, operations } from './generated/schema.ts';

/** Schemas as openapi-fetch returns them in responses (its `Readable` view of the generated types). */
type Schemas = { [Name in keyof components['schemas']]: Readable<components['schemas'][Name]> };
export type Project = Schemas['Project'];
export type ProjectOverview = Schemas['ProjectOverview'];
export type Job = Schemas['Job'];
export type JobFile = Schemas['JobFile'];
export type JobResult = Schemas['JobResult'];
export type UploadInstruction = Schemas['UploadInstruction'];
export type RegisteredDocument = Schemas['RegisteredDocument'];
/**
 * A region as the listings return it. Not `Schemas['ProjectRegionEntity']`: openapi-typescript renders the
 * reference boxes' `allOf [DisplayBox, object|null]` as `DisplayBox & Record<string, never>`, which no
 * real value satisfies, while openapi-fetch's response type reads them as plain boxes.
 */
export type Region = PsaClient['regions']['list'] extends (...args: never[]) => AsyncGenerator<infer Item>
  ? Item
  : never;
export type Sheet = Schemas['ProjectSheetEntity'];
export type RegionTable = Awaited<ReturnType<PsaClient['regions']['table']>>;
export type Specification = Schemas['ProjectSpecificationEntity'];
export type SpecificationFacet = Schemas['ProjectSpecificationFacetEntity'];
export type SpecificationSection = Schemas['ProjectSpecificationSectionEntity'];
export type ProjectDocument = Schemas['ProjectDocumentEntity'];
export type SourceSearchHit = Schemas['SourceSearchHit'];
export type SourceText = Schemas['SourceText'];
export type ArtifactReference = Schemas['ArtifactReference'];
export type Review = Schemas['Review'];
export type ReviewExecution = Schemas['ReviewExecution'];
export type ReviewCitation = Schemas['ReviewCitation'];
export type ReviewStreamEventRecord = Schemas['ReviewStreamEvent'];
export type DisplayBox = Schemas['DisplayBox'];

/** The query of a listing without its cursor (the iterators follow cursors themselves). */
type ListQuery<Op extends keyof operations> = Omit<
  NonNullable<operations[Op]['parameters']['query']>,
  'cursor'
>;
export type ListProjectsQuery = ListQuery<'listProjects'>;
export type ListJobsQuery = ListQuery<'listJobs'>;
export type ListProjectJobsQuery = ListQuery<'listProjectJobs'>;
export type ListJobFilesQuery = ListQuery<'listJobFiles'>;
export type ListRegionsQuery = ListQuery<'listRegions'>;
export type ListSheetRegionsQuery = ListQuery<'listSheetRegions'>;
export type ListSheetsQuery = ListQuery<'listSheets'>;
export type ListSpecificationsQuery = ListQuery<'listSpecifications'>;
export type ListSectionsQuery = ListQuery<'listSpecificationSections'>;
export type ListDocumentsQuery = ListQuery<'listDocuments'>;
export type ListReviewsQuery = ListQuery<'listReviews'>;

type JsonBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
export type SourceSearchRequest = JsonBody<'searchSources'>;
export type SourceSearchResponse =
  operations['searchSources']['responses'][200]['content']['application/json'];
export type ProjectSearchRequest = JsonBody<'searchProjects'>;
export type ProjectSearchResponse =
  operations['searchProjects']['responses'][200]['content']['application/json'];
export type CreateJobRequest = JsonBody<'createJob'>;
export type RegisterUploadsRequest = JsonBody<'registerUploads'>;
export type RegisterUploadsResponse =
  operations['registerUploads']['responses'][200]['content']['application/json'];
export type CompleteUploadsRequest = JsonBody<'completeUploads'>;
export type CompleteUploadsResponse =
  operations['completeUploads']['responses'][200]['content']['application/json'];
export type CreateProjectResponse =
  operations['createProject']['responses'][202]['content']['application/json'];
export type ProjectListItem =
  operations['listProjects']['responses'][200]['content']['application/json']['projects'][number];
