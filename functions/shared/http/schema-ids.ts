import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ApiKeySchema } from '../../core/auth/model.ts';
import { JobResultSchema } from '../../core/content/job-result.ts';
import {
  ArtifactReferenceSchema,
  DocumentEntitySchema,
  FacetEntitySchema,
  RegionEntitySchema,
  SearchIndexStateSchema,
  SectionEntitySchema,
  SheetEntitySchema,
  SpecificationEntitySchema,
} from '../../core/content/model.ts';
import { NormalizationSchema } from '../../core/content/normalize-regions.ts';
import {
  JobFileSchema,
  JobSchema,
  RegisteredDocumentSchema,
  UploadInstructionSchema,
} from '../../core/jobs/model.ts';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { CitationSchema, ExecutionSchema, ReviewSchema } from '../../core/reviews/model.ts';
import { StreamEventSchema } from '../../core/reviews/stream.ts';
import {
  ProjectSearchResultItemSchema,
  ProjectSearchWarningSchema,
  SourceIndexReportSchema,
  SourceSearchHitSchema,
  SourceTextSchema,
} from '../../core/search/model.ts';
import { WebhookSchema } from '../../core/webhooks/model.ts';

/**
 * The OpenAPI component id of every shared schema of the contract. The schemas are the domain's own
 * (`functions/core/<domain>/model.ts`); their ids are a concern of the wire, so they are given here, in
 * zod's global registry on the schema objects themselves: every contract that nests one refers to it by
 * id (`$ref`), as `.meta({ id })` on the schema did. The OpenAPI generator (`scripts/openapi-document.ts`)
 * imports this module; handlers do not need it. The extraction engine's models carry their own ids for now.
 */
const SCHEMA_IDS: [z.ZodType, string][] = [
  [ApiKeySchema, 'OpenApiKey'],
  [JobResultSchema, 'JobResult'],
  [ArtifactReferenceSchema, 'ArtifactReference'],
  [RegionEntitySchema, 'ProjectRegionEntity'],
  [SheetEntitySchema, 'ProjectSheetEntity'],
  [FacetEntitySchema, 'ProjectSpecificationFacetEntity'],
  [SpecificationEntitySchema, 'ProjectSpecificationEntity'],
  [SectionEntitySchema, 'ProjectSpecificationSectionEntity'],
  [SearchIndexStateSchema, 'DocumentSearchIndexState'],
  [DocumentEntitySchema, 'ProjectDocumentEntity'],
  [NormalizationSchema, 'RegionNormalization'],
  [JobFileSchema, 'JobFile'],
  [JobSchema, 'Job'],
  [UploadInstructionSchema, 'UploadInstruction'],
  [RegisteredDocumentSchema, 'RegisteredDocument'],
  [ProjectSchema, 'Project'],
  [ProjectOverviewSchema, 'ProjectOverview'],
  [ReviewSchema, 'Review'],
  [CitationSchema, 'ReviewCitation'],
  [ExecutionSchema, 'ReviewExecution'],
  [StreamEventSchema, 'ReviewStreamEvent'],
  [SourceSearchHitSchema, 'SourceSearchHit'],
  [SourceTextSchema, 'SourceText'],
  [SourceIndexReportSchema, 'SourceIndexReport'],
  [ProjectSearchWarningSchema, 'ProjectSearchWarning'],
  [ProjectSearchResultItemSchema, 'ProjectSearchResultItem'],
  [WebhookSchema, 'Webhook'],
];

for (const [schema, id] of SCHEMA_IDS) {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  // The generator takes an id as a component's only for a schema it holds metadata for.
  zodToOpenAPIRegistry.add(schema, { _internal: { refId: id } });
}
