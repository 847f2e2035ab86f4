import { describe, expect, it } from 'vitest';
import { underPrefix } from '../../../src/adapters/http-koa/csrf-middleware.js';

describe('csrfExempt prefixes match whole path segments', () => {
  it.each([
    ['/graphql', '/graphql', true],
    ['/graphql/sse', '/graphql', true],
    ['/graphql/', '/graphql/', true],
    ['/graphqlx', '/graphql', false],
    ['/graph', '/graphql', false],
    ['/api/graphql', '/graphql', false],
  ])('%s under %s: %s', (path, prefix, expected) => {
    expect(underPrefix(path, prefix)).toBe(expected);
  });
});
