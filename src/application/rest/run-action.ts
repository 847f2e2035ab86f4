import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import { validateAgainstSchema } from '../../domain/rest/action-schema.js';
import { presentRow } from '../../domain/rest/field-policy.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { ActionDef, ActionResult } from './resource-config.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface ActionCall {
  readonly identity: Identity;
  readonly id?: Value;
  readonly body: unknown;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly parent?: ParentScope;
}

/**
 * Runs a custom action (SPEC "Custom actions and their schemas"): the permission check (the
 * action's own class, else the resource's; safe methods count as reads), the input schema
 * check before the handler (400 naming every offending field), the scoped row for a Detail
 * action (404 outside the caller's or parent's scope), then the handler.
 */
export class RunAction {
  constructor(private readonly store: RecordStore) {}

  async execute(resource: RestResource, action: ActionDef, call: ActionCall): Promise<ActionResult> {
    const permission = action.permission ?? resource.permission;
    authorize({ ...resource, permission }, call.identity, SAFE.has(action.method) ? 'read' : action.scope === 'Detail' ? 'change' : 'add');
    if (action.input) {
      const problems = validateAgainstSchema(action.input, call.body);
      if (problems.length > 0) {
        throw new DomainError('invalid_input', problems.map((p) => `${p.field} ${p.message}`).join('; '), problems);
      }
    }
    const row = action.scope === 'Detail' && call.id !== undefined ? await findScoped(this.store, resource, call.identity, call.id, call.parent) : undefined;
    return action.handler(
      { identity: call.identity, body: call.body, query: call.query, ...(row ? { row } : {}) },
      { store: this.store, present: (r) => presentRow(resource.model, r, resource.policy, resource.config) },
    );
  }
}
