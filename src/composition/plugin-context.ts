import type { Container } from 'inversify';
import type { Plugin, PluginContext } from './plugin.js';
import { TOKENS, type Token } from './tokens.js';
import { bindFactory, bindValue, resolve, resolveOptional } from './typed-container.js';

/** What the app collects from its plugins while they install (routes, middleware, checks, …). */
export type BootHooks = Pick<
  PluginContext,
  'route' | 'middleware' | 'addHealthCheck' | 'healthChecks' | 'advertise' | 'endpoints' | 'authenticate' | 'onListen' | 'onUpgrade' | 'identify' | 'watchCaller' | 'isDraining' | 'onClose'
>;

/**
 * The context `plugin` installs with: the app's hooks, the common ports, and typed access to the
 * container. Errors name the plugin, so a missing or doubled binding says who asked for it.
 */
export function createPluginContext(container: Container, plugin: Plugin, hooks: BootHooks): PluginContext {
  const get = <T>(token: Token<T>): T => {
    if (!container.isBound(token)) {
      throw new Error(`${plugin.name}: nothing is bound to ${String(token.description)}; mount the plugin that binds it before this one`);
    }
    return resolve(container, token);
  };
  const unbound = (token: symbol): void => {
    if (container.isBound(token)) throw new Error(`${plugin.name}: ${String(token.description)} is already bound (is a plugin mounted twice?)`);
  };
  const settings = get(TOKENS.Settings);
  return {
    ...hooks,
    registry: get(TOKENS.Registry),
    store: get(TOKENS.Store),
    events: get(TOKENS.Events),
    clock: get(TOKENS.Clock),
    random: get(TOKENS.Random),
    hasher: get(TOKENS.Hasher),
    logger: get(TOKENS.Logger),
    migrations: get(TOKENS.Migrations),
    mailer: get(TOKENS.Mailer),
    templates: get(TOKENS.MailTemplates),
    throttleStore: get(TOKENS.ThrottleStore),
    secret: settings.secret,
    production: settings.production,
    bodyLimit: settings.bodyLimit,
    trustedOrigins: settings.trustedOrigins,
    get,
    getOptional: (token) => resolveOptional(container, token),
    tasks: () => {
      const tasks = resolveOptional(container, TOKENS.Tasks);
      if (!tasks) throw new Error(`${plugin.name}: the task queue needs the tasks() plugin mounted`);
      return tasks;
    },
    bind: (token, value) => {
      unbound(token);
      bindValue(container, token, value);
    },
    bindFactory: (token, build) => {
      unbound(token);
      bindFactory(container, token, build);
    },
  };
}
