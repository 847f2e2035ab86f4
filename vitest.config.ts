import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql instance: graphql-http (CommonJS) requires graphql's CommonJS entry, so Portico's
  // own imports must resolve to it too (vite would otherwise pick the ESM build: "another realm").
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'property', include: ['tests/property/**/*.test.ts'] } },
      { extends: true, test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], env: { LOG_LEVEL: 'silent' }, testTimeout: 20_000, hookTimeout: 30_000 } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/build-dist.ts'],
          setupFiles: ['tests/support/conformance-setup.ts'],
          env: { LOG_LEVEL: 'silent' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
