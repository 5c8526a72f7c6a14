// zpoolsim's page: reads the form, asks the server's API (the same answers as the command
// line's --json) and draws what comes back. It computes nothing of its own; the URL holds
// every input and the layout shown, so a link gives the same page.
"use strict";

const $ = (id) => document.getElementById(id);

// The form's plain fields, each the plan flag of the same name.
const FLAGS = ["disk", "disks", "price", "spares", "min_redundancy", "read", "write", "random",
  "workload", "fill", "years"];
// The needs, each a field of its own: [metric, comparison, unit on the need string].
const NEEDS = [["avail", ">=", "TB"], ["loss", "<=", "%"], ["read", ">=", "MB/s"],
  ["write", ">=", "MB/s"], ["iops", ">=", ""]];
// Monte Carlo missions of the detail's reliability: a tight interval, a fraction of a second.
const TRIALS = 100000;
// The chart's colours by P(data loss), as the command line's --plot bands them.
const BANDS = [["P(data loss) <= 0.01%", 1e-4, "#2a7d3f"], ["P(data loss) <= 1%", 1e-2, "#c98a00"],
  ["P(data loss) > 1%", Infinity, "#b3261e"], ["P(data loss) unknown", NaN, "#777"]];

let plan = null;        // the last /api/plan answer
let selected = null;    // the index of the layout shown in detail
let systemText = "";    // the system file of that layout

// ---- small helpers ----------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "circle", "line", "text", "g", "rect", "path"].includes(tag);
  const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k === "on") Object.entries(v).forEach(([ev, f]) => e.addEventListener(ev, f));
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  children.flat().forEach((c) => e.append(c));
  return e;
}

const tb = (bytes) => (bytes / 1e12).toFixed(1) + " TB";
// Any size, in the largest decimal unit it fills (the breakdown's small lines).
function size(bytes) {
  const units = [[1e12, "TB"], [1e9, "GB"], [1e6, "MB"], [1e3, "kB"]];
  const [scale, unit] = units.find(([s]) => bytes >= s) || [1, "B"];
  return (bytes / scale).toFixed(1) + " " + unit;
}
const mbs = (bps) => (bps / 1e6).toFixed(1) + " MB/s";
const hours = (h) => h.toFixed(1) + " h";
function probability(p) {
  if (p === null || p === undefined) return "unknown";
  if (p === 0) return "0";
  const pct = p * 100;
  return (pct >= 0.01 ? pct.toPrecision(2) : pct.toExponential(1)) + "%";
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(JSON.parse(text).error);
  return response.headers.get("Content-Type").startsWith("application/json")
    ? JSON.parse(text) : text;
}

function status(s) { document.body.dataset.status = s; }

function fail(error) {
  $("error").textContent = error.message;
  $("error").hidden = false;
  status("error");
}

// ---- the inputs: form <-> request <-> URL -----------------------------------------------

function needString() {
  return NEEDS.map(([m, cmp, unit]) => [m, cmp, unit, $("need-" + m).value.trim()])
    .filter((n) => n[3] !== "")
    .map(([m, cmp, unit, v]) => `${m}${cmp}${v}${unit}`).join(",");
}

function usesFile() { return $("host-file").checked; }

// The plan request the form describes: keys are `zpoolsim plan` flags.
function planRequest() {
  const r = {};
  for (const f of FLAGS) {
    const v = $(f).value.trim();
    if (v !== "") r[f] = $(f).type === "number" ? Number(v) : v;
  }
  if (r.workload !== undefined) r.workload = [r.workload];
  const need = needString();
  if (need) r.need = need;
  if (usesFile()) r.system = $("system").value;
  return r;
}

function writeUrl() {
  const q = new URLSearchParams();
  for (const f of FLAGS) if ($(f).value.trim() !== "") q.set(f, $(f).value.trim());
  const need = needString();
  if (need) q.set("need", need);
  if (usesFile()) q.set("system", $("system").value);
  if ($("all").checked) q.set("all", "1");
  if (plan && selected !== null) q.set("layout", plan.evaluations[selected].layout);
  history.replaceState(null, "", "?" + q.toString());
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  for (const f of FLAGS) if (q.has(f)) $(f).value = q.get(f);
  for (const part of (q.get("need") || "").split(",")) {
    const m = part.trim().match(/^(\w+)\s*(>=|<=)\s*([\d.]+)/);
    if (m && $("need-" + m[1])) $("need-" + m[1]).value = m[3];
  }
  if (q.has("system")) {
    $("host-file").checked = true;
    $("system").value = q.get("system");
  }
  showHost();
  $("all").checked = q.get("all") === "1";
  return q;
}

function showHost() { $("host-parts").hidden = !usesFile(); }

// ---- the plan: summary, chart, table ----------------------------------------------------

async function runPlan(wanted) {
  $("error").hidden = true;
  status("planning");
  try {
    plan = await api("/api/plan", planRequest());
  } catch (e) {
    plan = null;
    $("results").hidden = true;
    return fail(e);
  }
  $("results").hidden = false;
  const index = plan.evaluations.findIndex((e) => e.layout === wanted);
  drawPlan();
  await select(index >= 0 ? index : plan.recommendation.index);
}

function shown(i) {
  return $("all").checked || plan.on_front[i] || i === plan.recommendation.index;
}

function drawPlan() {
  const front = plan.on_front.filter(Boolean).length;
  $("summary").textContent = `${plan.disks} x ${plan.disk} on ${plan.system}: `
    + `${plan.considered} layouts evaluated, ${plan.evaluations.length} meet `
    + (plan.needs.length ? plan.needs.join(", ") : "no needs given")
    + `, ${front} on the Pareto front (*).`;
  $("assumed").replaceChildren(...plan.assumed.map((a) => el("li", { text: "assumed: " + a })));
  $("reason").textContent = `recommended (>): ${plan.recommendation.layout}, because `
    + plan.recommendation.reason;
  drawChart();
  drawTable();
}

function band(e) {
  const p = e.closed_form ? e.closed_form.data_loss : null;
  if (p === null) return BANDS[3];
  return BANDS.find((b) => p <= b[1]) || BANDS[2];
}

function drawChart() {
  const W = 720, H = 380, L = 70, R = 20, T = 20, B = 50;
  const pts = plan.evaluations.map((e) => [e.avail_bytes / 1e12, e.write.bytes_per_s / 1e6]);
  const maxX = Math.max(...pts.map((p) => p[0])) * 1.08 || 1;
  const maxY = Math.max(...pts.map((p) => p[1])) * 1.1 || 1;
  const x = (v) => L + (v / maxX) * (W - L - R);
  const y = (v) => H - B - (v / maxY) * (H - T - B);
  const svg = $("chart");
  svg.replaceChildren();
  for (let i = 0; i <= 5; i++) {
    const xv = (maxX * i) / 5, yv = (maxY * i) / 5;
    svg.append(el("line", { x1: x(xv), x2: x(xv), y1: T, y2: H - B, class: "grid" }),
      el("text", { x: x(xv), y: H - B + 16, class: "tick", "text-anchor": "middle", text: xv.toFixed(0) }),
      el("line", { x1: L, x2: W - R, y1: y(yv), y2: y(yv), class: "grid" }),
      el("text", { x: L - 6, y: y(yv) + 4, class: "tick", "text-anchor": "end", text: yv.toFixed(0) }));
  }
  svg.append(el("text", { x: (L + W - R) / 2, y: H - 10, "text-anchor": "middle", text: "usable space (AVAIL), TB" }),
    el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle",
      transform: `rotate(-90 14 ${(T + H - B) / 2})`, text: `${plan.settings.write}, MB/s` }));
  plan.evaluations.forEach((e, i) => {
    const [px, py] = [x(pts[i][0]), y(pts[i][1])];
    const g = el("g", { class: "point", "data-index": i, on: { click: () => select(i) } },
      el("circle", { cx: px, cy: py, r: 5, fill: band(e)[2] }));
    g.append(el("title", { text: `${e.layout}: ${tb(e.avail_bytes)}, ${mbs(e.write.bytes_per_s)}, P(data loss) ${probability(e.closed_form && e.closed_form.data_loss)}` }));
    if (plan.on_front[i]) g.append(el("circle", { cx: px, cy: py, r: 9, class: "ring" }));
    if (i === selected) g.append(el("circle", { cx: px, cy: py, r: 13, class: "selected-ring" }));
    if (i === plan.recommendation.index) {
      const left = px > W / 2;
      g.append(el("text", { x: left ? px - 12 : px + 12, y: py - 12, class: "pick",
        "text-anchor": left ? "end" : "start", text: "> " + e.layout }));
    }
    svg.append(g);
  });
  const legend = el("g", {});
  BANDS.forEach((b, k) => legend.append(
    el("circle", { cx: L + 14, cy: T + 8 + k * 16, r: 5, fill: b[2] }),
    el("text", { x: L + 24, y: T + 12 + k * 16, class: "tick", text: b[0] })));
  svg.append(legend);
}

function drawTable() {
  const extra = plan.settings.extra;
  const head = ["", "LAYOUT", "SPARES", "AVAIL", "READ", "WRITE", "RAND/s", "DEGRADED",
    "P(POOL LOSS)", "P(BLOCK LOSS)", "$/TB", ...extra];
  $("layouts").tHead.replaceChildren(el("tr", {}, head.map((h) => el("th", { text: h }))));
  const rows = plan.evaluations.map((e, i) => {
    if (!shown(i)) return null;
    const mark = i === plan.recommendation.index ? ">" : plan.on_front[i] ? "*" : "";
    const cf = e.closed_form;
    const cells = [mark, e.layout, e.hot_spares, tb(e.avail_bytes), mbs(e.read.bytes_per_s),
      mbs(e.write.bytes_per_s), e.random.iops.toFixed(0),
      hours(e.degraded_hours),
      probability(cf && cf.pool_loss), probability(cf && cf.block_loss),
      e.usd_per_usable_tb === null ? "-" : e.usd_per_usable_tb.toFixed(0),
      ...e.extra.map((w) => mbs(w.bytes_per_s))];
    return el("tr", {
      "data-index": i, "data-layout": e.layout, "data-avail-bytes": e.avail_bytes,
      class: [i === selected ? "selected" : "", mark === ">" ? "pick" : ""].join(" ").trim(),
      on: { click: () => select(i) },
    }, cells.map((c) => el("td", { text: String(c) })));
  });
  $("layouts").tBodies[0].replaceChildren(...rows.filter(Boolean));
}

// ---- one layout in detail: space, speed, safety -----------------------------------------

async function select(i) {
  selected = i;
  writeUrl();
  drawChart();
  drawTable();
  const e = plan.evaluations[i];
  status("detail");
  $("detail").hidden = false;
  $("detail").dataset.layout = e.layout;
  $("detail-title").textContent = `${e.layout}` + (e.hot_spares ? ` + ${e.hot_spares} hot spares` : "")
    + (i === plan.recommendation.index ? " (recommended)" : "");
  try {
    const request = planRequest();
    const disks = { disks: request.disks, disk: request.disk, layout: e.layout };
    if (request.system !== undefined) disks.system = request.system;
    systemText = await api("/api/system", disks);
    const workloads = [plan.settings.read, plan.settings.write, plan.settings.random,
      ...plan.settings.extra];
    const [space, safety, ...speeds] = await Promise.all([
      api("/api/capacity", { system: systemText }),
      api("/api/reliability", { system: systemText, fill: String(plan.settings.fill),
        years: plan.settings.years, trials: TRIALS }),
      ...workloads.map((w) => api("/api/predict", { system: systemText, workload: w })),
    ]);
    if (selected !== i) return;
    drawSpace(space);
    drawSpeed(workloads, speeds);
    drawSafety(safety);
    status("ready");
  } catch (err) {
    fail(err);
  }
}

function drawSpace(space) {
  const raw = space.raw_bytes;
  const parts = space.breakdown.filter((l) => l.op === "minus")
    .map((l) => [l.label, l.bytes, "minus"]).concat([["AVAIL", space.avail_bytes, "avail"]]);
  $("space-bar").replaceChildren(...parts.map(([label, bytes, kind], k) => {
    const seg = el("div", { class: `segment ${kind} s${k % 6}`, title: `${label}: ${tb(bytes)}` });
    seg.style.width = `${(100 * bytes) / raw}%`;
    return seg;
  }));
  $("space-lines").tBodies[0].replaceChildren(...space.breakdown.map((l) =>
    el("tr", { class: l.op, "data-bytes": l.bytes },
      el("td", { text: { start: "", minus: "−", total: "=" }[l.op] }),
      el("td", { text: l.label }), el("td", { class: "num", text: size(l.bytes) }),
      el("td", { class: "why", text: l.why }))));
  $("space-lines").dataset.avail = space.avail_bytes;
}

function drawSpeed(workloads, speeds) {
  $("speed").replaceChildren(...speeds.map((p, k) => el("div", {
    class: "workload", "data-workload": workloads[k], "data-bytes-per-s": p.throughput_bytes_per_s,
  },
  el("h4", { text: `${workloads[k]}: ${mbs(p.throughput_bytes_per_s)}, ${p.iops.toFixed(0)} IOPS, `
    + `${(p.mean_latency_s * 1e3).toFixed(2)} ms mean latency` }),
  el("p", { class: "bottleneck", text: p.bottleneck.sentence }),
  el("div", { class: "bars" }, p.utilizations.slice(0, 8).map((u) => {
    const fill = el("div", { class: "fill " + u.kind });
    fill.style.width = `${Math.min(100, u.utilization * 100)}%`;
    return el("div", { class: "bar-row", title: u.detail },
      el("span", { class: "resource", text: `${u.resource} (${u.kind})` }),
      el("span", { class: "bar" }, fill),
      el("span", { class: "num", text: `${(u.utilization * 100).toFixed(0)}%` }));
  })))));
}

function drawSafety(a) {
  const out = a.rebuilds.map((r) => el("p", { class: "rebuild", "data-hours": r.hours },
    el("strong", { text: `${r.kind === "resilver" ? "Resilver" : "Sequential rebuild"}: ${hours(r.hours)}` }),
    ` after one disk fails, pool ${(a.fill * 100).toFixed(0)}% full, limited by ${r.limiting_resource}. ${r.explanation}`));
  if (!a.lifetime) {
    out.push(el("p", { text: `P(loss): unknown, no AFR or MTBF for ${a.disk}.` }));
  }
  if (a.closed_form) {
    out.push(el("p", { class: "closed-form" },
      `Over ${a.years} years, by the closed form: P(pool loss) ${probability(a.closed_form.pool_loss)}, `
      + `P(any data loss) ${probability(a.closed_form.data_loss)}.`));
  }
  const mc = a.monte_carlo;
  if (mc) {
    out.push(el("p", { class: "monte-carlo", "data-p": mc.data_loss.p },
      `Monte Carlo of ${mc.trials} missions: P(pool loss) ${probability(mc.pool_loss.p)} `
      + `[${probability(mc.pool_loss.low)} .. ${probability(mc.pool_loss.high)}], P(any data loss) `
      + `${probability(mc.data_loss.p)} [${probability(mc.data_loss.low)} .. ${probability(mc.data_loss.high)}] (95% intervals).`));
  }
  $("safety").replaceChildren(...out);
}

// ---- wiring -----------------------------------------------------------------------------

function download() {
  const name = plan.evaluations[selected].layout.replace(/[^A-Za-z0-9]+/g, "-") + ".toml";
  const a = el("a", { href: URL.createObjectURL(new Blob([systemText], { type: "application/toml" })), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

async function loadDisks() {
  const response = await fetch("/api/disks");
  const disks = await response.json();
  $("disk-list").replaceChildren(...disks.map((d) => el("option", {
    value: d.id, label: `${d.vendor} ${d.model}, ${tb(d.capacity_bytes)} ${d.medium}`,
  })));
}

document.addEventListener("DOMContentLoaded", () => {
  $("inputs").addEventListener("submit", (ev) => {
    ev.preventDefault();
    writeUrl();
    runPlan(null);
  });
  document.getElementsByName("host").forEach((r) => r.addEventListener("change", showHost));
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (file) $("system").value = await file.text();
  });
  $("all").addEventListener("change", () => { writeUrl(); drawTable(); });
  $("download").addEventListener("click", download);
  $("copy-link").addEventListener("click", () => navigator.clipboard.writeText(location.href));
  $("edit-host").addEventListener("click", () => {
    $("system").value = systemText;
    $("host-file").checked = true;
    showHost();
    writeUrl();
    $("system").focus();
  });
  const q = readUrl();
  loadDisks().catch(fail);
  if (q.has("disk") || q.has("system")) runPlan(q.get("layout"));
});
