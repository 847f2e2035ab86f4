// The hand-written side of the burst bench: an http server with a `ws` WebSocketServer, no
// framework. Subscribers send {"type":"subscribe","channel":"news"} and get {"type":"subscribed"};
// POST /bench/burst?n= sends n event frames to each, in one loop. Answers its peak RSS at /bench/peak.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const clients = new Set<WebSocket>();
const peakRss = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method === 'POST' && url.pathname === '/bench/burst') {
    const n = Number(url.searchParams.get('n') ?? 10_000);
    for (let i = 0; i < n; i++) {
      const text = JSON.stringify({ type: 'event', channel: 'news', id: `raw-${i}`, data: { id: i, t: -1 } });
      for (const ws of clients) ws.send(text);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n }));
  } else if (url.pathname === '/bench/peak') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ peakRss: peakRss() }));
  } else res.writeHead(404).end();
});
const wss = new WebSocketServer({ server, path: '/realtime/ws' });
wss.on('connection', (ws) => {
  ws.on('message', () => {
    clients.add(ws);
    ws.send(JSON.stringify({ type: 'subscribed', channel: 'news' }));
  });
  ws.on('close', () => clients.delete(ws));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
