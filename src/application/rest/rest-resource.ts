import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import { fieldPolicy, type FieldPolicy } from '../../domain/rest/field-policy.js';
import { ReadOnly } from '../../domain/rest/permission-classes.js';
import type { CrudAction, ParentScope, PermissionAction, PermissionClass } from '../../domain/rest/resource-config.js';
import type { ResourceConfig } from './resource-config.js';
import { servedActions } from '../../domain/rest/view-scope.js';

/** A served table with everything the use cases need, resolved once at boot. */
export interface RestResource {
  readonly model: ModelDef;
  readonly config: ResourceConfig;
  readonly policy: FieldPolicy;
  readonly permission: PermissionClass;
  readonly actions: ReadonlySet<CrudAction>;
}

/**
 * Resolves a table's configuration (ReadOnly and every action by default). Each file column is
 * answered through `presentFile` (its name, size, type and signed link; never its key) unless
 * the configuration transforms it itself.
 */
export function restResource(model: ModelDef, config: ResourceConfig | undefined, presentFile?: (value: Value) => Value): RestResource {
  const files = model.columns.filter((c) => c.file && !config?.transform?.[c.name]);
  const given = config ?? { table: model.table };
  const cfg: ResourceConfig = files.length > 0 && presentFile ? { ...given, transform: { ...given.transform, ...Object.fromEntries(files.map((c) => [c.name, presentFile])) } } : given;
  return {
    model,
    config: cfg,
    policy: fieldPolicy(model, config),
    permission: cfg.permission ?? ReadOnly,
    actions: servedActions(cfg.views),
  };
}

/** Applies the permission class: 401 for a missing identity, 403 for a refused one. */
export function authorize(resource: RestResource, identity: Identity, action: PermissionAction): void {
  const decision = resource.permission.decide(identity, action);
  if (decision === 'unauthenticated') throw new DomainError('not_authenticated', 'authentication required');
  if (decision === 'forbidden') throw new DomainError('forbidden', 'you may not do this');
}

/**
 * The row filter of the caller (SPEC "Parent-scoped sub-resources" 6: combined with AND): the
 * parent, and the model's row policy (`ownedBy`, `scope`; a resource's are sugar for it).
 */
export function scopeOf(resource: RestResource, identity: Identity, parent?: ParentScope): Condition | undefined {
  return and(parent ? { column: parent.column, op: 'eq', value: parent.value } : undefined, rowScope(resource.model.rowPolicy, identity));
}

/** ANDs conditions, dropping the undefined ones. */
export function and(...conditions: (Condition | undefined)[]): Condition | undefined {
  const parts = conditions.filter((c): c is Condition => c !== undefined);
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { all: parts };
}
