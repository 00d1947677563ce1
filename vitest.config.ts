import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each test file builds its own app and tenants, so files run in parallel safely.
    pool: "threads",
    testTimeout: 20_000,
  },
});
