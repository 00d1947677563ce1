import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each test file builds its own app and tenants, so files run in parallel safely.
    pool: "threads",
    // Both cores: most files wait on processes, sockets and browsers, and vitest's default on a
    // 2-core machine is one worker, which ran the suite file after file.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
