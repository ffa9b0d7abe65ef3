// Polls the endpoint and plots the memory walls moving (see docs/operability.md).
"use strict";

const POLL_MS = 1000;
const KEEP = 300;            // samples kept: five minutes at one a second
const MIB = 1024 * 1024;

const plots = {
  memory: new Plot(document.getElementById("memory")),
  cost: new Plot(document.getElementById("cost")),
  shares: new Plot(document.getElementById("shares"), { yMax: 1, format: (v) => (v * 100).toFixed(0) + "%" }),
  work: new Plot(document.getElementById("work")),
  throughput: new Plot(document.getElementById("throughput")),
};

const start = performance.now();
const xs = [];
const series = { wmCap: [], wmUsed: [], bc: [], cost: [], flushes: [], merges: [], ops: [] };
const shares = {};           // tree name -> values aligned with xs
let prev = null;             // previous sample: {t, ops, pagesRead, pagesWritten, flushes, merges}
let polls = 0;

function push(arr, v) {
  arr.push(v);
  if (arr.length > KEEP) arr.shift();
}

function sumPurposes(io, field) {
  let n = 0;
  for (const p of Object.keys(io)) n += io[p][field];
  return n;
}

async function getJson(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error(path + ": HTTP " + r.status);
  return r.json();
}

function sample(stats, tuner) {
  const t = (performance.now() - start) / 1000;
  const trees = stats.trees || {};
  let flushes = 0, merges = 0;
  for (const name of Object.keys(trees)) {
    flushes += trees[name].flushes;
    merges += trees[name].merges;
  }
  const now = {
    t,
    ops: stats.operations.pointReads + stats.operations.scans + stats.operations.recordWrites,
    pagesRead: sumPurposes(stats.io, "pagesRead"),
    pagesWritten: sumPurposes(stats.io, "pagesWritten"),
    flushes,
    merges,
  };
  push(xs, t);
  push(series.wmCap, stats.writeMemoryCapacity / MIB);
  push(series.wmUsed, stats.writeMemoryUsed / MIB);
  push(series.bc, stats.bufferCache.capacityBytes / MIB);
  if (prev && now.t > prev.t) {
    const dt = now.t - prev.t, dops = now.ops - prev.ops;
    const omega = tuner.omega, gamma = tuner.gamma;
    const io = omega * (now.pagesWritten - prev.pagesWritten) + gamma * (now.pagesRead - prev.pagesRead);
    push(series.cost, dops > 0 ? io / dops : null);
    push(series.flushes, (now.flushes - prev.flushes) / dt);
    push(series.merges, (now.merges - prev.merges) / dt);
    push(series.ops, dops / dt);
  } else {
    push(series.cost, null);
    push(series.flushes, null);
    push(series.merges, null);
    push(series.ops, null);
  }
  const memTrees = (stats.writeMemory && stats.writeMemory.trees) || {};
  for (const name of Object.keys(memTrees)) {
    if (!shares[name]) shares[name] = new Array(xs.length - 1).fill(null);
  }
  for (const name of Object.keys(shares)) {
    push(shares[name], memTrees[name] ? memTrees[name].memoryShare : null);
  }
  prev = now;
}

function render(tuner) {
  const drawn = [
    plots.memory.draw(xs, [
      { label: "write memory budget", values: series.wmCap },
      { label: "write memory used", values: series.wmUsed },
      { label: "buffer cache", values: series.bc },
    ]),
    plots.cost.draw(xs, [{ label: "cost/op (ω=" + tuner.omega + ", γ=" + tuner.gamma + ")", values: series.cost }]),
    plots.shares.draw(xs, Object.keys(shares).sort().map((n) => ({ label: n, values: shares[n] }))),
    plots.work.draw(xs, [
      { label: "flushes/s", values: series.flushes },
      { label: "merges/s", values: series.merges },
    ]),
    plots.throughput.draw(xs, [{ label: "ops/s", values: series.ops }]),
  ];
  document.body.dataset.points = String(drawn.reduce((a, b) => a + b, 0));
  document.body.dataset.plotsWithData = String(drawn.filter((n) => n > 0).length);
  const t = document.getElementById("tuner");
  t.textContent = (tuner.available ? "running" : "off") + ": " + tuner.note
      + " — " + tuner.history.length + " decisions";
}

function fmtBytes(b) {
  return b >= MIB ? (b / MIB).toFixed(1) + " MiB" : (b / 1024).toFixed(1) + " KiB";
}

function renderDatasets(layout) {
  const body = document.querySelector("#datasets tbody");
  body.textContent = "";
  for (const ds of layout.datasets) {
    for (const ix of ds.indexes) {
      const tr = ix.tree;
      const levels = tr.levels.map((l) => "L" + l.level + ":" + l.components.reduce((a, r) => a + r.length, 0)).join(" ");
      const row = document.createElement("tr");
      for (const text of [tr.name, fmtBytes(tr.memoryBytes), (tr.writeMemoryShare * 100).toFixed(1) + "%",
                          fmtBytes(tr.diskBytes), levels]) {
        const td = document.createElement("td");
        td.textContent = text;
        row.appendChild(td);
      }
      body.appendChild(row);
    }
  }
}

async function poll() {
  const status = document.getElementById("status");
  try {
    const [stats, tuner, layout] = await Promise.all([getJson("stats"), getJson("tuner"), getJson("datasets")]);
    sample(stats, tuner);
    render(tuner);
    renderDatasets(layout);
    polls++;
    document.body.dataset.polls = String(polls);
    status.textContent = "live · " + polls + " polls";
    status.className = "";
  } catch (e) {
    status.textContent = "endpoint unreachable: " + e.message;
    status.className = "down";
  }
}

poll();
setInterval(poll, POLL_MS);
