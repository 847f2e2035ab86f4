import type { IncomingMessage } from 'node:http';
import { DomainError } from '../../../domain/errors/domain-error.js';

/** A refused WebSocket handshake, with the headers RFC 6455 asks the refusal to carry. */
export class HandshakeRefused extends DomainError {
  override readonly name = 'HandshakeRefused';
  constructor(
    code: 'invalid_input' | 'method_not_allowed',
    detail: string,
    /** Sent with the problem document (`Allow`, `Sec-WebSocket-Version`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(code, detail);
  }
}

/** RFC 6455 §4.1: the key is 16 random bytes in base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;

/** Whether the request's `Upgrade` header names WebSocket (a list of protocols, any case; RFC 9110 §7.8). */
export function asksForWebSocket(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return upgrade !== undefined && upgrade.split(',').some((protocol) => protocol.trim().toLowerCase() === 'websocket');
}

/**
 * Why the opening handshake of a request that asks for WebSocket cannot be accepted (RFC 6455
 * §4.2.1), or undefined. ws checks the same and would answer in `text/html`; checked here first,
 * the refusal is the app's problem document, and comes before any work to identify the caller.
 */
export function malformedHandshake(req: IncomingMessage): HandshakeRefused | undefined {
  if (req.method !== 'GET') return new HandshakeRefused('method_not_allowed', `a WebSocket handshake is a GET request, not ${req.method ?? 'none'}`, { Allow: 'GET' });
  if (req.headers.upgrade?.trim().toLowerCase() !== 'websocket') return new HandshakeRefused('invalid_input', 'the Upgrade header must be exactly "websocket"');
  const key = req.headers['sec-websocket-key'];
  if (key === undefined || !KEY.test(key)) return new HandshakeRefused('invalid_input', 'missing or invalid Sec-WebSocket-Key header (16 bytes in base64)');
  // ws speaks version 13 (RFC 6455) and the draft's 8.
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    return new HandshakeRefused('invalid_input', 'missing or unsupported Sec-WebSocket-Version header (this server speaks 13)', { 'Sec-WebSocket-Version': '13' });
  }
  return undefined;
}
