import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { FunctionEnvironment } from '../functions/shared/function-environment.ts';
import { RESOURCES, type ResourceName } from '../functions/shared/resources.ts';
import { StatelessStack } from '../lib/stateless-stack.ts';
import { type Grant, grantsOf } from './grants.ts';

/** One deployed function as the cloud assembly describes it. */
export interface SynthesizedFunction {
  /** Its id in the stack (`StatelessStack.functions`): a route id, a task placeholder, a consumer id. */
  id: string;
  /** The handler module it runs, relative to the repository root. */
  handler: string;
  /** Its CloudFormation logical id. */
  logicalId: string;
  /** `Environment.Variables` of its template resource, as synthesized (values may be CloudFormation tokens). */
  variables: Record<string, unknown>;
  /** The statements of its role's policies (as synthesized). */
  statements: { actions: string[]; resources: unknown[]; leadingKeys?: string[] }[];
  /** What they allow, by resource of `resources.ts`. */
  grants: Grant[];
}

/**
 * Synthesizes the stateless stack (without bundling: only its template is read) and returns each
 * function's environment and grants, read from the cloud assembly. About 5 s on this machine.
 */
export function synthesizeFunctions(stage = 'local'): SynthesizedFunction[] {
  const outdir = mkdtempSync(join(tmpdir(), 'psa-assembly-'));
  try {
    // `aws:cdk:bundling-stacks` empty: no function is bundled and no layer staged.
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new StatelessStack(app, 'Stateless', { stage });
    const template = app.synth().getStackByName(stack.stackName).template as {
      Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
    };
    const handlers = new Map<string, string>();
    const machines = Object.fromEntries(
      Object.entries(template.Resources)
        .filter(([, resource]) => resource.Type === 'AWS::StepFunctions::StateMachine')
        .map(([logicalId, resource]) => [logicalId, String(resource.Properties.StateMachineName)]),
    );
    return [...stack.functions].map(([id, service]) => {
      const other = handlers.get(service.entry);
      if (other !== undefined && other !== id)
        throw new Error(`${service.entry} is the handler of two functions (${other}, ${id})`);
      handlers.set(service.entry, id);
      const logicalId = stack.getLogicalId(service.fn.node.defaultChild as CfnFunction);
      const properties = template.Resources[logicalId]?.Properties;
      if (!properties) throw new Error(`The template has no function ${logicalId} (${id})`);
      const role = (properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const statements: SynthesizedFunction['statements'] = Object.values(template.Resources)
        .filter(
          (resource) =>
            resource.Type === 'AWS::IAM::Policy' &&
            JSON.stringify(resource.Properties.Roles) === JSON.stringify([{ Ref: role }]),
        )
        .flatMap(
          (policy) =>
            (
              policy.Properties.PolicyDocument as {
                Statement: {
                  Action: unknown;
                  Resource: unknown;
                  Condition?: { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } };
                }[];
              }
            ).Statement,
        )
        .map((statement) => {
          const leadingKeys = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
          return {
            actions: [statement.Action].flat() as string[],
            resources: [statement.Resource].flat(),
            ...(leadingKeys ? { leadingKeys } : {}),
          };
        });
      return {
        id,
        handler: service.entry,
        logicalId,
        grants: grantsOf({ statements }, stage, machines),
        variables:
          (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
        statements,
      };
    });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** What the local stack gives for a resource: its local name (or URL), and the local stand-ins of AWS services it needs. */
export interface LocalResources {
  /** Each resource's variable (`RESOURCES[name].env`) -> its local value. */
  values: Record<string, string>;
  /**
   * Variables that stand in locally for a resource AWS serves (the signing key itself for the secret,
   * the extractive answerer for the answer model, ...): given only to the functions bound to it.
   */
  standIns: Partial<Record<ResourceName, Record<string, string>>>;
  /** What the Lambda runtime sets (region, credentials) and the emulators' endpoints: every function's. */
  runtime: Record<string, string>;
}

const RESOURCE_BY_VARIABLE = new Map(
  (Object.entries(RESOURCES) as [ResourceName, (typeof RESOURCES)[ResourceName]][]).map(
    ([name, definition]) => [definition.env as string, name],
  ),
);

/**
 * A function's local environment: exactly the variables of its template, each resource's variable
 * pointing at the local resource (with that resource's local stand-ins), plus the runtime's own.
 * A variable the template does not give the function is not given here either.
 */
export function localEnvironment(fn: SynthesizedFunction, local: LocalResources): FunctionEnvironment {
  const variables: Record<string, string> = { ...local.runtime };
  for (const [name, value] of Object.entries(fn.variables)) {
    const resource = RESOURCE_BY_VARIABLE.get(name);
    if (resource) {
      const localValue = local.values[name];
      if (localValue === undefined) throw new Error(`${fn.id}: the local stack has no ${resource}`);
      variables[name] = localValue;
      Object.assign(variables, local.standIns[resource]);
    } else if (typeof value === 'string') {
      variables[name] = value;
    } else {
      throw new Error(
        `${fn.id}: ${name} is not a resource of resources.ts but its value is resolved at deploy time`,
      );
    }
  }
  return { name: fn.id, variables, grants: fn.grants };
}
