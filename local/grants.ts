import { currentFunction, type FunctionGrant } from '../functions/shared/function-environment.ts';
import { RESOURCES, type ResourceDefinition, type ResourceName } from '../functions/shared/resources.ts';
import type { SynthesizedFunction } from './function-environments.ts';

/**
 * The grants of each function, enforced locally. DynamoDB Local, the S3 emulator and the local queues
 * accept any credentials; on AWS a call the function's role does not allow fails. The local stack reads
 * each function's IAM statements from the synthesized template and checks every SDK call a function
 * makes against them, so a missing grant fails here as it would there.
 */

export type Grant = FunctionGrant & { resource: ResourceName };

/** A CloudFormation value as text: `{Ref}` and `{Fn::GetAtt}` as placeholders, `Fn::Join` joined. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(flatten).join('');
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('Ref' in record) return `{${String(record.Ref)}}`;
    if ('Fn::GetAtt' in record) return `{${(record['Fn::GetAtt'] as string[]).join('.')}}`;
    if ('Fn::Join' in record) {
      const [separator, parts] = record['Fn::Join'] as [string, unknown[]];
      return parts.map(flatten).join(separator);
    }
  }
  return JSON.stringify(value);
}

/**
 * The grants of one function, from its statements. `machines`: the template's state machines, logical
 * id -> physical name. Statements on what is no resource of the list (X-Ray, `*`) are left out.
 */
export function grantsOf(
  fn: { statements: SynthesizedFunction['statements'] },
  stage: string,
  machines: Record<string, string>,
): Grant[] {
  const grants: Grant[] = [];
  for (const statement of fn.statements) {
    const leadingKeys = statement.leadingKeys?.map((key) => key.replace(/\*$/, ''));
    for (const raw of statement.resources) {
      const arn = flatten(raw);
      for (const [name, definition] of Object.entries(RESOURCES) as [ResourceName, ResourceDefinition][]) {
        const part = partOf(arn, definition, stage, machines);
        if (part)
          grants.push({
            resource: name,
            ...part,
            actions: statement.actions,
            ...(leadingKeys ? { leadingKeys } : {}),
          });
      }
    }
  }
  return grants;
}

function partOf(
  arn: string,
  definition: ResourceDefinition,
  stage: string,
  machines: Record<string, string>,
): Pick<Grant, 'part' | 'index'> | null {
  switch (definition.kind) {
    case 'table': {
      const match = new RegExp(`:table/project-source-${stage}(/index/([\\w-]+))?$`).exec(arn);
      if (!match) return null;
      return match[2] ? { part: 'index', index: match[2] } : { part: 'table' };
    }
    case 'bucket': {
      const match = new RegExp(`:s3:::psa-${stage}-${definition.name}-[^/]*?(/\\*)?$`).exec(arn);
      if (!match) return null;
      return { part: match[1] ? 'objects' : 'bucket' };
    }
    case 'queue':
      return arn.endsWith(`:project-source-${stage}-${definition.name}`) ? { part: 'whole' } : null;
    case 'secret':
      return arn.includes(`:secret:project-source/${stage}/${definition.name}-`) ? { part: 'whole' } : null;
    case 'model':
      return arn.endsWith(`foundation-model/${definition.modelId}`) ? { part: 'whole' } : null;
    case 'stateMachine': {
      const id = /^\{(\w+)\}$/.exec(arn)?.[1];
      return id && machines[id] === `project-source-${stage}-${definition.name}` ? { part: 'whole' } : null;
    }
  }
}

/** What one SDK call needs: the action, on which resource (by its local name), which part. */
export interface Need {
  action: string;
  /** The local physical name the call targets (table name, bucket, queue URL, machine ARN). */
  target: string;
  part: Grant['part'];
  index?: string;
  /** The partition key the call writes, for grants limited to leading keys. */
  partitionKey?: string;
}

const DOCUMENT_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  ConditionCheck: 'ConditionCheckItem',
};

const S3_ACTIONS: Record<string, string> = {
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  PutObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  DeleteObject: 's3:DeleteObject',
  DeleteObjects: 's3:DeleteObject',
  ListObjectsV2: 's3:ListBucket',
  HeadBucket: 's3:ListBucket',
};

type Input = Record<string, unknown>;

/** The low-level command a document-client command is sent as, by the name the middleware sees. */
const LOW_LEVEL: Record<string, string> = {
  GetItem: 'Get',
  PutItem: 'Put',
  UpdateItem: 'Update',
  DeleteItem: 'Delete',
  BatchGetItem: 'BatchGet',
  BatchWriteItem: 'BatchWrite',
  TransactWriteItems: 'TransactWrite',
  TransactGetItems: 'TransactGet',
};

/** A key's partition key, marshalled (`{ S: ... }`) or not. */
function partitionKeyOf(request: Input): string | undefined {
  const pk = (request.Key as Input | undefined)?.pk;
  if (typeof pk === 'string') return pk;
  const marshalled = (pk as { S?: unknown } | undefined)?.S;
  return typeof marshalled === 'string' ? marshalled : undefined;
}

/** The needs of one DynamoDB call (its command name without `Command`, document-client or low-level). */
function dynamoNeeds(name: string, input: Input): Need[] {
  const command = LOW_LEVEL[name] ?? name;
  const item = (action: string, request: Input): Need => ({
    action: `dynamodb:${DOCUMENT_ACTIONS[action] ?? action}`,
    target: String(request.TableName),
    part: request.IndexName ? 'index' : 'table',
    ...(request.IndexName ? { index: String(request.IndexName) } : {}),
    ...(partitionKeyOf(request) === undefined ? {} : { partitionKey: partitionKeyOf(request) }),
  });
  if (command === 'TransactWrite')
    return ((input.TransactItems as Input[]) ?? []).flatMap((entry) =>
      Object.entries(entry).map(([action, request]) => item(action, request as Input)),
    );
  if (command === 'TransactGet')
    return ((input.TransactItems as Input[]) ?? []).map((entry) => item('Get', entry.Get as Input));
  if (command === 'BatchWrite' || command === 'BatchGet')
    return Object.keys((input.RequestItems as Input) ?? {}).map((table) =>
      item(command, { TableName: table }),
    );
  return [item(command, input)];
}

export function needsOf(client: string, command: string, input: Input): Need[] {
  const name = command.replace(/Command$/, '');
  if (client.startsWith('DynamoDB')) return dynamoNeeds(name, input);
  if (client === 'S3Client')
    return [
      {
        action: S3_ACTIONS[name] ?? `s3:${name}`,
        target: String(input.Bucket),
        part: name === 'ListObjectsV2' || name === 'HeadBucket' ? 'bucket' : 'objects',
      },
    ];
  if (client === 'SQSClient')
    return [
      {
        action: `sqs:${name.replace(/Batch$/, '')}`,
        target: String(input.QueueUrl).split('/').pop() ?? '',
        part: 'whole',
      },
    ];
  if (client === 'SFNClient')
    return [
      {
        action: `states:${name}`,
        target: String(input.stateMachineArn).split(':').pop() ?? '',
        part: 'whole',
      },
    ];
  return [];
}

/** Whether a need is granted; `resourceOf` maps a local physical name to its resource. */
export function isGranted(
  need: Need,
  grants: readonly FunctionGrant[],
  resourceOf: (target: string) => ResourceName | undefined,
): boolean {
  const resource = resourceOf(need.target);
  return grants.some(
    (grant) =>
      grant.resource === resource &&
      grant.part === need.part &&
      (grant.part !== 'index' || grant.index === need.index) &&
      grant.actions.includes(need.action) &&
      (!grant.leadingKeys ||
        (need.partitionKey !== undefined &&
          grant.leadingKeys.some((prefix) => need.partitionKey?.startsWith(prefix)))),
  );
}

export class LocalAccessDeniedError extends Error {
  override name = 'AccessDeniedException';
}

interface MiddlewareClient {
  middlewareStack: {
    add(
      middleware: (
        next: (args: { input: Input }) => Promise<unknown>,
        context: { clientName?: string; commandName?: string },
      ) => (args: { input: Input }) => Promise<unknown>,
      options: { step: 'initialize'; name: string },
    ): void;
  };
}

/**
 * Checks every call of these clients made inside a function with grants (`FunctionEnvironment.grants`)
 * against them: a call its role would not allow on AWS throws AccessDeniedException here.
 */
export function enforceGrants(clients: unknown[], resourceOf: (target: string) => ResourceName | undefined) {
  for (const client of clients as MiddlewareClient[]) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const fn = currentFunction();
        const grants = fn?.grants;
        if (fn && grants) {
          const needs = needsOf(context.clientName ?? '', context.commandName ?? '', args.input);
          const denied = needs.find((need) => !isGranted(need, grants, resourceOf));
          if (denied)
            throw new LocalAccessDeniedError(
              `${fn.name} is not authorized to perform ${denied.action} on ${denied.target}${denied.index ? `/index/${denied.index}` : ''} (its synthesized role does not allow it)`,
            );
        }
        return next(args);
      },
      { step: 'initialize', name: 'localGrantCheck' },
    );
  }
}

/** Each local physical name -> its resource (as `local/stack.ts` names them: `localName`). */
export function localResourceNames(
  localName: (definition: ResourceDefinition) => string,
): Record<string, ResourceName> {
  const byName: Record<string, ResourceName> = {};
  for (const [name, definition] of Object.entries(RESOURCES) as [ResourceName, ResourceDefinition][]) {
    byName[localName(definition)] = name;
    // Calls name queues by URL and machines by ARN: matched by their last segment.
    byName[localName(definition).split(/[/:]/).pop() ?? ''] = name;
  }
  return byName;
}
