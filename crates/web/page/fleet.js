// The fleet view: the table of /api/fleet, a pool's history as a chart of measured over
// predicted per workload (/api/fleet/history), a bench's detail (/api/fleet/bench).
"use strict";

const $ = (id) => document.getElementById(id);
let offset = 0;

// A cell of `row` holding `text`, labelled with its column's heading (a phone shows the label
// beside it, the rows stacked).
function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text;
  if (cls) td.className = cls;
  const head = row.closest("table").tHead.rows[0].cells[td.cellIndex];
  if (head) td.dataset.label = head.textContent;
  return td;
}

// What a run was not predicted for: said as such, never a number.
const NONE = "none";

// `value` with `decimals` places, or NONE where there is no such figure (a run without a
// prediction has no predicted figure and no ratio).
function fixed(value, decimals) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(decimals) : NONE;
}

function mb(bytes) {
  return fixed(bytes / 1e6, 1);
}

// A predicted figure: NONE where nothing was predicted (the store keeps 0 then).
function predicted(value, f) {
  return typeof value === "number" && value > 0 ? f(value) : NONE;
}

async function ask(path) {
  const answer = await fetch(path);
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.error || answer.statusText);
  return body;
}

function params(extra) {
  const p = new URLSearchParams(extra);
  for (const key of ["host", "pool"]) {
    if ($(key).value.trim()) p.set(key, $(key).value.trim());
  }
  return p.toString();
}

async function loadFleet(append) {
  if (!append) offset = 0;
  $("status").textContent = "Reading the store...";
  try {
    const page = await ask("/api/fleet?" + params({ offset: String(offset) }));
    const body = $("fleet").tBodies[0];
    if (!append) body.replaceChildren();
    for (const pool of page.pools) addPool(body, pool);
    const flagged = page.pools.filter((p) => p.flagged).length;
    const n = page.pools.length;
    $("status").textContent = `${n} pool${n === 1 ? "" : "s"} shown, ${flagged} flagged.`;
    $("more").hidden = !page.more;
    offset = page.offset + page.limit;
  } catch (e) {
    $("status").textContent = e.message;
  }
}

function addPool(body, pool) {
  pool.workloads.forEach((w, i) => {
    const row = body.insertRow();
    row.tabIndex = 0;
    cell(row, i ? "" : pool.host);
    cell(row, i ? "" : pool.pool);
    cell(row, i ? "" : pool.started);
    cell(row, w.workload);
    cell(row, mb(w.measured_bytes_per_s), "num");
    cell(row, predicted(w.predicted_bytes_per_s, mb), "num");
    cell(row, fixed(w.ratio, 2) + (w.short ? " !" : ""), "num");
    cell(row, w.bottleneck || "not predicted", "words");
    if (w.short) row.classList.add("short");
    const open = () => loadHistory(pool);
    row.addEventListener("click", open);
    row.addEventListener("keydown", (e) => e.key === "Enter" && open());
  });
}

async function loadHistory(pool) {
  const q = new URLSearchParams({ host: pool.host, machine_id: pool.machine_id, pool: pool.pool });
  try {
    const benches = await ask("/api/fleet/history?" + q);
    $("history").hidden = false;
    $("history-title").textContent = `${pool.host}: ${pool.pool}, ${benches.length} bench${benches.length === 1 ? "" : "es"}`;
    $("chart").replaceChildren(chart(benches));
    const list = $("benches");
    list.replaceChildren();
    for (const b of benches) {
      const item = document.createElement("li");
      const link = document.createElement("button");
      link.textContent = `bench ${b.bench_id}, ${b.started}${b.flagged ? " (flagged)" : ""}`;
      link.addEventListener("click", () => loadBench(b.bench_id));
      item.append(link);
      list.append(item);
    }
  } catch (e) {
    $("status").textContent = e.message;
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}

// Measured over predicted, a line per workload across the benches; 1 is the prediction.
function chart(benches) {
  const W = 640, H = 240, L = 40, B = 20;
  const names = [...new Set(benches.flatMap((b) => b.workloads.map((w) => w.workload)))];
  const ratios = benches.flatMap((b) => b.workloads.map((w) => (Number.isFinite(w.ratio) ? w.ratio : 0)));
  const top = Math.max(1.5, ...ratios);
  const x = (i) => L + (benches.length > 1 ? (i * (W - L - 10)) / (benches.length - 1) : (W - L) / 2);
  const y = (r) => H - B - (r / top) * (H - B - 10);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "measured over predicted per bench" });
  root.append(svg("line", { x1: L, x2: W, y1: y(1), y2: y(1), stroke: "#888", "stroke-dasharray": "4" }));
  root.append(svg("text", { x: 2, y: y(1) + 4, "font-size": 11 }, "1.0"));
  root.append(svg("text", { x: 2, y: y(top) + 10, "font-size": 11 }, top.toFixed(1)));
  names.forEach((name, k) => {
    const hue = (k * 137) % 360;
    const points = benches
      .map((b, i) => [i, b.workloads.find((w) => w.workload === name)])
      .filter(([, w]) => w && Number.isFinite(w.ratio))
      .map(([i, w]) => `${x(i)},${y(w.ratio)}`);
    root.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: `hsl(${hue} 60% 40%)`, "stroke-width": 2 }));
    root.append(svg("text", { x: L + 4, y: 14 + 13 * k, "font-size": 11, fill: `hsl(${hue} 60% 35%)` }, name));
  });
  return root;
}

async function loadBench(id) {
  try {
    const d = await ask("/api/fleet/bench?id=" + id);
    $("detail").hidden = false;
    $("detail-title").textContent = `bench ${id}: ${d.host} ${d.pool}, ${d.started}, zpoolsim ${d.zpoolsim_version}`;
    const w = $("workloads").tBodies[0];
    w.replaceChildren();
    for (const r of d.comparison.workloads) {
      const row = w.insertRow();
      const iops = (v) => fixed(v, 0);
      [[r.workload], [mb(r.measured_bytes_per_s), "num"], [predicted(r.predicted_bytes_per_s, mb), "num"],
        [predicted(r.predicted_bytes_per_s, () => fixed(r.ratio, 2)), "num"], [iops(r.measured_iops), "num"], [predicted(r.predicted_iops, iops), "num"],
        [r.bottleneck || "not predicted", "words"]].forEach(([t, cls]) => cell(row, t, cls));
    }
    const disks = $("disks").tBodies[0];
    disks.replaceChildren();
    for (const r of d.comparison.disks) {
      const row = disks.insertRow();
      const pair = (m, p, f) => `${f(m)}/${p === undefined || p === null ? NONE : f(p)}`;
      const pred = r.predicted || {};
      cell(row, r.workload);
      cell(row, r.device);
      cell(row, pair(r.measured.read_bytes_per_s, pred.read_bytes_per_s, mb), "num");
      cell(row, pair(r.measured.write_bytes_per_s, pred.write_bytes_per_s, mb), "num");
      const pct = (u) => fixed(100 * u, 0);
      cell(row, pair(r.measured.utilization, pred.utilization, pct), "num");
    }
    $("findings").replaceChildren(...d.comparison.findings.map((f) => {
      const li = document.createElement("li");
      li.textContent = f;
      return li;
    }));
  } catch (e) {
    $("status").textContent = e.message;
  }
}

$("filter").addEventListener("submit", (e) => {
  e.preventDefault();
  loadFleet(false);
});
$("more").addEventListener("click", () => loadFleet(true));
loadFleet(false);
