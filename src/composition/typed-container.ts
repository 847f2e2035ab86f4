import type { BindInWhenOnFluentSyntax, Container, ResolutionContext } from 'inversify';
import type { Resolve, Token } from './tokens.js';

/**
 * Typed access to the Inversify container. Inversify types a symbol identifier as any
 * service, so these helpers take a `Token<T>` on both sides: what is bound to a token and what
 * resolving it returns have the same type, checked by the compiler.
 */

/** Resolves a token asynchronously (a service whose factory, or a dependency's, is asynchronous). */
export type ResolveAsync = <T>(token: Token<T>) => Promise<T>;

/** The service bound to `token`; throws when nothing is. */
export function resolve<T>(from: Container | ResolutionContext, token: Token<T>): T {
  return from.get<T>(token);
}

/** The service bound to `token`, or undefined when nothing is bound to it. */
export function resolveOptional<T>(from: Container | ResolutionContext, token: Token<T>): T | undefined {
  return from.get<T>(token, { optional: true });
}

/** The service bound to `token`, waiting for asynchronous factories. */
export function resolveAsync<T>(from: Container | ResolutionContext, token: Token<T>): Promise<T> {
  return from.getAsync<T>(token);
}

/** Binds a value to `token`. */
export function bindValue<T>(container: Container, token: Token<T>, value: NoInfer<T>): void {
  container.bind<T>(token).toConstantValue(value);
}

/** Binds `token` to a factory run once, on its first resolution, with a typed resolver for its dependencies. */
export function bindFactory<T>(container: Container, token: Token<T>, build: (get: Resolve) => NoInfer<T>): BindInWhenOnFluentSyntax<T> {
  return container.bind<T>(token).toDynamicValue((context) => build((dependency) => resolve(context, dependency)));
}

/** Like `bindFactory` for a factory that awaits (opening a database, connecting to Redis). */
export function bindAsyncFactory<T>(container: Container, token: Token<T>, build: (get: ResolveAsync) => Promise<NoInfer<T>>): BindInWhenOnFluentSyntax<T> {
  return container.bind<T>(token).toDynamicValue((context) => build((dependency) => resolveAsync(context, dependency)));
}
