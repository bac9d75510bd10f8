/**
 * The baseline: bare Express routes answering fixed bodies. argv[2] is the file of the JSON body
 * (GET /bare), argv[3] the file of its gzip form (GET /bare-gzip, Content-Encoding: gzip).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const body = readFileSync(process.argv[2]);
const gzipped = readFileSync(process.argv[3]);
const app = express();
app.get('/bare', (_req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(body);
});
app.get('/bare-gzip', (_req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Encoding', 'gzip');
  res.end(gzipped);
});
const server = app.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
// Its CPU time, asked for around each run (bench/api.ts: the CPU a request costs, whatever else the machine runs).
process.on('message', (m: { cmd: string }) => {
  if (m.cmd !== 'stats') return;
  const cpu = process.cpuUsage();
  process.send!({ stats: { cpuUs: cpu.user + cpu.system } });
});
