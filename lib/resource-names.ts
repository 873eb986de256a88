import { Aws } from 'aws-cdk-lib';

/**
 * Physical names of the stateful resources. The stateless stack imports them by name instead of
 * through CloudFormation exports, so either stack deploys on its own, and every IAM statement names
 * its exact resource (the policies are readable and cdk-nag findings are precise).
 */
export function resourceNames(stage: string) {
  const suffix = `${Aws.ACCOUNT_ID}-${Aws.REGION}`;
  return {
    table: `project-source-${stage}`,
    uploadsBucket: `psa-${stage}-uploads-${suffix}`,
    artifactsBucket: `psa-${stage}-artifacts-${suffix}`,
    indexBucket: `psa-${stage}-index-${suffix}`,
    accessLogsBucket: `psa-${stage}-access-logs-${suffix}`,
    webhookQueue: `project-source-${stage}-webhooks`,
    webhookDeadLetterQueue: `project-source-${stage}-webhooks-dlq`,
    cursorSecret: `project-source/${stage}/cursor-signing-key`,
  };
}
