import { describe, expect, it } from 'vitest';
import { missingPackages } from '../../../src/adapters/http-koa/static-assets.js';

describe('missingPackages', () => {
  it('names the packages that are not installed, and only those', () => {
    expect(missingPackages(['graphiql', 'react', 'portico-no-such-package', 'swagger-ui-dist'])).toEqual(['portico-no-such-package']);
    expect(missingPackages([])).toEqual([]);
  });
});
