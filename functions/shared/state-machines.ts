import type { RouteAccess } from './routes.ts';

/**
 * State machines: their ASL file and the Lambda behind each `${Placeholder}` of it. The CDK stack
 * builds the functions and substitutes their ARNs; the local runner maps the same placeholders to
 * the same handler modules. One list for both, so they cannot drift.
 */
export interface StateMachineTask {
  handler: string;
  access: Omit<RouteAccess, 'provisionStateMachine' | 'processJobStateMachine'>;
  timeoutSeconds: number;
  memoryMb: number;
}

export interface StateMachineDefinition {
  id: string;
  file: string;
  /** Environment variable holding this machine's ARN, for the functions that start it. */
  arnVariable: 'PROVISION_STATE_MACHINE_ARN' | 'PROCESS_JOB_STATE_MACHINE_ARN';
  tasks: Record<string, StateMachineTask>;
}

export const STATE_MACHINES: StateMachineDefinition[] = [
  {
    id: 'provision-project',
    file: 'stepfunctions/provision-project.asl.json',
    arnVariable: 'PROVISION_STATE_MACHINE_ARN',
    tasks: {
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
  },
];
