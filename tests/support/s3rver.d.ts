// s3rver ships no types: the part of its API the tests use.
declare module "s3rver" {
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      directory: string;
      silent?: boolean;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
