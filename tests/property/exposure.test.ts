import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST, isExposed, type ExposureConfig } from '../../src/domain/rest/exposure.js';

const TABLES = ['author', 'post', 'comment', 'auth_user', 'session', 'fw_migrations', 'member', 'secret_config', 'task_row'];
const subset = fc.subarray(TABLES);
const config = fc.record({ includeOnly: fc.option(subset, { nil: undefined }), expose: subset, exclude: subset });
const toConfig = (c: { includeOnly: string[] | undefined; expose: string[]; exclude: string[] }): ExposureConfig => ({
  expose: new Set(c.expose),
  exclude: new Set(c.exclude),
  ...(c.includeOnly ? { includeOnly: new Set(c.includeOnly) } : {}),
});
const served = (c: ExposureConfig) => TABLES.filter((t) => isExposed(t, c));

describe('exposure decision (SPEC "Exposure controls")', () => {
  it('adding an exclude never widens exposure', () => {
    fc.assert(
      fc.property(config, fc.constantFrom(...TABLES), (c, extra) => {
        const before = served(toConfig(c));
        const after = served(toConfig({ ...c, exclude: [...c.exclude, extra] }));
        expect(after.every((t) => before.includes(t))).toBe(true);
        expect(after).not.toContain(extra);
      }),
    );
  });

  it('include_only is exclusive: nothing outside it is served', () => {
    fc.assert(
      fc.property(config, (c) => {
        if (!c.includeOnly) return;
        for (const t of served(toConfig(c))) expect(c.includeOnly).toContain(t);
      }),
    );
  });

  it('a default-blocked table is served only when exposed and not excluded; an entry in both stays blocked', () => {
    fc.assert(
      fc.property(config, (c) => {
        for (const t of served(toConfig(c))) {
          if (DEFAULT_BLOCKLIST.has(t)) expect(c.expose.includes(t) && !c.exclude.includes(t)).toBe(true);
        }
      }),
    );
    expect(isExposed('auth_user', toConfig({ includeOnly: undefined, expose: ['auth_user'], exclude: ['auth_user'] }))).toBe(false);
    expect(isExposed('auth_user', toConfig({ includeOnly: ['author', 'post'], expose: ['auth_user'], exclude: ['auth_user'] }))).toBe(false);
    expect(isExposed('member', toConfig({ includeOnly: undefined, expose: [], exclude: [] }))).toBe(true);
  });
});
