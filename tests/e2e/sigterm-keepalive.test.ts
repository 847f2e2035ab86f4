import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode } from '../support/spawn-node.js';

const tmp = mkdtempSync(join(tmpdir(), 'portico-sigterm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Outcome {
  ok: number;
  closing: number;
  refused: number;
  /** Resets of a request sent on a reused keep-alive socket: the defect a graceful drain must avoid. */
  resets: string[];
  /**
   * Resets of a brand-new connection made as the listener closed (the kernel resets what was still
   * in its accept backlog): no server can avoid these while a client keeps opening connections; a
   * load balancer stops sending first, which is what readiness answering `draining` is for.
   */
  backlog: number;
}

/** GETs `url` through a keep-alive agent until `until()`; counts answers, clean refusals and resets. */
async function hammer(url: string, agent: http.Agent, until: () => boolean, outcome: Outcome): Promise<void> {
  while (!until()) {
    await new Promise<void>((resolve) => {
      const req = http.get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          outcome.ok++;
          if (res.headers.connection === 'close') outcome.closing++;
          resolve();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // After the server stopped listening a new connection is refused: clean. A reset is not.
        if (error.code === 'ECONNREFUSED') outcome.refused++;
        else if (!req.reusedSocket) outcome.backlog++;
        else outcome.resets.push(error.code ?? error.message);
        resolve();
      });
    });
    if (outcome.refused > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SIGTERM under load', () => {
  it('keep-alive clients get their answers with Connection: close, then clean closes: no reset', async () => {
    const { child, match } = await startNode(['dist/examples/reference/main.js', '--port', '0', '--db', `sqlite:${join(tmp, 'ref.db')}`], /home: +(http:\/\/[\d.]+:\d+)\//);
    const base = match[1] as string;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const outcome: Outcome = { ok: 0, closing: 0, refused: 0, resets: [], backlog: 0 };
    let exited = false;
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => ((exited = true), resolve(code))));
    const loops = Array.from({ length: 4 }, () => hammer(`${base}/api/author/1`, agent, () => exited, outcome));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = outcome.ok;
    child.kill('SIGTERM');
    const code = await exit;
    await Promise.all(loops);
    agent.destroy();
    expect(code).toBe(0);
    expect(before).toBeGreaterThan(0);
    expect(outcome.closing).toBeGreaterThan(0); // answers during the drain said Connection: close
    expect(outcome.resets).toEqual([]);
  });
});
