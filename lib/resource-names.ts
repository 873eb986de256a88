import { Aws } from 'aws-cdk-lib';
import { RESOURCES, type ResourceDefinition, type ResourceName } from '../functions/shared/resources.ts';

/**
 * Physical names of the stateful resources, from their entries in `resources.ts`. The stateless
 * stack imports them by name instead of through CloudFormation exports, so either stack deploys on
 * its own, and every IAM statement names its exact resource (the policies are readable and cdk-nag
 * findings are precise).
 */
export function physicalName(stage: string, definition: ResourceDefinition): string {
  const suffix = `${Aws.ACCOUNT_ID}-${Aws.REGION}`;
  switch (definition.kind) {
    case 'table':
      return `project-source-${stage}`;
    case 'bucket':
      return `psa-${stage}-${definition.name}-${suffix}`;
    case 'queue':
      return `project-source-${stage}-${definition.name}`;
    case 'secret':
      return `project-source/${stage}/${definition.name}`;
    case 'stateMachine':
      return `project-source-${stage}-${definition.name}`;
    case 'model':
      // A foundation model is AWS's, named by its id in every account and stage.
      return definition.modelId;
  }
}

export function resourceName(stage: string, name: ResourceName): string {
  return physicalName(stage, RESOURCES[name]);
}

/** Names of resources that are not entries of `resources.ts` (nothing binds to them directly). */
export function auxiliaryNames(stage: string) {
  return {
    accessLogsBucket: `psa-${stage}-access-logs-${Aws.ACCOUNT_ID}-${Aws.REGION}`,
    deadLetterQueue: (queueName: string) => `${queueName}-dlq`,
  };
}

/** `process-job` -> `ProcessJob`, `uploadsBucket` -> `UploadsBucket`: construct ids from names. */
export function pascal(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_match, _sep, letter: string) => letter.toUpperCase());
}

/** Where the viewer bucket's access logs go in the stage's access-log bucket (granted by the stateful stack). */
export const VIEWER_ACCESS_LOG_PREFIX = 'viewer/';
