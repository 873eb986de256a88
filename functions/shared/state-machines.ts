import {
  type Access,
  RESOURCES,
  type ResourceNameOfKind,
  type StateMachineDefinition as StateMachineResource,
} from './resources.ts';

/**
 * The Lambda behind each `${Placeholder}` of each state machine's ASL file (the machine itself, its
 * file and its environment variable, is an entry of `resources.ts`). The CDK stack builds the
 * functions and substitutes their ARNs; the local runner maps the same placeholders to the same
 * handler modules. One list for both, so they cannot drift.
 */
export interface StateMachineTask {
  handler: string;
  access: Omit<Access, ResourceNameOfKind<'stateMachine'>>;
  timeoutSeconds: number;
  memoryMb: number;
  /** Size of /tmp in MB; Lambda's 512 when absent. */
  ephemeralStorageMb?: number;
  /** CPU-heavy: the local runner runs it in a worker thread so the local API stays responsive. */
  isolated?: boolean;
  /** Loads the extraction engine (native canvas, pdf.js, tesseract): deployed with the engine layer. */
  usesEngine?: boolean;
  /** Opens project indexes (LanceDB's native library): deployed with the index layer, on x86_64. */
  usesIndex?: boolean;
}

type StateMachineName = ResourceNameOfKind<'stateMachine'>;

/** Tasks of the job machines (process-job, normalize-regions, reconcile-index): one definition, one function. */
const JOB_TASKS = {
  FailFileFunctionArn: {
    handler: 'functions/handlers/sfn/fail-file.ts',
    access: { table: 'readwrite' },
    timeoutSeconds: 60,
    memoryMb: 256,
  },
  FinalizeJobFunctionArn: {
    handler: 'functions/handlers/sfn/finalize-job.ts',
    access: { table: 'readwrite', artifactsBucket: 'readwrite', webhookQueue: 'send' },
    timeoutSeconds: 300,
    memoryMb: 1024,
  },
  FailJobFunctionArn: {
    handler: 'functions/handlers/sfn/fail-job.ts',
    access: { table: 'readwrite', webhookQueue: 'send' },
    timeoutSeconds: 120,
    memoryMb: 512,
  },
} as const satisfies Record<string, StateMachineTask>;

/** Writes one file's passages to its project's index: the job pipeline's step, which reconcile jobs reuse. */
export const INDEX_FILE_TASK = {
  handler: 'functions/handlers/sfn/index-file.ts',
  access: {
    table: 'readwrite',
    artifactsBucket: 'read',
    indexBucket: 'manage',
    embeddingModel: 'invoke',
  },
  timeoutSeconds: 900,
  memoryMb: 2048,
  // LanceDB spills the vector index's build under /tmp: 11 MB at 50,000 rows (about 0.2 KB a row, npm
  // run bench:search-sizing, docs/decisions.md); 1 GB holds the build of some 5 million passages.
  // Its memory peaked at 1,166 MB building that index (2,048 MB given).
  ephemeralStorageMb: 1024,
  isolated: true,
  usesIndex: true,
} as const satisfies StateMachineTask;

/** Every state machine of `RESOURCES` must have its tasks here (the `satisfies` says so). */
const TASKS = {
  provisionStateMachine: {
    SetUpProjectResourcesFunctionArn: {
      handler: 'functions/handlers/sfn/set-up-project-resources.ts',
      access: { table: 'readwrite', indexBucket: 'readwrite' },
      timeoutSeconds: 60,
      memoryMb: 256,
    },
    MarkProjectReadyFunctionArn: {
      handler: 'functions/handlers/sfn/mark-project-ready.ts',
      access: { table: 'readwrite' },
      timeoutSeconds: 30,
      memoryMb: 256,
    },
    FailProjectProvisioningFunctionArn: {
      handler: 'functions/handlers/sfn/fail-project-provisioning.ts',
      access: { table: 'readwrite' },
      timeoutSeconds: 30,
      memoryMb: 256,
    },
  },
  processJobStateMachine: {
    ListFilesToInspectFunctionArn: {
      handler: 'functions/handlers/sfn/list-files-to-inspect.ts',
      access: { table: 'readwrite' },
      timeoutSeconds: 60,
      memoryMb: 256,
    },
    /** One file a task: its bytes (at most limits.maxFileBytes) in one buffer, read as they stream. */
    InspectFileFunctionArn: {
      handler: 'functions/handlers/sfn/inspect-file.ts',
      access: { table: 'readwrite', uploadsBucket: 'read' },
      timeoutSeconds: 900,
      memoryMb: 3008,
      usesEngine: true,
    },
    PreflightJobFunctionArn: {
      handler: 'functions/handlers/sfn/preflight-job.ts',
      access: { table: 'readwrite', webhookQueue: 'send' },
      timeoutSeconds: 300,
      memoryMb: 512,
    },
    ExtractPageBatchFunctionArn: {
      handler: 'functions/handlers/sfn/extract-page-batch.ts',
      access: { table: 'readwrite', uploadsBucket: 'read', artifactsBucket: 'readwrite' },
      timeoutSeconds: 900,
      memoryMb: 3008,
      usesEngine: true,
      isolated: true,
    },
    AssembleFileFunctionArn: {
      handler: 'functions/handlers/sfn/assemble-file.ts',
      access: { table: 'readwrite', uploadsBucket: 'read', artifactsBucket: 'readwrite' },
      timeoutSeconds: 900,
      memoryMb: 3008,
      usesEngine: true,
      isolated: true,
    },
    IndexFileFunctionArn: INDEX_FILE_TASK,
    ...JOB_TASKS,
  },
  reviewExecutionStateMachine: {
    BeginReviewExecutionFunctionArn: {
      handler: 'functions/handlers/sfn/begin-review-execution.ts',
      access: { table: 'readwrite', artifactsBucket: 'readwrite' },
      timeoutSeconds: 60,
      memoryMb: 512,
    },
    ReviewTurnFunctionArn: {
      handler: 'functions/handlers/sfn/review-turn.ts',
      access: { table: 'readwrite', answerModel: 'stream', artifactsBucket: 'readwrite' },
      timeoutSeconds: 300,
      memoryMb: 1024,
    },
    RunReviewToolsFunctionArn: {
      handler: 'functions/handlers/sfn/run-review-tools.ts',
      access: {
        table: 'readwrite',
        indexBucket: 'read',
        embeddingModel: 'invoke',
        signingKey: 'read',
        artifactsBucket: 'readwrite',
      },
      timeoutSeconds: 300,
      memoryMb: 2048,
      usesIndex: true,
    },
    FinishReviewExecutionFunctionArn: {
      handler: 'functions/handlers/sfn/finish-review-execution.ts',
      access: { table: 'readwrite', signingKey: 'read', artifactsBucket: 'read' },
      timeoutSeconds: 60,
      memoryMb: 512,
    },
    FailReviewExecutionFunctionArn: {
      handler: 'functions/handlers/sfn/fail-review-execution.ts',
      access: { table: 'readwrite' },
      timeoutSeconds: 60,
      memoryMb: 512,
    },
  },
  normalizeRegionsStateMachine: {
    NormalizeFileRegionsFunctionArn: {
      handler: 'functions/handlers/sfn/normalize-file-regions.ts',
      access: { table: 'readwrite', uploadsBucket: 'read' },
      timeoutSeconds: 900,
      memoryMb: 3008,
      usesEngine: true,
      isolated: true,
    },
    ...JOB_TASKS,
  },
  reconcileIndexStateMachine: {
    PrepareReconcileFunctionArn: {
      handler: 'functions/handlers/sfn/prepare-reconcile.ts',
      access: { table: 'readwrite', indexBucket: 'manage', embeddingModel: 'invoke' },
      timeoutSeconds: 300,
      memoryMb: 1024,
      usesIndex: true,
    },
    IndexFileFunctionArn: INDEX_FILE_TASK,
    ...JOB_TASKS,
  },
} as const satisfies Record<StateMachineName, Record<string, StateMachineTask>>;

export interface StateMachine extends StateMachineResource {
  /** Resource name (`processJobStateMachine`). */
  resource: StateMachineName;
  tasks: Record<string, StateMachineTask>;
}

export const STATE_MACHINES: StateMachine[] = (Object.keys(TASKS) as StateMachineName[]).map((resource) => ({
  ...RESOURCES[resource],
  resource,
  tasks: TASKS[resource],
}));

// A placeholder used by two machines is one function (the CDK builds it once): it must be one task.
const seen = new Map<string, string>();
for (const machine of STATE_MACHINES) {
  for (const [placeholder, task] of Object.entries(machine.tasks)) {
    const definition = JSON.stringify(task);
    if ((seen.get(placeholder) ?? definition) !== definition)
      throw new Error(`${placeholder} is defined differently by two state machines`);
    seen.set(placeholder, definition);
  }
}
