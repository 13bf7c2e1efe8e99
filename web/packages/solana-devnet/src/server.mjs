#!/usr/bin/env node
// latch-solana-devnet: latchd dev's local Solana network. A LiteSVM (the
// Solana VM from the `litesvm` package) behind a Solana JSON-RPC server on
// HTTP and, on the same port, its WebSocket subscriptions (slotSubscribe,
// signatureSubscribe and their unsubscribes).
//
// Usage: node src/server.mjs [--host 127.0.0.1] [--port 0] [--journal FILE]
//        [--mnemonic "..."] [--accounts 10] [--exit-on-stdin-close]
//
// Once it listens it prints one JSON line on stdout:
// {"ready":true,"rpcUrl":…,"wsUrl":…,"genesisHash":…,"caipNetworkId":…,
//  "accounts":[…],"usdcMint":…,"usdcDecimals":6,"replayed":N}
// and logs nothing else there. Errors go to stderr, with exit status 1.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import { GENESIS, Ledger } from './ledger.mjs';
import { TEST_MNEMONIC } from './keys.mjs';
import { handle } from './rpc.mjs';

const MAX_BODY = 2 << 20;
const MAX_BATCH = 1000;

/** start boots the ledger and the server; it resolves once the server listens. */
export async function start(opts) {
  const ledger = new Ledger({ mnemonic: opts.mnemonic ?? TEST_MNEMONIC, accounts: opts.accounts ?? 10, journal: opts.journal });
  await ledger.start();
  const server = createServer((req, res) => serveHTTP(ledger, req, res));
  const wss = new WebSocketServer({ server, maxPayload: 64 << 10 });
  wss.on('connection', (ws) => serveSocket(ledger, ws));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address();
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    ledger,
    server,
    info: {
      ready: true,
      rpcUrl: `http://${host}:${port}`,
      wsUrl: `ws://${host}:${port}`,
      genesisHash: ledger.genesisHash,
      caipNetworkId: `solana:${ledger.genesisHash.slice(0, 32)}`,
      accounts: ledger.accounts.map((a) => a.address),
      usdcMint: ledger.usdcMint.address,
      usdcDecimals: GENESIS.usdc.decimals,
      replayed: ledger.replayed,
    },
    close: () => new Promise((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function serveHTTP(ledger, req, res) {
  // A page on any local port may call the dev network (wallets and @solana/kit in the demo).
  const origin = req.headers.origin;
  if (origin && /^(https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?|chrome-extension:\/\/.*|moz-extension:\/\/.*)$/.test(origin)) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Headers', 'content-type, solana-client');
    res.setHeader('Vary', 'Origin');
  }
  if (req.method === 'OPTIONS') return reply(res, 204, null);
  if (req.method === 'GET' && req.url === '/health') return reply(res, 200, 'ok', 'text/plain');
  if (req.method !== 'POST') return reply(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'The Solana RPC takes POST requests' } });
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > MAX_BODY) {
      reply(res, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body is larger than ${MAX_BODY} bytes` } });
      req.destroy();
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (res.headersSent) return;
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return reply(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH) return reply(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: a batch holds 1 to 1000 requests' } });
      return reply(res, 200, body.map((r) => handle(ledger, r)));
    }
    reply(res, 200, handle(ledger, body));
  });
}

function reply(res, status, body, type = 'application/json') {
  if (body === null) {
    res.writeHead(status);
    return res.end();
  }
  const data = type === 'application/json' ? JSON.stringify(body) : String(body);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

/** serveSocket answers the subscription methods of one WebSocket, and the HTTP methods too. */
function serveSocket(ledger, ws) {
  let nextId = 1;
  const slotSubs = new Set();
  const sigSubs = new Map(); // id → signature
  const send = (msg) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(msg));
  const notifySignature = (id, record) => {
    send({ jsonrpc: '2.0', method: 'signatureNotification', params: { result: { context: { slot: record.slot }, value: { err: record.meta.err } }, subscription: id } });
    sigSubs.delete(id); // a signature subscription ends with its notification
  };
  const listener = (ev) => {
    if (ev.type === 'slot') {
      const slot = Number(ev.slot);
      for (const id of slotSubs) send({ jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: slot - 1, root: slot, slot }, subscription: id } });
    } else if (ev.type === 'transaction') {
      for (const [id, sig] of sigSubs) if (sig === ev.record.signature) notifySignature(id, ev.record);
    }
  };
  ledger.listeners.add(listener);
  ws.on('close', () => ledger.listeners.delete(listener));
  ws.on('message', (data) => {
    let req;
    try {
      req = JSON.parse(data.toString());
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const id = req && typeof req === 'object' ? req.id ?? null : null;
    const params = Array.isArray(req?.params) ? req.params : [];
    switch (req?.method) {
      case 'slotSubscribe': {
        const sub = nextId++;
        slotSubs.add(sub);
        return send({ jsonrpc: '2.0', id, result: sub });
      }
      case 'slotUnsubscribe':
        return send({ jsonrpc: '2.0', id, result: slotSubs.delete(params[0]) });
      case 'signatureSubscribe': {
        if (typeof params[0] !== 'string') return send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: expected a signature' } });
        const sub = nextId++;
        sigSubs.set(sub, params[0]);
        send({ jsonrpc: '2.0', id, result: sub });
        const done = ledger.records.get(params[0]);
        if (done) notifySignature(sub, done);
        return;
      }
      case 'signatureUnsubscribe':
        return send({ jsonrpc: '2.0', id, result: sigSubs.delete(params[0]) });
      default:
        return send(handle(ledger, req));
    }
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      journal: { type: 'string' },
      mnemonic: { type: 'string' },
      accounts: { type: 'string', default: '10' },
      'exit-on-stdin-close': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  const accounts = Number(values.accounts);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port} is not a port number`);
  if (!Number.isInteger(accounts) || accounts < 1 || accounts > 100) throw new Error(`--accounts ${values.accounts} must be 1 to 100`);
  const s = await start({ host: values.host, port, journal: values.journal, mnemonic: values.mnemonic, accounts });
  process.stdout.write(JSON.stringify(s.info) + '\n');
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (values['exit-on-stdin-close']) {
    // latchd holds our stdin: when it goes away, so do we.
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/server.mjs')) {
  main().catch((e) => {
    process.stderr.write(`latch-solana-devnet: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
