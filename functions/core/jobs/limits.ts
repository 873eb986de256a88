/** Limits of one job (no imports: the job model and the registration schema read them). */
export const JOB_LIMITS = {
  maxDeclaredBytes: 10_000_000_000,
  /**
   * One file's size: what the extraction engine reads in one function (preflight and each page batch
   * hold the file in memory, within 3 GB). A bigger file is refused at registration, not failed later.
   */
  maxFileBytes: 1024 ** 3,
  maxFiles: 1_000,
  filesPerRegistration: 100,
  /** Files embedded in a Job response; past it `filesTruncated` is true and the file listing pages through all. */
  embeddedFiles: 50,
} as const;
