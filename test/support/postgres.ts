/**
 * A throwaway PostgreSQL per test file (tools/postgres-test-cluster.mjs: Debian's server in a temporary
 * folder, on a port of its own). When Debian's binaries are missing the tests fail in CI (CI=true:
 * .ci/run installs postgresql) and are skipped locally, with a loud message.
 */
import { afterAll, beforeAll } from "vitest";
import { postgresBinDir, startTestCluster, type TestCluster } from "../../tools/postgres-test-cluster.mjs";

export const POSTGRES_BIN = postgresBinDir();
export const SKIP_POSTGRES = !POSTGRES_BIN && !process.env.CI;
if (SKIP_POSTGRES) {
  console.warn(`\n*** PostgreSQL tests SKIPPED: no /usr/lib/postgresql/<version>/bin/initdb. Install Debian's server (apt-get install postgresql). In CI they fail instead. ***\n`);
}

/**
 * A cluster for one test file: started before its tests, stopped (and its folder removed) after. Read
 * `.cluster` inside tests: `.cluster.url` is `postgres://USER:PASS@127.0.0.1:PORT/DB`.
 */
export function usePostgres(): { readonly cluster: TestCluster } {
  const ctx = {} as { cluster: TestCluster };
  beforeAll(async () => {
    if (SKIP_POSTGRES) return;
    ctx.cluster = await startTestCluster();
  }, 60_000);
  afterAll(async () => {
    await ctx.cluster?.stop();
  }, 30_000);
  return ctx;
}
