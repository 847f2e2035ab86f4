import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problemHeaders, STATUS_BY_CODE, toProblem } from '../../../src/adapters/http-koa/problem-mapping.js';
import { UnsupportedContentEncoding } from '../../../src/adapters/http-koa/read-body.js';
import { ERROR_CODES } from '../../../src/domain/errors/codes.js';
import { ConstraintViolation, DomainError } from '../../../src/domain/errors/domain-error.js';

describe('problem mapping (the one place REST maps error codes)', () => {
  it('maps every error code to a status', () => {
    for (const code of ERROR_CODES) expect(STATUS_BY_CODE[code], code).toBeGreaterThanOrEqual(400);
  });

  it('documents every error code in docs/errors.md', () => {
    const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    for (const code of ERROR_CODES) expect(doc, code).toContain(`\`${code}\``);
  });

  it('keeps a domain error code, detail and field errors', () => {
    const problem = toProblem(new ConstraintViolation('unique', 'author', 'email'));
    expect(problem).toEqual({
      type: 'urn:portico:error:unique_violation',
      title: 'Bad Request',
      status: 400,
      detail: 'author.email: a row with this value already exists',
      code: 'unique_violation',
      errors: [{ field: 'email', message: 'a row with this value already exists' }],
    });
  });

  it('sends the headers a domain error names, never the properties of any other error', () => {
    const coding = new UnsupportedContentEncoding('gzip');
    expect(problemHeaders(toProblem(coding), coding)).toEqual({ 'Accept-Encoding': 'identity' });
    const foreign = Object.assign(new Error('upstream failed'), { headers: { 'Set-Cookie': 'upstream=1' } });
    expect(problemHeaders(toProblem(foreign), foreign)).toEqual({});
    // The status's own headers win over what an error names.
    const unauthenticated = Object.assign(new DomainError('not_authenticated', 'no'), { headers: { 'WWW-Authenticate': 'Basic' } });
    expect(problemHeaders(toProblem(unauthenticated), unauthenticated)).toEqual({ 'WWW-Authenticate': 'Bearer realm="portico"' });
  });

  it('answers 500 with a generic body for anything unexpected', () => {
    const problem = toProblem(new Error('SQLITE_ERROR: no such table: secret_stuff'));
    expect(problem.status).toBe(500);
    expect(JSON.stringify(problem)).not.toMatch(/SQLITE|secret_stuff/);
  });

  it('keeps the status of HTTP errors raised by Koa or the router', () => {
    expect(toProblem(Object.assign(new Error('x'), { status: 405, expose: true }))).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(toProblem(new DomainError('payload_too_large', 'too big'))).toMatchObject({ status: 413 });
  });
});
