import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../support/reference-server.js';

describe('OpenAPI: bulk operations and parent-scoped paths', () => {
  let ref: RunningReference;
  let doc: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    doc = (await (await fetch(`${ref.url}/api/openapi.json`)).json()) as typeof doc;
  });
  afterAll(async () => ref.close());

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.valid).toBe(true);
  });

  it('documents milestone only under its parent, with bulk verbs', () => {
    expect(doc.paths['/api/milestone/']).toBeUndefined();
    const coll = doc.paths['/api/project/{parent_id}/milestone/'] ?? {};
    expect(Object.keys(coll).filter((k) => k !== 'parameters').sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(doc.paths['/api/project/{parent_id}/milestone/{id}']).toBeDefined();
  });

  it('documents bulk PATCH/DELETE only where bulk() is on', () => {
    expect(Object.keys(doc.paths['/api/tag/'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(doc.paths['/api/author/'] ?? {}).sort()).toEqual(['get', 'post']);
  });
});
