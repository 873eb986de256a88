import { afterEach, describe, expect, it } from 'vitest';
import { DynamoRateLimiter, leaseSize } from '../../functions/adapters/dynamodb/auth-store.ts';
import { DynamoContentStore } from '../../functions/adapters/dynamodb/content-store.ts';
import { DynamoSearchIndexStates } from '../../functions/adapters/dynamodb/search-index-store.ts';
import { authenticateApiKey } from '../../functions/core/auth/api-keys.ts';
import { cachedKeyReads } from '../../functions/core/auth/key-cache.ts';
import { UnauthorizedError } from '../../functions/core/errors.ts';
import { newId } from '../../functions/core/ids.ts';
import { cachedReadyProjects } from '../../functions/core/projects/ready-projects.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { apiKeyStore, projectStore } from '../../functions/shared/wiring/adapters.ts';
import { readyDocument } from './content-fixtures.ts';
import { createOrg, createProject, waitForProject } from './helpers.ts';

const TABLE = process.env.TABLE_NAME ?? '';

/** A clock the caches read instead of performance.now(). */
const clock = () => {
  let now = 1_000;
  return { perf: { now: () => now }, advance: (ms: number) => (now += ms) };
};

/** DynamoDB commands this process sends, by name, from the moment it is called. */
function countCommands() {
  const counts: Record<string, number> = {};
  const name = `count-${newId('job')}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      counts[context.commandName ?? ''] = (counts[context.commandName ?? ''] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { counts, stop: () => dynamo.middlewareStack.remove(name) };
}

let counting: ReturnType<typeof countCommands> | null = null;
afterEach(() => {
  counting?.stop();
  counting = null;
});

describe('verified keys kept by a function (cachedKeyReads)', () => {
  it('refuses a revoked key once the bound has passed, and not a read sooner', async () => {
    // Prepare
    const org = await createOrg();
    const time = clock();
    const keys = cachedKeyReads(apiKeyStore(), { ttlMs: 5_000, perf: time.perf });
    const authorization = `Bearer ${org.apiKey}`;
    await authenticateApiKey({ keys }, { authorization, sourceIp: '192.0.2.1' });
    await apiKeyStore().revoke(org.orgId, org.keyId, new Date().toISOString());

    // Act
    counting = countCommands();
    time.advance(4_900);
    const withinBound = await authenticateApiKey({ keys }, { authorization, sourceIp: '192.0.2.1' });
    const readsWithinBound = counting.counts.GetItemCommand ?? 0;
    time.advance(200);
    const afterBound = authenticateApiKey({ keys }, { authorization, sourceIp: '192.0.2.1' });

    // Assess
    expect(withinBound.keyId).toBe(org.keyId);
    expect(readsWithinBound).toBe(0);
    await expect(afterBound).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('still checks the secret of every request against the kept key', async () => {
    // Prepare
    const org = await createOrg();
    const keys = cachedKeyReads(apiKeyStore(), { ttlMs: 5_000 });
    await authenticateApiKey({ keys }, { authorization: `Bearer ${org.apiKey}`, sourceIp: '192.0.2.1' });

    // Act
    const forged = authenticateApiKey(
      { keys },
      { authorization: `Bearer ${org.apiKey.slice(0, -4)}AAAA`, sourceIp: '192.0.2.1' },
    );

    // Assess
    await expect(forged).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

describe('rate windows leased by a function (DynamoRateLimiter)', () => {
  it('grants exactly the limit in a window to two functions sharing a key', async () => {
    // Prepare: two functions of one key, a limit of 200 (leases of 4).
    const subject = newId('job');
    const functions = [new DynamoRateLimiter(dynamo, TABLE), new DynamoRateLimiter(dynamo, TABLE)];
    const limit = 200;
    // A window that will not end during the test (a minute boundary would open a new one).
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));

    // Act
    counting = countCommands();
    const answers: (number | null)[] = [];
    for (let i = 0; i < 260; i++)
      answers.push(await (functions[i % 2] as DynamoRateLimiter).hit(subject, limit));

    // Assess
    const granted = answers.filter((answer) => answer === null).length;
    expect(leaseSize(limit)).toBe(4);
    expect(granted).toBeLessThanOrEqual(limit);
    // At most one lease per function is left unused when the window fills.
    expect(granted).toBeGreaterThanOrEqual(limit - 2 * (leaseSize(limit) - 1));
    expect(answers.slice(granted).every((answer) => typeof answer === 'number' && answer >= 1)).toBe(true);
    // Writes: one per lease while granting, then one per refused request.
    expect(counting.counts.UpdateItemCommand ?? 0).toBeLessThanOrEqual(limit / leaseSize(limit) + 2 + 60);
  });

  it('counts every request in the table under a limit of less than 100 (leases of one)', async () => {
    // Prepare
    const subject = newId('job');
    const limiter = new DynamoRateLimiter(dynamo, TABLE);
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 5) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));

    // Act
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await limiter.hit(subject, 3));

    // Assess
    expect(answers.slice(0, 3)).toEqual([null, null, null]);
    expect(answers.slice(3).every((answer) => typeof answer === 'number')).toBe(true);
  });
});

describe('ready projects kept by a function (cachedReadyProjects)', () => {
  it('reads a ready project once, and never hands it to another organization', async () => {
    // Prepare
    const org = await createOrg();
    const other = await createOrg();
    const projectId = (await createProject(org.apiKey, 'Kept')).body.project.id as string;
    await waitForProject(org.apiKey, projectId);
    const projects = cachedReadyProjects(projectStore(), { ttlMs: 60_000 });
    const first = await projects.get(org.orgId, projectId);

    // Act
    counting = countCommands();
    const again = await projects.get(org.orgId, projectId);
    const foreign = await projects.get(other.orgId, projectId);

    // Assess
    expect(first?.status).toBe('ready');
    expect(again).toEqual(first);
    expect(foreign).toBeNull();
    // The second read of the owner was kept; the other organization's was read (and found nothing).
    expect(counting.counts.GetItemCommand ?? 0).toBe(1);
  });
});

describe("documents' index states kept by a function (DynamoSearchIndexStates)", () => {
  it('reads the rows again only when a document row changed since', async () => {
    // Prepare
    const org = await createOrg();
    const projectId = (await createProject(org.apiKey, 'States')).body.project.id as string;
    await waitForProject(org.apiKey, projectId);
    const states = new DynamoSearchIndexStates(dynamo, TABLE);
    const content = new DynamoContentStore(dynamo, TABLE);
    const write = (fileName: string) => {
      const fileId = newId('fil');
      const document = readyDocument({
        orgId: org.orgId,
        projectId,
        fileId,
        documentId: newId('doc'),
        fileName,
        classification: 'other',
        pageCount: 1,
      });
      return content.writeFileContent(projectId, fileId, {
        document,
        sheets: [],
        regions: [],
        sections: [],
        facets: [],
      });
    };
    await write('first.pdf');

    // Act
    counting = countCommands();
    const before = await states.documentIndexStates(projectId);
    const kept = await states.documentIndexStates(projectId);
    const queriesKept = counting.counts.QueryCommand ?? 0;
    await write('second.pdf');
    const after = await states.documentIndexStates(projectId);

    // Assess
    expect(before.map((document) => document.fileName)).toEqual(['first.pdf']);
    expect(kept).toEqual(before);
    expect(queriesKept).toBe(1);
    expect(after.map((document) => document.fileName).sort()).toEqual(['first.pdf', 'second.pdf']);
  });
});
