// Types of tools/postgres-test-cluster.mjs, for the tests.

export interface TestCluster {
  /** `postgres://ROLE:PASSWORD@127.0.0.1:PORT/DB`: a role that logs in with its password and owns DB. */
  readonly url: string;
  /** What the server reports as `server_version`, e.g. "15.18 (Debian 15.18-0+deb12u1)". */
  readonly version: string;
  /** The cluster's temporary folder: its data, log and socket. */
  readonly dir: string;
  /** Stops the server (fast shutdown) and removes the folder. Safe to call more than once. */
  stop(): Promise<void>;
  /** Stops the server (fast shutdown: every session cut), keeping its data: an outage. */
  pause(): Promise<void>;
  /** Starts it again on the same port, with the same data. */
  resume(): Promise<void>;
}

export const PORT_RANGE: { readonly from: number; readonly to: number };

export function postgresBinDir(): string | undefined;

export interface TestClusterOptions {
  /** Keep PostgreSQL's defaults (fsync and synchronous_commit on), as the benchmark needs; default false (fsync=off). */
  readonly durable?: boolean;
}

export function startTestCluster(options?: TestClusterOptions): Promise<TestCluster>;
