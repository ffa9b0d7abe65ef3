// A tiny line plotter on <canvas>, written for this page (no library, no build step).
// Plot(canvas, opts).draw(xs, series): xs are seconds, series is [{label, color, values}] with
// values aligned to xs (null = gap). The canvas gets data-points = number of non-null values drawn.
"use strict";

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

function Plot(canvas, opts) {
  this.canvas = canvas;
  this.ctx = canvas.getContext("2d");
  this.opts = Object.assign({ yMin: 0, yMax: null, format: fmtNumber }, opts || {});
}

function fmtNumber(v) {
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(1) + "G";
  if (a >= 1e6) return (v / 1e6).toFixed(1) + "M";
  if (a >= 1e4) return (v / 1e3).toFixed(0) + "k";
  if (a >= 100) return v.toFixed(0);
  if (a >= 1) return v.toFixed(1);
  if (a === 0) return "0";
  return v.toPrecision(2);
}

// A "nice" step (1, 2 or 5 times a power of ten) giving about `count` ticks over `span`.
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

Plot.prototype.draw = function (xs, series) {
  const c = this.ctx, W = this.canvas.width, H = this.canvas.height;
  const left = 48, right = 8, top = 8, bottom = 34;
  const pw = W - left - right, ph = H - top - bottom;
  c.clearRect(0, 0, W, H);
  c.font = "11px system-ui, sans-serif";

  let points = 0, lo = Infinity, hi = -Infinity;
  for (const s of series) {
    for (const v of s.values) {
      if (v === null || v === undefined || !isFinite(v)) continue;
      points++;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  this.canvas.dataset.points = String(points);
  if (points === 0 || xs.length === 0) {
    c.fillStyle = "#999";
    c.fillText("waiting for data…", left + 8, top + 16);
    return points;
  }
  if (this.opts.yMin !== null) lo = Math.min(lo, this.opts.yMin);
  if (this.opts.yMax !== null) hi = Math.max(hi, this.opts.yMax);
  if (hi === lo) hi = lo + 1;
  const x0 = xs[0], x1 = Math.max(xs[xs.length - 1], x0 + 1);
  const sx = (x) => left + ((x - x0) / (x1 - x0)) * pw;
  const sy = (y) => top + ph - ((y - lo) / (hi - lo)) * ph;

  // grid and y labels
  c.strokeStyle = "#eee";
  c.fillStyle = "#666";
  c.textAlign = "right";
  const ystep = niceStep(hi - lo, 4);
  for (let y = Math.ceil(lo / ystep) * ystep; y <= hi + 1e-12; y += ystep) {
    c.beginPath();
    c.moveTo(left, sy(y));
    c.lineTo(left + pw, sy(y));
    c.stroke();
    c.fillText(this.opts.format(y), left - 4, sy(y) + 4);
  }
  // x labels: seconds since the page started
  c.textAlign = "center";
  const xstep = niceStep(x1 - x0, 6);
  for (let x = Math.ceil(x0 / xstep) * xstep; x <= x1; x += xstep) {
    c.fillText(x.toFixed(0) + "s", sx(x), top + ph + 13);
  }
  c.strokeStyle = "#999";
  c.strokeRect(left, top, pw, ph);

  // lines
  series.forEach((s, i) => {
    c.strokeStyle = s.color || PALETTE[i % PALETTE.length];
    c.lineWidth = 1.5;
    c.beginPath();
    let pen = false;
    s.values.forEach((v, k) => {
      if (v === null || v === undefined || !isFinite(v)) { pen = false; return; }
      if (pen) c.lineTo(sx(xs[k]), sy(v)); else c.moveTo(sx(xs[k]), sy(v));
      pen = true;
    });
    c.stroke();
    if (s.values.filter((v) => v !== null && isFinite(v)).length === 1) {  // a lone point shows as a dot
      const k = s.values.findIndex((v) => v !== null && isFinite(v));
      c.fillStyle = c.strokeStyle;
      c.fillRect(sx(xs[k]) - 2, sy(s.values[k]) - 2, 4, 4);
    }
  });
  c.lineWidth = 1;

  // legend
  c.textAlign = "left";
  let lx = left;
  series.forEach((s, i) => {
    c.fillStyle = s.color || PALETTE[i % PALETTE.length];
    c.fillRect(lx, H - 12, 10, 3);
    c.fillStyle = "#333";
    c.fillText(s.label, lx + 14, H - 8);
    lx += 22 + c.measureText(s.label).width;
  });
  return points;
};
