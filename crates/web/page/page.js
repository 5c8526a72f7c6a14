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
// The colours of the plan's loss classes (its loss_bands): within a tenth of the target,
// within it, past it, unknown.
const BAND_COLOURS = ["#1e7b3a", "#a86f00", "#b3261e", "#6b7280"];
// Layout families, each drawn with its own marker: [family, legend, marker].
const FAMILIES = [["stripe", "stripe", "down"], ["mirror", "mirror", "circle"],
  ["raidz1", "raidz1", "square"], ["raidz2", "raidz2", "diamond"], ["raidz3", "raidz3", "up"],
  ["draid", "dRAID", "plus"]];
// The chart's speed axes: [key, what, unit].
const AXES = { write: ["write", "sequential write", "MB/s"], read: ["read", "sequential read", "MB/s"],
  random: ["random", "random reads", "IOPS"] };
// Closest two chart points may sit, px, and a marker's half width: on a wide chart and on a
// phone's (a triangle's box sits up to 1 px off its point: 10 keeps marks 8 px apart).
const SPACING = { wide: [11, 5], narrow: [10, 4] };

let plan = null;        // the last /api/plan answer
let selected = null;    // the index of the layout shown in detail
let systemText = "";    // the system file of that layout

// ---- small helpers ----------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "circle", "line", "text", "g", "rect", "path", "polyline", "title"].includes(tag);
  const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (k === "on") Object.entries(v).forEach(([ev, f]) => e.addEventListener(ev, f));
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  children.flat().forEach((c) => e.append(c));
  return e;
}

// Numbers as the command line prints them (model::units::format_decimal, format_probability).
function decimal(value) {
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let unit = 0;
  while (value >= 1000 && unit + 1 < units.length) { value /= 1000; unit++; }
  return value.toFixed(1) + " " + units[unit];
}
const rate = (bps) => decimal(bps) + "/s";
function probability(p) {
  if (p === null || p === undefined) return "unknown";
  const pct = p * 100;
  if (pct >= 1) return pct.toFixed(1) + "%";
  if (pct >= 0.001) return pct.toFixed(1 - Math.floor(Math.log10(pct))) + "%";
  if (pct > 0) return pct.toExponential(1).replace("e+", "e") + "%";
  return "0%";
}
const hours = (h) => h.toFixed(1) + " h";
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const isRandom = (label) => /rand|seek/i.test(label);
// A workload's figure as the table shows it: a rate for a stream, operations a second for
// random I/O.
const figure = (f) => (isRandom(f.workload) ? f.iops.toFixed(0) + "/s" : rate(f.bytes_per_s));
const dataLoss = (e) => (e.closed_form ? e.closed_form.data_loss : null);
const redundant = (e) => !e.layout.startsWith("stripe");
const degraded = (e) => (redundant(e) ? hours(e.degraded_hours) : "-");

function family(layout) {
  if (layout.startsWith("stripe")) return "stripe";
  const m = layout.match(/mirror|raidz[123]|draid/);
  return m ? m[0] : "stripe";
}

class ApiError extends Error {
  constructor(message, field) { super(message); this.field = field; }
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let answer = { error: text };
    try { answer = JSON.parse(text); } catch (_) { /* not JSON: the text itself */ }
    throw new ApiError(answer.error, answer.field);
  }
  return response.headers.get("Content-Type").startsWith("application/json")
    ? JSON.parse(text) : text;
}

function status(s) { document.body.dataset.status = s; }

// ---- errors: one sentence next to the field it is about ---------------------------------

// The words the form uses for a field: its data-name, else its label's own text.
function fieldName(input) {
  if (input.dataset.name) return input.dataset.name;
  const label = input.closest("label");
  if (!label) return input.name;
  return [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
    .map((n) => n.textContent).join(" ").replace(/\s+/g, " ").trim();
}

function errorSlot(target) {
  const id = target.id + "-error";
  let slot = $(id);
  if (!slot) {
    slot = el("span", { id, class: "field-error" });
    const anchor = target.tagName === "FIELDSET" ? null : target.closest("label") || target;
    if (anchor) anchor.after(slot); else target.append(slot);
  }
  return slot;
}

function showFieldError(target, sentence) {
  const slot = errorSlot(target);
  slot.textContent = sentence;
  slot.hidden = false;
  if (target.tagName !== "FIELDSET") {
    target.setAttribute("aria-invalid", "true");
    const described = (target.getAttribute("aria-describedby") || "").split(" ");
    if (!described.includes(slot.id)) {
      target.setAttribute("aria-describedby", described.concat(slot.id).join(" ").trim());
    }
  }
}

function clearErrors() {
  document.querySelectorAll(".field-error").forEach((s) => { s.hidden = true; s.textContent = ""; });
  document.querySelectorAll("[aria-invalid]").forEach((f) => f.removeAttribute("aria-invalid"));
  $("error").hidden = true;
}

// What a number field takes, in words: "a whole number from 1 to 200".
function numberRule(input) {
  const whole = input.step === "1" ? "a whole number" : "a number";
  const [min, max] = [input.min, input.max];
  const above = input.dataset.above;
  if (above !== undefined) return `${whole} above ${above}${max ? ` and at most ${max}` : ""}`;
  if (min !== "" && max !== "") return `${whole} from ${min} to ${max}`;
  if (min !== "") return `${whole} of ${min} or more`;
  return whole;
}

// The form's own checks, before asking the server: [field, sentence] for each bad field.
function formErrors() {
  const out = [];
  if ($("disk").value.trim() === "") {
    out.push([$("disk"), "Disk is missing: choose one from the catalog or give a size such as 16TB."]);
  }
  for (const input of document.querySelectorAll("#inputs input[type=number]")) {
    const value = input.value.trim();
    const v = Number(value);
    const bad = input.validity.badInput || (value === "" ? input.required
      : !(input.checkValidity() && (input.dataset.above === undefined || v > Number(input.dataset.above))));
    if (bad) out.push([input, `${fieldName(input)}: give ${numberRule(input)}.`]);
  }
  const fill = $("fill").value.trim();
  const m = fill.match(/^(\d+(?:\.\d+)?|\.\d+)\s*(%?)$/);
  if (fill !== "" && !(m && Number(m[1]) <= (m[2] ? 100 : 1))) {
    out.push([$("fill"), "Pool full takes a share of the pool such as 80% or 0.8."]);
  }
  if (usesFile() && $("system").value.trim() === "") {
    out.push([$("system"), "System file is empty: paste one or upload it, or choose the typical host."]);
  }
  return out;
}

// Where a server's error belongs: the field it names (the API's `field`, in the form's
// words), else nowhere (shown at the top).
function fieldOf(error) {
  const field = error.field;
  if (!field) return null;
  if (field === "need") {
    const metric = NEEDS.map((n) => n[0]).find((m) => $("need-" + m).value.trim() !== ""
      && new RegExp("\\b" + m + "\\b").test(error.message));
    return metric ? $("need-" + metric) : $("need-set");
  }
  if (field === "host" || field === "system") return usesFile() ? $("system") : $("host-set");
  const workloads = ["read", "write", "random", "workload"];
  if (workloads.includes(field)) {
    const named = workloads.filter((id) => $(id).value.trim() !== "" && error.message.includes($(id).value.trim()));
    if (named.length === 1) return $(named[0]);
  }
  const input = $(field.replace(/-/g, "_")) || $(field);
  return input && input.closest("#inputs") ? input : null;
}

// A server's sentence as the page says it: the command line's pointers to another command
// ("`zpoolsim catalog --kind disk` lists them") mean nothing here; the Disk field's list holds
// the catalog. Ended with a full stop.
function plainWords(message) {
  const words = message.replace(/`zpoolsim catalog --kind disk` lists them/g, "the Disk field's list holds them")
    .replace(/[;,]?\s*\(?`zpoolsim [^`]*`[^.;)]*\)?/g, "").trim();
  return /[.!?]$/.test(words) ? words : words + ".";
}

// The plan's own sentences with the command line's flags in the form's words: "--disk 16TB"
// is the Disk field's 16TB; "(--rank usable)" names a choice the page does not offer.
function formWords(text) {
  return text.replace(/\s*\(--rank \w+\)/g, "")
    .replace(/--([a-z_-]+)/g, (flag, name) => {
      const input = $(name.replace(/-/g, "_")) || $(name);
      return input && input.closest("#inputs") ? `${fieldName(input)}` : flag;
    });
}

function fail(error) {
  const target = fieldOf(error);
  if (target) {
    showFieldError(target, plainWords(error.message));
  } else {
    $("error").textContent = plainWords(error.message) + (plan ? " The results below are still those of the last plan." : "");
    $("error").hidden = false;
  }
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
  if ($("axis").value !== "write") q.set("axis", $("axis").value);
  if (plan && selected !== null) q.set("layout", plan.evaluations[selected].layout);
  history.replaceState(null, "", "?" + q.toString());
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  for (const f of FLAGS) if (q.has(f)) $(f).value = q.get(f);
  for (const part of (q.get("need") || "").split(",")) {
    const m = part.trim().match(/^(\w+)\s*(>=|<=)\s*([\d.eE+-]+)/);
    if (m && $("need-" + m[1])) $("need-" + m[1]).value = m[3];
  }
  if (q.has("system")) {
    $("host-file").checked = true;
    $("system").value = q.get("system");
  }
  if (AXES[q.get("axis")]) $("axis").value = q.get("axis");
  showHost();
  $("all").checked = q.get("all") === "1";
  return q;
}

function showHost() {
  $("host-parts").hidden = !usesFile();
  $("host-set").classList.toggle("wide", usesFile());
}

// ---- the plan: summary, chart, table ----------------------------------------------------

async function runPlan(wanted) {
  clearErrors();
  const errors = formErrors();
  if (errors.length) {
    errors.forEach(([field, sentence]) => showFieldError(field, sentence));
    errors[0][0].focus();
    return status("error");
  }
  status("planning");
  try {
    plan = await api("/api/plan", planRequest());
  } catch (e) {
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

// The loss classes of the plan's bands: [label, colour]; in the order of its classes.
function bands() {
  const b = plan.loss_bands;
  const [tenth, target] = b.limits.map(probability);
  return [[`P(data loss) <= ${tenth}`], [`P(data loss) <= ${target} (${b.from_need ? "the need" : "the default target"})`],
    [`P(data loss) > ${target}`], ["P(data loss) unknown"]].map(([l], k) => [l, BAND_COLOURS[k]]);
}

function bandOf(e) {
  const p = dataLoss(e);
  if (p === null) return 3;
  const k = plan.loss_bands.limits.findIndex((l) => p <= l);
  return k < 0 ? 2 : k;
}

function drawPlan() {
  const n = plan.evaluations.length;
  const front = plan.on_front.filter(Boolean).length;
  const target = plan.loss_bands.limits[1];
  const years = plan.settings.years;
  $("summary").textContent = `${plan.disks} x ${plan.disk} on ${plan.system}: `
    + `${plural(plan.considered, "layout")} evaluated; `
    + (plan.needs.length ? `${n} ${n === 1 ? "meets" : "meet"} ${plan.needs.join(", ")}`
      : `no needs given, so ${n === 1 ? "it is" : `all ${n} are`} listed`)
    + `; ${front} on the Pareto front (*): no other layout beats them in every figure. `
    + `The recommendation aims to keep P(data loss over ${years} years) at most ${probability(target)}, `
    + (plan.loss_bands.from_need ? "your need." : "the default target: ");
  if (!plan.loss_bands.from_need) {
    $("summary").append(el("button", { type: "button", class: "link", text: "set your own",
      on: { click: () => $("need-loss").focus() } }), ".");
  }
  if (!plan.loss_bands.from_need) {
    $("need-loss").placeholder = `${(target * 100).toPrecision(2).replace(/\.?0+$/, "")}, the default target`;
  }
  // An empty workload field takes the plan's default: the placeholder says which.
  for (const key of ["read", "write", "random"]) {
    if ($(key).value.trim() === "") $(key).placeholder = plan.settings[key];
  }
  $("assumed").replaceChildren(...plan.assumed.map((a) => el("li", { text: "assumed: " + formWords(a) })));
  drawRuledOut();
  const pick = plan.evaluations[plan.recommendation.index];
  $("reason").replaceChildren(el("strong", { text: `Recommended (>): ${pick.layout}` }),
    pick.hot_spares ? ` + ${plural(pick.hot_spares, "hot spare")}` : "",
    `, because ${formWords(plan.recommendation.reason)}`);
  const caveats = plan.recommendation.caveats || pick.caveats || [];
  $("caveats").replaceChildren(...caveats.map((c) => el("li", { text: formWords(c) })));
  $("caveats").hidden = caveats.length === 0;
  drawChart();
  drawTable();
  drawColumns();
}

// The layouts the planner's policy set aside before evaluating any: how many, and why.
function drawRuledOut() {
  const rules = plan.ruled_out || [];
  const n = rules.reduce((sum, r) => sum + r.layouts, 0);
  $("ruled-out").hidden = n === 0;
  $("ruled-out").replaceChildren(el("summary", {
    text: `${plural(n, "more layout")} set aside by the planner's policy before evaluation (why)` }),
  el("ul", {}, rules.map((r) => el("li", { text: `${r.layouts}: ${r.why}.` }))));
}

// ---- the chart --------------------------------------------------------------------------

// Ticks every 1, 2 or 5 times a power of ten, about `count` of them over the values.
function niceScale(values, count) {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < Math.abs(hi) * 0.02) {
    const pad = Math.max(Math.abs(hi) * 0.05, 1);
    lo -= pad; hi += pad;
  }
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((f) => f * power >= raw * 0.999) * power;
  lo = Math.max(0, Math.floor(lo / step) * step);
  hi = Math.ceil(hi / step) * step;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push([v, v.toFixed(decimals)]);
  return { lo, hi, ticks };
}

// A marker's outline centred on (x, y), about `r` across its middle.
function marker(kind, x, y, r) {
  const p = (pts) => "M" + pts.map(([a, b]) => `${(x + a).toFixed(1)},${(y + b).toFixed(1)}`).join("L") + "Z";
  const s = r * 0.85, d = r * 1.2;
  switch (kind) {
    case "square": return p([[-s, -s], [s, -s], [s, s], [-s, s]]);
    case "diamond": return p([[0, -d], [d, 0], [0, d], [-d, 0]]);
    case "up": return p([[0, -d], [d, r * 0.75], [-d, r * 0.75]]);
    case "down": return p([[0, d], [d, -r * 0.75], [-d, -r * 0.75]]);
    case "plus": {
      const a = r * 0.45, b = r * 1.15;
      return p([[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]]);
    }
    default: return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
  }
}

// Where each point is drawn: at its own space (x) and, when another mark is closer than
// `gap` px, at the nearest free height above or below its value (a thin line then leads to
// where it belongs); from left to right, inside `box`.
function spread(points, gap, box) {
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const order = points.map((_, k) => k).sort((a, b) => points[a].x - points[b].x || points[a].y - points[b].y);
  const placed = [];
  const pos = [];
  for (const k of order) {
    const x = clamp(points[k].x, box.left, box.right), y0 = clamp(points[k].y, box.top, box.bottom);
    const near = placed.filter((q) => Math.abs(q.x - x) < gap);
    let y = y0;
    for (let step = 0; step < 600; step++) {
      const cy = y0 + Math.ceil(step / 2) * (step % 2 ? -1 : 1) * (gap / 4);
      if (cy < box.top || cy > box.bottom) continue;
      if (near.every((q) => Math.hypot(q.x - x, q.y - cy) >= gap)) { y = cy; break; }
    }
    pos[k] = { x, y };
    placed.push(pos[k]);
  }
  return pos;
}

function axisValue(e, axis) {
  const f = e[axis];
  return AXES[axis][2] === "IOPS" ? f.iops : f.bytes_per_s / 1e6;
}

// The upper-right edge of the points within the loss target (all, if none is): the layouts
// no other beats on both space and speed; their indices by space.
function edge(indices, ys) {
  const safe = indices.filter((i) => bandOf(plan.evaluations[i]) <= 1);
  const among = (safe.length ? safe : indices).slice()
    .sort((a, b) => plan.evaluations[b].avail_bytes - plan.evaluations[a].avail_bytes || ys[b] - ys[a]);
  let best = -Infinity;
  return among.filter((i) => (ys[i] > best ? ((best = ys[i]), true) : false)).reverse();
}

function chartSize() {
  const W = Math.max(300, Math.min(900, $("chart-box").clientWidth - 14));
  return { W, H: W < 560 ? 330 : 420, L: 58, R: 16, T: 14, B: 46 };
}

function drawChart() {
  const { W, H, L, R, T, B } = chartSize();
  const axis = $("axis").value;
  const evals = plan.evaluations;
  const xs = evals.map((e) => e.avail_bytes / 1e12), ys = evals.map((e) => axisValue(e, axis));
  const sx = niceScale(xs, W < 560 ? 4 : 6), sy = niceScale(ys, 5);
  const x = (v) => L + ((v - sx.lo) / (sx.hi - sx.lo)) * (W - L - R);
  const y = (v) => H - B - ((v - sy.lo) / (sy.hi - sy.lo)) * (H - T - B);
  const svg = $("chart");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  const deco = el("g", { "pointer-events": "none", "aria-hidden": "true" });
  for (const [v, label] of sx.ticks) {
    deco.append(el("line", { x1: x(v), x2: x(v), y1: T, y2: H - B, class: "grid" }),
      el("text", { x: x(v), y: H - B + 16, class: "tick", "text-anchor": "middle", text: label }));
  }
  for (const [v, label] of sy.ticks) {
    deco.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      el("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end", text: label }));
  }
  const [key, what, unit] = AXES[axis];
  deco.append(el("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", class: "axis-label",
    text: "usable space (AVAIL), TB" }),
  el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis-label",
    transform: `rotate(-90 14 ${(T + H - B) / 2})`, text: `${what} (${plan.settings[key]}), ${unit}` }));
  const indices = evals.map((_, i) => i).filter(shown);
  evals.forEach((e, i) => {
    if (!shown(i)) deco.append(el("circle", { cx: x(xs[i]), cy: y(ys[i]), r: 2.5, class: "background",
      fill: BAND_COLOURS[bandOf(e)], "data-band": bandOf(e) }));
  });
  const line = edge(indices, ys).map((i) => `${x(xs[i]).toFixed(1)},${y(ys[i]).toFixed(1)}`);
  deco.append(el("polyline", { points: line.join(" "), class: "front-line" }));
  const box = { left: L + 4, right: W - R - 4, top: T + 4, bottom: H - B - 4 };
  const truth = indices.map((i) => ({ x: x(xs[i]), y: y(ys[i]) }));
  const [gap, radius] = SPACING[W < 560 ? "narrow" : "wide"];
  const at = spread(truth, gap, box);
  indices.forEach((i, k) => {
    if (Math.hypot(at[k].x - truth[k].x, at[k].y - truth[k].y) > 1.5) {
      deco.append(el("line", { x1: truth[k].x, y1: truth[k].y, x2: at[k].x, y2: at[k].y, class: "leader" }),
        el("circle", { cx: truth[k].x, cy: truth[k].y, r: 1.6, class: "true-spot" }));
    }
  });
  const order = indices.map((i, k) => [i, at[k]]).sort((a, b) => a[1].x - b[1].x || a[1].y - b[1].y);
  const points = el("g", { class: "points" }, order.map(([i, p]) => chartPoint(i, p, axis, radius)));
  svg.replaceChildren(deco, points, pickLabel(order, { left: L, right: W - R, top: T, bottom: H - B }));
  drawLegend(line.length > 1);
  $("chart-caption").textContent = `Each mark is a layout${$("all").checked ? " meeting the needs" : " on the Pareto front, and the recommendation (small dots: the others)"}`
    + `; marks too close together are moved up or down, a thin line to where they belong. `
    + `Point at a mark, or Tab to it, for its figures; click it or press Enter to see it in detail.`;
  markSelected();
}

function chartPoint(i, p, axis, radius) {
  const e = plan.evaluations[i];
  const band = bandOf(e);
  const fam = FAMILIES.find((f) => f[0] === family(e.layout));
  const onFront = plan.on_front[i];
  const words = `${e.layout}: ${decimal(e.avail_bytes)}, ${AXES[axis][1]} ${figure(e[axis])}, `
    + `P(data loss) ${probability(dataLoss(e))}` + (onFront ? ", on the Pareto front" : "")
    + (i === plan.recommendation.index ? ", recommended" : "");
  const g = el("g", {
    class: "point" + (onFront ? " front" : "") + (i === plan.recommendation.index ? " pick" : ""),
    tabindex: 0, role: "button", "aria-label": words, "data-index": i, "data-layout": e.layout,
    "data-band": band, "data-x": p.x.toFixed(1), "data-y": p.y.toFixed(1),
    on: {
      click: () => select(i),
      keydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(i); } },
      pointerenter: () => tooltip(i, p), pointerleave: () => tooltip(null),
      focus: () => tooltip(i, p), blur: () => tooltip(null),
    },
  },
  el("circle", { cx: p.x, cy: p.y, r: radius + 3.5, class: "halo" }),
  el("path", { d: marker(fam[2], p.x, p.y, radius), class: "mark", fill: onFront ? BAND_COLOURS[band] : "#fff",
    stroke: onFront ? "#1d1d1f" : BAND_COLOURS[band] }));
  if (i === plan.recommendation.index) g.prepend(el("circle", { cx: p.x, cy: p.y, r: radius + 3.5, class: "pick-ring" }));
  return g;
}

// The recommendation's name beside its mark, on the side (right or left, above or below)
// where it covers the fewest other marks and stays inside the plot.
function pickLabel(order, box) {
  const found = order.find(([i]) => i === plan.recommendation.index);
  if (!found) return el("g");
  const [i, p] = found;
  const text = "> " + plan.evaluations[i].layout;
  const wide = text.length * 7.5, high = 15;
  const sides = [[1, -1], [1, 1], [-1, -1], [-1, 1]].map(([h, v]) => {
    const left = h > 0 ? p.x + 12 : p.x - 12 - wide;
    const top = v < 0 ? p.y - 8 - high : p.y + 8;
    const covered = order.filter(([k, q]) => k !== i && q.x > left - 6 && q.x < left + wide + 6
      && q.y > top - 6 && q.y < top + high + 6).length;
    const outside = left < box.left || left + wide > box.right || top < box.top || top + high > box.bottom;
    return { h, top, covered: covered + (outside ? 1000 : 0) };
  });
  const best = sides.reduce((a, b) => (b.covered < a.covered ? b : a));
  return el("text", { x: best.h > 0 ? p.x + 12 : p.x - 12, y: best.top + high - 3, class: "pick-label",
    "text-anchor": best.h > 0 ? "start" : "end", "pointer-events": "none", "aria-hidden": "true", text });
}

function tooltip(i, p) {
  const tip = $("tooltip");
  if (i === null) { tip.hidden = true; return; }
  const e = plan.evaluations[i];
  tip.replaceChildren(el("strong", { text: e.layout + (i === plan.recommendation.index ? " (recommended)" : "") }),
    el("br"), `AVAIL ${decimal(e.avail_bytes)}; read ${figure(e.read)}, write ${figure(e.write)}, ${figure(e.random)} random`,
    el("br"), `P(data loss) ${probability(dataLoss(e))} (${bands()[bandOf(e)][0].replace("P(data loss) ", "")})`);
  tip.hidden = false;
  const svg = $("chart").getBoundingClientRect(), box = $("chart-box").getBoundingClientRect();
  const left = Math.min(svg.left - box.left + p.x + 12, box.width - tip.offsetWidth - 4);
  tip.style.left = `${Math.max(4, left)}px`;
  tip.style.top = `${svg.top - box.top + p.y + 12}px`;
}

function swatch(kind, fill, stroke) {
  return el("svg", { width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true" },
    kind === "line" ? el("line", { x1: 1, y1: 12, x2: 15, y2: 4, class: "front-line" })
      : el("path", { d: marker(kind, 8, 8, 5), fill, stroke }));
}

// The legend of the families, the loss classes and the front's line (when it has one: a
// single layout may beat every other on space and speed within the target).
function drawLegend(withLine) {
  const families = new Set(plan.evaluations.map((e) => family(e.layout)));
  const items = FAMILIES.filter((f) => families.has(f[0]))
    .map(([, name, kind]) => el("li", {}, swatch(kind, "#8a9099", "#1d1d1f"), name));
  const used = new Set(plan.evaluations.map(bandOf));
  bands().forEach(([label, colour], k) => {
    if (used.has(k)) items.push(el("li", { class: "band", "data-band": k }, swatch("circle", colour, colour), label));
  });
  items.push(el("li", {}, swatch("circle", "#fff", "#1d1d1f"), "hollow: not on the Pareto front"));
  if (withLine) items.push(el("li", {}, swatch("line", null, null), "line: the most speed for the space within the loss target"));
  $("legend").replaceChildren(...items);
}

// ---- the table --------------------------------------------------------------------------

// Columns: [header, explanation or null, cell of an evaluation, shown on a phone].
function columns() {
  const s = plan.settings;
  const priced = plan.evaluations.some((e) => e.usd_per_usable_tb !== null);
  const cols = [
    ["", null, (e, i) => (i === plan.recommendation.index ? ">" : plan.on_front[i] ? "*" : ""), true],
    ["LAYOUT", null, (e) => e.layout, true],
    ["SPARES", "hot spares: disks idle until one fails", (e) => String(e.hot_spares), false],
    ["AVAIL", "usable space of the empty pool, as zfs list shows it", (e) => decimal(e.avail_bytes), true],
    ["READ", `sequential read, ${s.read}`, (e) => figure(e.read), false],
    ["WRITE", `sequential write, ${s.write}`, (e) => figure(e.write), true],
    ["RAND/s", `random reads a second, ${s.random}`, (e) => e.random.iops.toFixed(0), false],
    ["DEGRADED", `hours a vdev runs with less redundancy after one disk fails, the pool ${(s.fill * 100).toFixed(0)}% full: `
      + "with no hot spare, the wait for a new disk, then the resilver onto it (dRAID with a distributed spare: "
      + "its short sequential rebuild); '-' for a stripe, which has nothing to rebuild from", degraded, false],
    ["P(POOL LOSS)", `the chance of losing the whole pool over ${s.years} years: more disks of one vdev fail `
      + "than it survives", (e) => probability(e.closed_form && e.closed_form.pool_loss), true],
    ["P(BLOCK LOSS)", `the chance over ${s.years} years that an unrecoverable read error loses some blocks, `
      + "not the pool, while a vdev has no redundancy left (a vdev without any: at its monthly scrub)",
    (e) => probability(e.closed_form && e.closed_form.block_loss), false],
  ];
  if (priced) cols.push(["$/TB", "price of all the disks per usable TB", (e) => (e.usd_per_usable_tb === null ? "-" : e.usd_per_usable_tb.toFixed(0)), false]);
  s.extra.forEach((w, k) => cols.push([w, `also shown: ${w}`, (e) => figure(e.extra[k]), false]));
  return cols;
}

function header([name, why, , key], k) {
  const cls = key ? "key" : "more";
  if (k === 0) return el("th", { class: cls, scope: "col" }, el("span", { class: "hidden-text", text: "mark" }));
  if (!why) return el("th", { class: cls, scope: "col", text: name });
  return el("th", { class: cls, scope: "col" },
    el("span", { class: "help", tabindex: 0, "aria-describedby": `col-${k}` }, name,
      el("span", { class: "tip", id: `col-${k}`, role: "tooltip", text: why })));
}

function drawTable() {
  const cols = columns();
  $("layouts").tHead.replaceChildren(el("tr", {}, cols.map(header)));
  const rows = plan.evaluations.map((e, i) => {
    if (!shown(i)) return null;
    return el("tr", {
      tabindex: 0, "data-index": i, "data-layout": e.layout, "data-avail-bytes": e.avail_bytes,
      class: i === plan.recommendation.index ? "pick" : "",
      "aria-label": `${e.layout}: press Enter to see it in detail`,
      on: {
        click: () => select(i),
        keydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(i); } },
      },
    }, cols.map(([, , cell, key]) => el("td", { class: key ? "key" : "more", text: cell(e, i) })));
  });
  $("layouts").tBodies[0].replaceChildren(...rows.filter(Boolean));
  markSelected();
}

// The marks and the columns a reader may not know, explained under the table.
function drawColumns() {
  const explained = columns().filter((c) => ["DEGRADED", "P(POOL LOSS)", "P(BLOCK LOSS)"].includes(c[0]));
  const items = [["*", "on the Pareto front: no other layout is at least as good in every figure and better in one"],
    [">", "the recommendation"], ...explained.map((c) => [c[0], c[1]])];
  $("columns").replaceChildren(...items.flatMap(([t, d]) => [el("dt", { text: t }), el("dd", { text: d })]));
}

function markSelected() {
  document.querySelectorAll("#layouts tbody tr, #chart .point").forEach((n) => {
    const on = Number(n.dataset.index) === selected;
    n.classList.toggle("selected", on);
    if (on) n.setAttribute("aria-current", "true"); else n.removeAttribute("aria-current");
  });
}

// ---- one layout in detail: its figures, space, speed, safety ----------------------------

async function select(i) {
  selected = i;
  writeUrl();
  markSelected();
  const e = plan.evaluations[i];
  status("detail");
  $("detail").hidden = false;
  $("detail").dataset.layout = e.layout;
  $("grow").hidden = true; // until this layout's system file is in
  $("detail-title").textContent = `${e.layout}` + (e.hot_spares ? ` + ${plural(e.hot_spares, "hot spare")}` : "")
    + (i === plan.recommendation.index ? " (recommended)" : "");
  drawFigures(e, i);
  try {
    const request = planRequest();
    const disks = { disks: request.disks, disk: request.disk, layout: e.layout };
    if (request.system !== undefined) disks.system = request.system;
    const text = await api("/api/system", disks);
    const workloads = [plan.settings.read, plan.settings.write, plan.settings.random,
      ...plan.settings.extra];
    const [space, safety, ...speeds] = await Promise.all([
      api("/api/capacity", { system: text }),
      api("/api/reliability", { system: text, fill: String(plan.settings.fill),
        years: plan.settings.years, trials: TRIALS }),
      ...workloads.map((w) => api("/api/predict", { system: text, workload: w })),
    ]);
    if (selected !== i) return;
    systemText = text;
    drawSpace(space);
    showGrow(e);
    drawSpeed(workloads, speeds);
    drawSafety(safety, e);
    status("ready");
  } catch (err) {
    if (selected === i) fail(err);
  }
}

// Every column of the table for this layout: on a phone the table shows only a few.
function drawFigures(e, i) {
  const cols = columns().slice(2);
  cols.splice(cols.findIndex((c) => c[0] === "P(BLOCK LOSS)") + 1, 0,
    ["P(DATA LOSS)", null, (ev) => `${probability(dataLoss(ev))} (${bands()[bandOf(ev)][0].replace("P(data loss) ", "")})`]);
  $("figures").replaceChildren(...cols.map(([name, , cell]) =>
    el("div", {}, el("dt", { text: name }), el("dd", { text: cell(e, i) }))));
}

function drawSpace(space) {
  const raw = space.raw_bytes;
  const parts = space.breakdown.filter((l) => l.op === "minus")
    .map((l) => [l.label, l.bytes, "minus"]).concat([["AVAIL", space.avail_bytes, "avail"]]);
  const segments = parts.map(([label, bytes, kind], k) => {
    const seg = el("div", { class: `segment ${kind} s${k % 6}`, title: `${label}: ${decimal(bytes)}` });
    seg.style.width = `${(100 * bytes) / raw}%`;
    return seg;
  });
  $("space-bar").replaceChildren(...segments);
  $("space-bar").setAttribute("aria-label", parts.map(([l, b]) => `${l} ${decimal(b)}`).join(", "));
  $("space-legend").replaceChildren(...parts.map(([label, bytes], k) => el("li", {},
    el("span", { class: segments[k].className.replace("segment", "swatch") }),
    `${label}: ${decimal(bytes)} (${((100 * bytes) / raw).toFixed(1)}%)`)));
  $("space-lines").tBodies[0].replaceChildren(...space.breakdown.map((l) =>
    el("tr", { class: l.op, "data-bytes": l.bytes },
      el("td", { text: { start: "", minus: "−", total: "=" }[l.op] }),
      el("td", {}, el("span", { class: "what", text: l.label }), el("span", { class: "why", text: l.why })),
      el("td", { class: "num", text: decimal(l.bytes) }))));
  $("space-lines").dataset.avail = space.avail_bytes;
}

function drawSpeed(workloads, speeds) {
  $("speed").replaceChildren(...speeds.map((p, k) => el("div", {
    class: "workload", "data-workload": workloads[k], "data-bytes-per-s": p.throughput_bytes_per_s,
  },
  el("h4", { text: `${workloads[k]}: ${rate(p.throughput_bytes_per_s)}, ${p.iops.toFixed(0)} IOPS, `
    + `${(p.mean_latency_s * 1e3).toFixed(2)} ms mean latency` }),
  el("p", { class: "bottleneck", text: p.bottleneck.sentence }),
  el("div", { class: "bars" }, p.utilizations.slice(0, 8).map((u) => {
    const fill = el("div", { class: "fill " + u.kind });
    fill.style.width = `${Math.min(100, u.utilization * 100)}%`;
    return el("div", { class: "bar-row", title: u.detail },
      el("span", { class: "resource", text: `${u.resource} (${u.kind})` }),
      el("span", { class: "bar", role: "img", "aria-label": `${(u.utilization * 100).toFixed(0)}% busy` }, fill),
      el("span", { class: "num", text: `${(u.utilization * 100).toFixed(0)}%` }));
  })))));
}

// ---- growing a raidz: zpool attach, one disk per vdev a step (capacity --expand) ---------

// Bytes in binary units, as capacity --expand prints them (model::units::format_bytes).
function binary(bytes) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = bytes, unit = 0;
  while (value >= 1024 && unit + 1 < units.length) { value /= 1024; unit++; }
  // Rust's {:.2} rounds an exact tie to even (465.625 -> 465.62); toFixed rounds it up.
  const hundredths = value * 100, floor = Math.floor(hundredths);
  const even = hundredths - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(hundredths);
  return unit === 0 ? `${bytes} B` : `${(even / 100).toFixed(2)} ${units[unit]}`;
}

// The raidz vdevs of a layout ("4x raidz2-6"): [prefix, parity, width], or null.
function raidzOf(layout) {
  const m = layout.match(/^(\d+x )?raidz([123])-(\d+)$/);
  return m ? [m[1] || "", Number(m[2]), Number(m[3])] : null;
}

// The expansion's steps as capacity --expand takes them: one disk per vdev a step, the
// first once the pool is `fill`% full.
function growSteps(layout, disks, fill) {
  const [prefix, parity, width] = raidzOf(layout);
  return Array.from({ length: disks }, (_, k) =>
    `${prefix}raidz${parity}-${width + k + 1}` + (k === 0 ? ` at ${fill}%` : ""));
}

function showGrow(e) {
  const raidz = raidzOf(e.layout);
  $("grow").hidden = !raidz;
  $("grow-result").replaceChildren();
  if (raidz) $("grow-disks").max = String(Math.min(16, 255 - raidz[2]));
}

async function grow(ev) {
  ev.preventDefault();
  for (const id of ["grow-disks", "grow-fill"]) {
    $(id + "-error")?.setAttribute("hidden", "");
    $(id).removeAttribute("aria-invalid");
  }
  const [disks, fill] = [$("grow-disks"), $("grow-fill")];
  const bad = [disks, fill].filter((f) => f.value.trim() === "" || !f.checkValidity()
    || (f === fill && Number(f.value) >= 100));
  if (bad.length) {
    bad.forEach((f) => showFieldError(f, `${fieldName(f)}: give ${f === fill ? "a number from 0 to below 100" : numberRule(f)}.`));
    return;
  }
  const e = plan.evaluations[selected];
  status("growing");
  try {
    const steps = growSteps(e.layout, Number(disks.value), Number(fill.value));
    const answer = await api("/api/capacity", { system: systemText, expand: steps });
    if (plan.evaluations[selected] !== e) return;
    drawGrowth(answer.expansion, Number(disks.value));
    status("ready");
  } catch (err) {
    showFieldError(disks, plainWords(err.message.replace(/^--expand '[^']*': /, "")));
    status("error");
  }
}

function drawGrowth(x, disks) {
  const first = x.steps[0], last = x.steps[x.steps.length - 1];
  const vdevs = first.disks_added;
  const pct = (f) => (f.size_bytes ? (100 * f.alloc_bytes) / f.size_bytes : 0).toFixed(0) + "%";
  const nice = (bytes) => binary(bytes).replace(/\.00 /, " ");
  const rs = nice(x.recordsize);
  // One column per moment, one row per figure: three narrow columns fit a phone.
  const moments = [["before", `now, ${pct(first.before)} full`, first.before],
    ["after", `after adding ${plural(disks * vdevs, "disk")}`, last.after],
    ["rewritten", "after a rewrite of the old data", x.rewrite.after]];
  const head = el("tr", {}, el("td"), moments.map(([kind, label, f]) => el("th", {
    scope: "col", class: kind, "data-avail": f.avail_bytes, "data-fits": f.fits_bytes, text: label })));
  const figures = [["SIZE", (f) => binary(f.size_bytes)], ["ALLOC", (f) => binary(f.alloc_bytes)],
    ["zfs list AVAIL (old ratio)", (f) => binary(f.avail_bytes)],
    [`new ${rs} records fit (new ratio)`, (f) => binary(f.fits_bytes)]];
  const table = el("table", { class: "grow-table" }, el("thead", {}, head), el("tbody", {},
    figures.map(([name, cell]) => el("tr", {}, el("th", { scope: "row", text: name }),
      moments.map(([kind, , f]) => el("td", { class: kind, text: cell(f) }))))));
  const intro = `${first.from} with ${binary(first.data_bytes)} of data, grown to ${last.to}:`;
  const cost = (c) => `${nice(c.asize_bytes)} on disk for ${rs} of data (${(c.efficiency * 100).toFixed(1)}%)`;
  const records = last.records;
  const words = [
    `zfs list converts space at the first width's ratio, ${x.deflate_ratio}/512, for the vdev's life; `
      + `a vdev created as ${last.to.replace(/^\d+x /, "")} would use ${x.native_deflate_ratio}/512.`,
    `A ${rs} record written before costs ${cost(records[0])}; one written after, ${cost(records[records.length - 1])}.`,
    x.rewrite.records ? `Rewriting the old records (zfs send | zfs recv, or zfs rewrite from OpenZFS 2.4; snapshots keep `
      + `the old blocks) frees ${binary(x.rewrite.alloc_freed_bytes)} and AVAIL grows by ${binary(x.rewrite.avail_gained_bytes)}.`
      : "Every record is at the final width: a rewrite gains nothing.",
  ];
  $("grow-result").replaceChildren(el("p", { class: "grow-words", text: intro }), el("div", { class: "table-box" }, table),
    ...words.map((w) => el("p", { class: "grow-words", text: w })));
}

// Why the table's DEGRADED and the rebuild above differ: the wait for a new disk.
function degradedWords(e, rebuilds) {
  if (!redundant(e)) return "A stripe has no redundancy: one failed disk loses the pool, and there is nothing to rebuild, so DEGRADED is '-'.";
  const same = rebuilds.find((r) => Math.abs(r.hours - e.degraded_hours) < 0.05);
  if (same) {
    const what = same.kind === "resilver" ? "the resilver" : "the sequential rebuild onto the distributed spare";
    return `The table's DEGRADED, ${hours(e.degraded_hours)}, is ${what} alone: a spare takes the failed disk's place at once.`;
  }
  const resilver = Math.max(0, ...rebuilds.filter((r) => r.kind === "resilver").map((r) => r.hours));
  return `The table's DEGRADED, ${hours(e.degraded_hours)}, is longer than the resilver: with no hot spare the vdev `
    + `first waits ${hours(e.degraded_hours - resilver)} for a new disk, then resilvers for ${hours(resilver)}, `
    + "running with less redundancy all along.";
}

function drawSafety(a, e) {
  const out = a.rebuilds.map((r) => el("p", { class: "rebuild", "data-hours": r.hours },
    el("strong", { text: `${r.kind === "resilver" ? "Resilver" : "Sequential rebuild"}: ${hours(r.hours)}` }),
    ` after one disk fails, pool ${(a.fill * 100).toFixed(0)}% full, limited by ${r.limiting_resource}. ${r.explanation}`));
  out.push(el("p", { class: "degraded-words", text: degradedWords(e, a.rebuilds) }));
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
    value: d.id, label: `${d.vendor} ${d.model}, ${decimal(d.capacity_bytes)} ${d.medium}`,
  })));
}

function redrawOnResize() {
  let width = window.innerWidth, timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (plan && window.innerWidth !== width) { width = window.innerWidth; drawChart(); }
    }, 150);
  });
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
  $("all").addEventListener("change", () => { writeUrl(); drawChart(); drawTable(); });
  $("axis").addEventListener("change", () => { writeUrl(); if (plan) drawChart(); });
  $("download").addEventListener("click", download);
  $("grow-form").addEventListener("submit", grow);
  $("copy-link").addEventListener("click", () => navigator.clipboard.writeText(location.href));
  $("edit-host").addEventListener("click", () => {
    $("system").value = systemText;
    $("host-file").checked = true;
    showHost();
    writeUrl();
    $("system").focus();
  });
  redrawOnResize();
  const q = readUrl();
  loadDisks().catch(fail);
  if (q.has("disk") || q.has("system")) runPlan(q.get("layout"));
});
