import type { PluginContext } from '../plugin.js';

/**
 * The origin written into links that leave the app (mailed links, provider callbacks):
 * `publicUrl`, else the address the app listens on (a warning in production, where a proxy
 * usually stands in front). Never a request's `Host` or `X-Forwarded-Host`.
 */
export function publicOrigin(ctx: PluginContext, publicUrl: string | undefined, plugin: string): () => string {
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(publicUrl)) throw new Error(`${plugin}: publicUrl is an origin such as https://example.com (no path), got ${JSON.stringify(publicUrl)}`);
  if (publicUrl === undefined && ctx.production) ctx.logger.warn({}, `${plugin}: no publicUrl: links out of the app use the address it listens on; set ${plugin}({ publicUrl }) to the origin users reach`);
  let listening: string | undefined;
  ctx.onListen((server) => {
    const address = server.address();
    if (address && typeof address === 'object') listening = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  });
  return () => {
    const origin = publicUrl ?? listening;
    if (!origin) throw new Error(`${plugin}: a link out of the app needs ${plugin}({ publicUrl }) when the app does not listen`);
    return origin;
  };
}
