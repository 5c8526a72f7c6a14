// zpoolsim's page: reads the form, asks the server's API (the same answers as the command
// line's --json) and draws what comes back. It computes nothing of its own; the URL holds
// every input and the layout shown, so a link gives the same page.
"use strict";

const $ = (id) => document.getElementById(id);

// The form's plain fields, each the plan flag of the same name.
const FLAGS = ["disk", "disks", "price", "spares", "min_redundancy", "read", "write", "random",
  "workload", "fill", "years"];
// The needs, each a field of its own: [metric, comparison, unit on the need string: a size,
// a rate (in the page's units) or as written].
const NEEDS = [["avail", ">=", "size"], ["loss", "<=", "%"], ["read", ">=", "rate"],
  ["write", ">=", "rate"], ["iops", ">=", ""]];
// The page's one unit system, chosen in the Units field: powers of 1000 as zpoolsim plan prints
// sizes and rates (model::units::format_decimal), or of 1024 as zfs list does (format_bytes).
// `size` and `rate` are the units of the space and speed fields and of the chart's axes.
const UNITS = {
  si: { base: 1000, names: ["B", "kB", "MB", "GB", "TB", "PB"], decimals: 1, size: "TB", rate: "MB/s" },
  iec: { base: 1024, names: ["B", "KiB", "MiB", "GiB", "TiB", "PiB"], decimals: 2, size: "TiB", rate: "MiB/s" },
};
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
// A marker's half width, px, on a wide chart and on a phone's; marks closer than twice it
// overlap and are counted as a group.
const RADIUS = { wide: 5, narrow: 3.5 };
// How long work may take before the page says it is busy, ms.
const BUSY_AFTER = 300;

let plan = null;        // the last /api/plan answer
let selected = null;    // the index of the layout shown in detail
let systemText = "";    // the system file of that layout
let answers = null;     // that layout's answers ({ space, safety, workloads, speeds, growth })
let sorting = null;     // the table's order: { k: column, dir: 1 or -1 }, or the plan's

// ---- small helpers ----------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const svg = ["svg", "circle", "line", "text", "g", "rect", "path", "polyline", "title", "defs", "pattern"].includes(tag);
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

const units = () => UNITS[$("units").value] || UNITS.si;

// `value` with `decimals` places as Rust's {:.N} prints it: an exact tie rounds to even
// (465.625 -> 465.62), where toFixed rounds it up.
function fixed(value, decimals) {
  const scaled = value * 10 ** decimals, floor = Math.floor(scaled);
  const even = scaled - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  return (even / 10 ** decimals).toFixed(decimals);
}

// Bytes as the command line prints them in the page's units (model::units::format_decimal,
// format_bytes); rates the same a second.
function size(bytes) {
  const u = units();
  let value = bytes, unit = 0;
  while (value >= u.base && unit + 1 < u.names.length) { value /= u.base; unit++; }
  if (unit === 0 && u.base === 1024) return `${bytes} B`;
  return `${fixed(value, u.decimals)} ${u.names[unit]}`;
}
const rate = (bps) => size(bps) + "/s";
// Numbers as the command line prints them (plan::format_probability).
function probability(p) {
  if (p === null || p === undefined) return "unknown";
  const pct = p * 100;
  if (pct <= 0) return "0%";
  const small = pct.toExponential(1);
  // From 1% up as it is, below with its power of ten (3.3e-2%): one notation per column.
  if (pct >= 1 || small.endsWith("e+0")) return pct.toFixed(1) + "%";
  return small + "%";
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

// The page's state (body's data-status: idle, planning, detail, growing, ready, error), a
// busy sign once work has taken BUSY_AFTER ms, and `words` said in the status line (a polite
// live region: the one place the page announces anything).
let busyTimer = null;
function status(s, words) {
  document.body.dataset.status = s;
  clearTimeout(busyTimer);
  const working = ["planning", "detail", "growing"].includes(s);
  if (working) busyTimer = setTimeout(() => { $("busy").hidden = false; }, BUSY_AFTER);
  else $("busy").hidden = true;
  if (words !== undefined) say(words);
}

function say(words) { $("status-words").textContent = words; }

// Focus on `target` (a field, a heading, an error) and its box in view: an answer or an error
// is seen, on a phone too, where it is far below what was pressed.
function reveal(target, slot) {
  const field = target.matches("input, textarea, select, [tabindex]") ? target
    : target.querySelector("input:checked, input, textarea, select");
  (field || target).focus({ preventScroll: true });
  (slot || target).scrollIntoView({ block: slot ? "center" : "start" });
}

// The results on the page are no longer those of the inputs: said above them.
function markStale() {
  if (!plan) return;
  $("stale").hidden = false;
  $("results").classList.add("outdated");
}

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

// A refusal shown beside its field (else at the top), focused, in view and announced.
function fail(error) {
  const target = fieldOf(error);
  const words = plainWords(error.message);
  if (target) {
    showFieldError(target, words);
    reveal(target, errorSlot(target));
  } else {
    $("error").textContent = words;
    $("error").hidden = false;
    reveal($("error"));
  }
  status("error", words);
}

// ---- the inputs: form <-> request <-> URL -----------------------------------------------

function needString() {
  const unitOf = (u) => (u === "size" || u === "rate" ? units()[u] : u);
  return NEEDS.map(([m, cmp, unit]) => [m, cmp, unitOf(unit), $("need-" + m).value.trim()])
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
  if ($("units").value !== "si") q.set("units", $("units").value);
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
  if (UNITS[q.get("units")]) $("units").value = q.get("units");
  $("units").dataset.was = $("units").value;
  unitWords();
  showHost();
  $("all").checked = q.get("all") === "1";
  return q;
}

// The space and speed fields' labels in the page's units.
function unitWords() {
  const u = units();
  for (const id of ["need-avail", "need-read", "need-write"]) {
    const text = [...$(id).closest("label").childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    text.textContent = text.textContent.replace(/\b(TB|TiB)\b/, u.size).replace(/\b(MB|MiB)\/s/, u.rate);
  }
}

// Another unit system: the needs typed kept as the same amounts, everything drawn again.
function switchUnits() {
  const from = $("units").dataset.was || "si";
  $("units").dataset.was = $("units").value;
  const ratio = (power) => (UNITS[from].base / units().base) ** power;
  for (const [id, power] of [["need-avail", 4], ["need-read", 2], ["need-write", 2]]) {
    const v = $(id).value.trim();
    if (v !== "" && Number.isFinite(Number(v))) $(id).value = String(Number((Number(v) * ratio(power)).toPrecision(6)));
  }
  unitWords();
  writeUrl();
  if (!plan) return;
  drawPlan();
  if (answers) drawAnswers(plan.evaluations[selected], selected);
}

function showHost() {
  $("host-parts").hidden = !usesFile();
  $("host-set").classList.toggle("wide", usesFile());
}

// ---- the plan: summary, chart, table ----------------------------------------------------

// Plans what the form says; `wanted` the layout to show in detail (else the recommendation);
// `bring` whether to bring the answer into view and focus its heading (after Plan is pressed).
async function runPlan(wanted, bring) {
  clearErrors();
  const errors = formErrors();
  if (errors.length) {
    errors.forEach(([field, sentence]) => showFieldError(field, sentence));
    reveal(errors[0][0], errorSlot(errors[0][0]));
    markStale();
    return status("error", errors.map((e) => e[1]).join(" "));
  }
  status("planning", "");
  try {
    plan = await api("/api/plan", planRequest());
  } catch (e) {
    fail(e);
    return markStale();
  }
  $("results").hidden = false;
  $("skip").hidden = false;
  $("stale").hidden = true;
  $("results").classList.remove("outdated");
  sorting = null;
  const index = plan.evaluations.findIndex((e) => e.layout === wanted);
  drawPlan();
  if (bring) reveal($("results-title"));
  say(`Planned: ${plural(plan.evaluations.length, "layout")}, ${plan.evaluations[plan.recommendation.index].layout} recommended.`);
  await select(index >= 0 ? index : plan.recommendation.index, false);
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
  $("results-title").textContent = `The plan: ${plan.disks} x ${plan.disk}`;
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

// A marker's outline centred on (x, y), about `r` across its middle; each symmetric about
// (x, y), so its box's centre is its value.
function marker(kind, x, y, r) {
  const p = (pts) => "M" + pts.map(([a, b]) => `${(x + a).toFixed(2)},${(y + b).toFixed(2)}`).join("L") + "Z";
  const s = r * 0.85, d = r * 1.2, w = r * 1.15;
  switch (kind) {
    case "square": return p([[-s, -s], [s, -s], [s, s], [-s, s]]);
    case "diamond": return p([[0, -d], [d, 0], [0, d], [-d, 0]]);
    case "up": return p([[0, -r], [w, r], [-w, r]]);
    case "down": return p([[0, r], [w, -r], [-w, -r]]);
    case "plus": {
      const a = r * 0.45, b = r * 1.15;
      return p([[-a, -b], [a, -b], [a, -a], [b, -a], [b, a], [a, a], [a, b], [-a, b], [-a, a], [-b, a], [-b, -a], [-a, -a]]);
    }
    default: return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
  }
}

// The fill of each loss class, told by its pattern as well as its colour: solid, diagonal
// stripes, a cross-hatch, dots on white.
function bandPatterns() {
  const pattern = (k, ...shapes) => el("pattern", { id: `band-${k}`, width: 4, height: 4,
    patternUnits: "userSpaceOnUse", "data-kind": ["solid", "stripes", "hatch", "dots"][k] },
  el("rect", { width: 4, height: 4, fill: k === 0 ? BAND_COLOURS[0] : "#fff" }), ...shapes);
  const c = BAND_COLOURS;
  return el("defs", {},
    pattern(0),
    pattern(1, el("path", { d: "M-1,1L1,-1M0,4L4,0M3,5L5,3", stroke: c[1], "stroke-width": 1.6 })),
    pattern(2, el("path", { d: "M0,0L4,4M4,0L0,4", stroke: c[2], "stroke-width": 1.4 })),
    pattern(3, el("circle", { cx: 2, cy: 2, r: 1, fill: c[3] })));
}

function axisValue(e, axis) {
  const f = e[axis];
  return AXES[axis][2] === "IOPS" ? f.iops : f.bytes_per_s / speedScale(axis);
}

// Bytes a second per unit of the speed axis: the page's unit for the fastest layout
// (MB/s or GB/s, MiB/s or GiB/s), as the table prints it.
function speedScale(axis) {
  const u = units(), top = Math.max(...plan.evaluations.map((e) => e[axis].bytes_per_s));
  return top >= u.base ** 3 ? u.base ** 3 : u.base ** 2;
}

function axisUnit(axis) {
  if (AXES[axis][2] === "IOPS") return "IOPS";
  return units().names[Math.round(Math.log(speedScale(axis)) / Math.log(units().base))] + "/s";
}

// The layouts no other drawn one beats on both axes drawn (at least as much space and speed,
// more of one): the chart's own front, by space.
function front2d(indices, xs, ys) {
  return indices.filter((i) => !indices.some((j) => xs[j] >= xs[i] && ys[j] >= ys[i]
    && (xs[j] > xs[i] || ys[j] > ys[i]))).sort((a, b) => xs[a] - xs[b] || ys[a] - ys[b]);
}

// Marks closer than `gap` px, in groups (each a list of indices into `at`): a mark is never
// moved off its value, so a group is told by a count beside it and its members are reached by
// the arrow keys, the tooltip and the table.
function groups(at, gap) {
  const group = at.map((_, k) => k);
  const root = (k) => (group[k] === k ? k : (group[k] = root(group[k])));
  at.forEach((a, k) => at.slice(0, k).forEach((b, j) => {
    if (Math.hypot(a.x - b.x, a.y - b.y) < gap) group[root(k)] = root(j);
  }));
  const out = new Map();
  at.forEach((_, k) => out.set(root(k), [...(out.get(root(k)) || []), k]));
  return [...out.values()];
}

function chartSize() {
  const W = Math.max(300, Math.min(900, $("chart-box").clientWidth - 14));
  return { W, H: W < 560 ? 400 : 420, L: 58, R: 16, T: 14, B: 46 };
}

// The grid, ticks and axis names of the chart, as its scales `sx`, `sy` put them.
function axes(frame, sx, sy, x, y, axis) {
  const { W, H, L, R, T, B } = frame;
  const deco = el("g", { "pointer-events": "none", "aria-hidden": "true" });
  for (const [v, label] of sx.ticks) {
    deco.append(el("line", { x1: x(v), x2: x(v), y1: T, y2: H - B, class: "grid" }),
      el("text", { x: x(v), y: H - B + 16, class: "tick", "text-anchor": "middle", "data-value": v, text: label }));
  }
  for (const [v, label] of sy.ticks) {
    deco.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      el("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end", "data-value": v, text: label }));
  }
  const [key, what] = AXES[axis];
  deco.append(el("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", class: "axis-label x-label",
    text: `usable space (AVAIL), ${units().size}` }),
  el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis-label y-label",
    transform: `rotate(-90 14 ${(T + H - B) / 2})`, text: `${what} (${plan.settings[key]}), ${axisUnit(axis)}` }));
  return deco;
}

function drawChart() {
  const frame = chartSize();
  const { W, H, L, R, T, B } = frame;
  const axis = $("axis").value;
  const evals = plan.evaluations;
  const xs = evals.map((e) => e.avail_bytes / units().base ** 4), ys = evals.map((e) => axisValue(e, axis));
  const sx = niceScale(xs, W < 560 ? 4 : 6), sy = niceScale(ys, 5);
  const x = (v) => L + ((v - sx.lo) / (sx.hi - sx.lo)) * (W - L - R);
  const y = (v) => H - B - ((v - sy.lo) / (sy.hi - sy.lo)) * (H - T - B);
  const svg = $("chart");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  const deco = axes(frame, sx, sy, x, y, axis);
  const all = evals.map((_, i) => i);
  const front = front2d(all, xs, ys);
  const indices = all.filter((i) => shown(i) || front.includes(i));
  all.filter((i) => !indices.includes(i)).forEach((i) => deco.append(el("circle", { cx: x(xs[i]), cy: y(ys[i]),
    r: 2.5, class: "background", fill: BAND_COLOURS[bandOf(evals[i])], "data-band": bandOf(evals[i]), "data-index": i })));
  const line = front.map((i) => `${x(xs[i]).toFixed(2)},${y(ys[i]).toFixed(2)}`);
  deco.append(el("polyline", { points: line.join(" "), class: "front-line" }));
  const radius = RADIUS[W < 560 ? "narrow" : "wide"];
  const order = indices.map((i) => [i, { x: x(xs[i]), y: y(ys[i]) }])
    .sort((a, b) => a[1].x - b[1].x || b[1].y - a[1].y);
  const together = groups(order.map((o) => o[1]), 2 * radius);
  const peers = new Map(together.flatMap((g) => g.map((k) => [order[k][0], g.map((j) => order[j][0])])));
  // The front and the recommendation drawn last, on top of any mark they overlap.
  const onTop = ([i]) => (i === plan.recommendation.index ? 2 : front.includes(i) ? 1 : 0);
  const points = el("g", { class: "points" }, order.slice().sort((a, b) => onTop(a) - onTop(b))
    .map(([i, p]) => chartPoint(i, p, axis, radius, front.includes(i), peers.get(i))));
  svg.replaceChildren(bandPatterns(), deco, points, groupCounts(together, order, radius),
    pickLabel(order, { left: L, right: W - R, top: T, bottom: H - B }));
  roving(points, order);
  drawLegend(line.length > 1);
  const overlapping = together.filter((g) => g.length > 1).length;
  $("chart-caption").textContent = `Each mark is a layout${$("all").checked ? " meeting the needs" : " on the Pareto front of the table, and the recommendation (small dots: the others)"}`
    + `, drawn at its values${overlapping ? `; where marks overlap, the number beside them says how many` : ""}. `
    + `Point at a mark for its figures, click it to see it in detail; by keyboard, Tab to the chart, the arrow keys move from layout to layout and Enter opens one.`;
  markSelected();
}

function chartPoint(i, p, axis, radius, onFront, peers) {
  const e = plan.evaluations[i];
  const band = bandOf(e);
  const fam = FAMILIES.find((f) => f[0] === family(e.layout));
  const words = `${e.layout}: ${size(e.avail_bytes)}, ${AXES[axis][1]} ${figure(e[axis])}, `
    + `P(data loss) ${probability(dataLoss(e))}` + (onFront ? ", on the front of space and this speed" : "")
    + (i === plan.recommendation.index ? ", recommended" : "");
  const g = el("g", {
    class: "point" + (onFront ? " front" : "") + (i === plan.recommendation.index ? " pick" : ""),
    tabindex: -1, role: "button", "aria-label": words, "data-index": i, "data-layout": e.layout,
    "data-band": band, "data-x": p.x.toFixed(2), "data-y": p.y.toFixed(2),
    on: {
      click: () => select(i, true),
      pointerenter: () => tooltip(i, p, peers), pointerleave: () => tooltip(null),
      focus: () => tooltip(i, p, peers), blur: () => tooltip(null),
    },
  },
  el("circle", { cx: p.x, cy: p.y, r: radius + 3.5, class: "halo" }),
  el("path", { d: marker(fam[2], p.x, p.y, radius), class: "mark", fill: `url(#band-${band})`,
    stroke: onFront ? "#1d1d1f" : BAND_COLOURS[band], "stroke-width": onFront ? 2 : 1 }));
  if (i === plan.recommendation.index) g.prepend(el("circle", { cx: p.x, cy: p.y, r: radius + 3.5, class: "pick-ring" }));
  return g;
}

// How many marks each group of overlapping ones holds, beside its upper right.
function groupCounts(together, order, radius) {
  return el("g", { class: "group-counts", "pointer-events": "none", "aria-hidden": "true" },
    together.filter((g) => g.length > 1).map((g) => {
      const right = Math.max(...g.map((k) => order[k][1].x)), top = Math.min(...g.map((k) => order[k][1].y));
      return el("text", { x: right + radius + 2, y: top - radius, class: "group-count", text: `${g.length}` });
    }));
}

// The chart's points as one Tab stop: the layout in detail (else the recommendation) takes
// the focus, and the arrow keys move it, by space, Home and End to the ends; Enter opens one.
function roving(points, order) {
  const marks = order.map(([i]) => points.querySelector(`[data-index="${i}"]`));
  let start = order.findIndex(([i]) => i === selected);
  if (start < 0) start = order.findIndex(([i]) => i === plan.recommendation.index);
  marks[Math.max(0, start)].setAttribute("tabindex", 0);
  points.addEventListener("keydown", (ev) => {
    const k = marks.indexOf(ev.target);
    if (k < 0) return;
    const to = { ArrowRight: k + 1, ArrowDown: k + 1, ArrowLeft: k - 1, ArrowUp: k - 1, Home: 0, End: marks.length - 1 }[ev.key];
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      select(order[k][0], true);
    } else if (to !== undefined) {
      ev.preventDefault();
      const next = marks[Math.min(marks.length - 1, Math.max(0, to))];
      marks.forEach((m) => m.setAttribute("tabindex", m === next ? 0 : -1));
      next.focus();
    }
  });
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

// The figures of layout `i` at `p`, and the layouts whose marks overlap its own (`peers`).
function tooltip(i, p, peers = []) {
  const tip = $("tooltip");
  if (i === null) { tip.hidden = true; return; }
  const e = plan.evaluations[i];
  const others = peers.filter((k) => k !== i).map((k) => plan.evaluations[k].layout);
  tip.replaceChildren(el("strong", { text: e.layout + (i === plan.recommendation.index ? " (recommended)" : "") }),
    el("br"), `AVAIL ${size(e.avail_bytes)}; read ${figure(e.read)}, write ${figure(e.write)}, ${figure(e.random)} random`,
    el("br"), `P(data loss) ${probability(dataLoss(e))} (${bands()[bandOf(e)][0].replace("P(data loss) ", "")})`,
    others.length ? el("br") : "", others.length ? `Here too: ${others.join(", ")}` : "");
  tip.hidden = false;
  const svg = $("chart").getBoundingClientRect(), box = $("chart-box").getBoundingClientRect();
  const left = Math.min(svg.left - box.left + p.x + 12, box.width - tip.offsetWidth - 4);
  tip.style.left = `${Math.max(4, left)}px`;
  tip.style.top = `${svg.top - box.top + p.y + 12}px`;
}

function swatch(kind, fill, stroke, width = 1) {
  return el("svg", { width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true" },
    kind === "line" ? el("line", { x1: 1, y1: 12, x2: 15, y2: 4, class: "front-line" })
      : el("path", { d: marker(kind, 8, 8, 5.5), fill, stroke, "stroke-width": width }));
}

// The legend of the families (shapes), the loss classes (patterns and colours) and the front
// (outline and line; a line when it has two layouts or more).
function drawLegend(withLine) {
  const families = new Set(plan.evaluations.map((e) => family(e.layout)));
  const items = FAMILIES.filter((f) => families.has(f[0]))
    .map(([, name, kind]) => el("li", {}, swatch(kind, "#fff", "#1d1d1f"), name));
  const used = new Set(plan.evaluations.map(bandOf));
  bands().forEach(([label, colour], k) => {
    if (used.has(k)) items.push(el("li", { class: "band", "data-band": k }, swatch("square", `url(#band-${k})`, colour), label));
  });
  items.push(el("li", {}, swatch("circle", "#fff", "#1d1d1f", 2), "thick outline: the front of these two axes (no other layout has as much space and speed, and more of one)"));
  if (withLine) items.push(el("li", {}, swatch("line", null, null), "line: the front, from the most speed to the most space"));
  $("legend").replaceChildren(...items);
}

// ---- the table --------------------------------------------------------------------------

// A figure's value to sort by: bytes a second for a stream, operations for random I/O.
const amount = (f) => (isRandom(f.workload) ? f.iops : f.bytes_per_s);
// A probability to sort by, unknown after every known one.
const chance = (p) => (p === null || p === undefined ? Infinity : p);

// Columns: [header, explanation or null, cell of an evaluation, shown on a phone, the value
// it sorts by].
function columns() {
  const s = plan.settings;
  const priced = plan.evaluations.some((e) => e.usd_per_usable_tb !== null);
  const cols = [
    ["", null, (e, i) => (i === plan.recommendation.index ? ">" : plan.on_front[i] ? "*" : ""), true, null],
    ["LAYOUT", null, (e) => e.layout, true, (e) => e.layout],
    ["SPARES", "hot spares: disks idle until one fails", (e) => String(e.hot_spares), false, (e) => e.hot_spares],
    ["AVAIL", "usable space of the empty pool, as zfs list shows it", (e) => size(e.avail_bytes), true, (e) => e.avail_bytes],
    ["READ", `sequential read, ${s.read}`, (e) => figure(e.read), false, (e) => amount(e.read)],
    ["WRITE", `sequential write, ${s.write}`, (e) => figure(e.write), true, (e) => amount(e.write)],
    ["RAND/s", `random reads a second, ${s.random}`, (e) => e.random.iops.toFixed(0), false, (e) => e.random.iops],
    ["DEGRADED", `hours a vdev runs with less redundancy after one disk fails, the pool ${(s.fill * 100).toFixed(0)}% full: `
      + "with no hot spare, the wait for a new disk, then the resilver onto it (dRAID with a distributed spare: "
      + "its short sequential rebuild); '-' for a stripe, which has nothing to rebuild from", degraded, false,
    (e) => (redundant(e) ? e.degraded_hours : Infinity)],
    ["P(POOL LOSS)", `the chance of losing the whole pool over ${s.years} years: more disks of one vdev fail `
      + "than it survives", (e) => probability(e.closed_form && e.closed_form.pool_loss), true,
    (e) => chance(e.closed_form && e.closed_form.pool_loss)],
    ["P(BLOCK LOSS)", `the chance over ${s.years} years that an unrecoverable read error loses some blocks, `
      + "not the pool, while a vdev has no redundancy left (a vdev without any: at its monthly scrub)",
    (e) => probability(e.closed_form && e.closed_form.block_loss), false, (e) => chance(e.closed_form && e.closed_form.block_loss)],
  ];
  if (priced) {
    cols.push(["$/TB", "price of all the disks per usable TB", (e) => (e.usd_per_usable_tb === null ? "-" : e.usd_per_usable_tb.toFixed(0)),
      false, (e) => (e.usd_per_usable_tb === null ? Infinity : e.usd_per_usable_tb)]);
  }
  s.extra.forEach((w, k) => cols.push([w, `also shown: ${w}`, (e) => figure(e.extra[k]), false, (e) => amount(e.extra[k])]));
  return cols;
}

// A column's heading: a button that sorts by it (its explanation shown on hover and focus).
function header([name, why, , key, value], k) {
  const cls = key ? "key" : "more";
  if (k === 0) return el("th", { class: cls, scope: "col" }, el("span", { class: "hidden-text", text: "mark" }));
  const order = sorting && sorting.k === k ? (sorting.dir > 0 ? "ascending" : "descending") : null;
  const tip = why ? el("span", { class: "tip", id: `col-${k}`, role: "tooltip", text: why }) : "";
  return el("th", { class: cls, scope: "col", "aria-sort": order },
    el("button", { type: "button", class: "sort" + (why ? " help" : ""), "aria-describedby": why ? `col-${k}` : null,
      "data-column": k, on: { click: () => sortBy(k) } }, name,
    el("span", { class: "arrow", "aria-hidden": "true", text: order ? (order === "ascending" ? " ▲" : " ▼") : "" }), tip));
}

// The table by column `k`: ascending first, descending on the second press.
function sortBy(k) {
  sorting = { k, dir: sorting && sorting.k === k ? -sorting.dir : 1 };
  drawTable();
  document.querySelector(`#layouts thead button[data-column="${k}"]`).focus();
  say(`The table is sorted by ${columns()[k][0]}, ${sorting.dir > 0 ? "ascending" : "descending"}.`);
}

// The layouts the table lists, in its order.
function tableOrder() {
  const listed = plan.evaluations.map((_, i) => i).filter(shown);
  if (!sorting) return listed;
  const value = columns()[sorting.k][4];
  const compare = (a, b) => (typeof a === "string" ? a.localeCompare(b, "en", { numeric: true }) : a - b || 0);
  return listed.sort((a, b) => sorting.dir * compare(value(plan.evaluations[a]), value(plan.evaluations[b])) || a - b);
}

function drawTable() {
  const cols = columns();
  $("layouts").tHead.replaceChildren(el("tr", {}, cols.map(header)));
  const rows = tableOrder().map((i) => {
    const e = plan.evaluations[i];
    return el("tr", {
      tabindex: 0, "data-index": i, "data-layout": e.layout, "data-avail-bytes": e.avail_bytes,
      class: i === plan.recommendation.index ? "pick" : "",
      on: {
        click: () => select(i, true),
        keydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(i, true); } },
      },
    }, cols.map(([, , cell, key]) => el("td", { class: key ? "key" : "more", text: cell(e, i) })));
  });
  $("layouts").tBodies[0].replaceChildren(...rows);
  markSelected();
}

// The table as CSV (RFC 4180: every field quoted, CRLF lines), every column, in its order.
function tableCsv() {
  const cols = columns();
  const quote = (v) => `"${String(v).replace(/"/g, '""')}"`;
  const lines = [cols.map((c, k) => quote(k === 0 ? "MARK" : c[0]))]
    .concat(tableOrder().map((i) => cols.map(([, , cell]) => quote(cell(plan.evaluations[i], i)))));
  return lines.map((l) => l.join(",")).join("\r\n") + "\r\n";
}

// Hands `text` to the browser as a file called `name`.
function save(name, text, type) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
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

// Shows layout `i` in detail; `bring`: its heading focused and in view (a row or a point
// was opened).
async function select(i, bring) {
  selected = i;
  answers = null;
  writeUrl();
  markSelected();
  const e = plan.evaluations[i];
  status("detail");
  $("detail").hidden = false;
  $("detail").dataset.layout = e.layout;
  $("grow").hidden = true; // until this layout's system file is in
  $("copied").textContent = "";
  $("detail-title").textContent = `${e.layout}` + (e.hot_spares ? ` + ${plural(e.hot_spares, "hot spare")}` : "")
    + (i === plan.recommendation.index ? " (recommended)" : "");
  drawFigures(e, i);
  if (bring) reveal($("detail-title"));
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
      ...workloads.map((w) => api("/api/predict", { system: text, workload: w, latency: true })),
    ]);
    if (selected !== i) return;
    systemText = text;
    answers = { space, safety, workloads, speeds, growth: null };
    drawAnswers(e, i);
    showGrow(e);
    status("ready", bring ? `${e.layout} in detail below the table.` : undefined);
  } catch (err) {
    if (selected === i) fail(err);
  }
}

// The layout's answers drawn (again, in other units).
function drawAnswers(e, i) {
  drawFigures(e, i);
  drawSpace(answers.space);
  drawSpeed(answers.workloads, answers.speeds);
  drawSafety(answers.safety, e);
  if (answers.growth) drawGrowth(...answers.growth);
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
    const seg = el("div", { class: `segment ${kind} s${k % 6}`, title: `${label}: ${size(bytes)}` });
    seg.style.width = `${(100 * bytes) / raw}%`;
    return seg;
  });
  $("space-bar").replaceChildren(...segments);
  $("space-bar").setAttribute("aria-label", parts.map(([l, b]) => `${l} ${size(b)}`).join(", "));
  $("space-legend").replaceChildren(...parts.map(([label, bytes], k) => el("li", {},
    el("span", { class: segments[k].className.replace("segment", "swatch") }),
    `${label}: ${size(bytes)} (${((100 * bytes) / raw).toFixed(1)}%)`)));
  $("space-lines").tBodies[0].replaceChildren(...space.breakdown.map((l) =>
    el("tr", { class: l.op, "data-bytes": l.bytes },
      el("td", { text: { start: "", minus: "−", total: "=" }[l.op] }),
      el("td", {}, el("span", { class: "what", text: l.label }), el("span", { class: "why", text: l.why })),
      el("td", { class: "num", text: size(l.bytes) }))));
  $("space-lines").dataset.avail = space.avail_bytes;
}

function drawSpeed(workloads, speeds) {
  $("speed").replaceChildren(...speeds.map((p, k) => el("div", {
    class: "workload", "data-workload": workloads[k], "data-bytes-per-s": p.throughput_bytes_per_s,
  },
  el("h4", { text: `${workloads[k]}: ${rate(p.throughput_bytes_per_s)}, ${p.iops.toFixed(0)} IOPS, `
    + `${(p.mean_latency_s * 1e3).toFixed(2)} ms mean latency` }),
  el("p", { class: "bottleneck", text: p.bottleneck.sentence }),
  latencyLine(p.latency_s),
  el("div", { class: "bars" }, p.utilizations.slice(0, 8).map((u) => {
    const fill = el("div", { class: "fill " + u.kind });
    fill.style.width = `${Math.min(100, u.utilization * 100)}%`;
    return el("div", { class: "bar-row", title: u.detail },
      el("span", { class: "resource", text: `${u.resource} (${u.kind})` }),
      el("span", { class: "bar", role: "img", "aria-label": `${(u.utilization * 100).toFixed(0)}% busy` }, fill),
      el("span", { class: "num", text: `${(u.utilization * 100).toFixed(0)}%` }));
  })))));
}

// The simulated completion-time percentiles (predict --latency), each also in its data-*
// attribute in seconds as the JSON gives it.
function latencyLine(l) {
  if (!l) return el("p", { class: "latency", text: "latency percentiles: not simulated" });
  const keys = [["p50", "p50"], ["p90", "p90"], ["p99", "p99"], ["p999", "p99.9"]];
  const attrs = Object.fromEntries(keys.map(([k]) => [`data-${k}`, l[k]]));
  return el("p", { class: "latency", ...attrs,
    text: "latency (simulated): " + keys.map(([k, name]) => `${name} ${(l[k] * 1e3).toFixed(2)} ms`).join(", ") });
}

// ---- growing a raidz: zpool attach, one disk per vdev a step (capacity --expand) ---------

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
    answers.growth = [answer.expansion, Number(disks.value)];
    drawGrowth(...answers.growth);
    status("ready", "The grown pool's space is shown.");
  } catch (err) {
    showFieldError(disks, plainWords(err.message.replace(/^--expand '[^']*': /, "")));
    status("error");
  }
}

function drawGrowth(x, disks) {
  const first = x.steps[0], last = x.steps[x.steps.length - 1];
  const vdevs = first.disks_added;
  const pct = (f) => (f.size_bytes ? (100 * f.alloc_bytes) / f.size_bytes : 0).toFixed(0) + "%";
  // The recordsize as zfs get prints the property (128K), a setting's name more than a size.
  const rs = x.recordsize >= 1 << 20 ? `${x.recordsize / (1 << 20)}M` : `${x.recordsize / 1024}K`;
  // One column per moment, one row per figure: three narrow columns fit a phone.
  const moments = [["before", `now, ${pct(first.before)} full`, first.before],
    ["after", `after adding ${plural(disks * vdevs, "disk")}`, last.after],
    ["rewritten", "after a rewrite of the old data", x.rewrite.after]];
  const head = el("tr", {}, el("td"), moments.map(([kind, label, f]) => el("th", {
    scope: "col", class: kind, "data-avail": f.avail_bytes, "data-fits": f.fits_bytes, text: label })));
  const figures = [["SIZE", (f) => size(f.size_bytes)], ["ALLOC", (f) => size(f.alloc_bytes)],
    ["zfs list AVAIL (old ratio)", (f) => size(f.avail_bytes)],
    [`new ${rs} records fit (new ratio)`, (f) => size(f.fits_bytes)]];
  const table = el("table", { class: "grow-table" }, el("thead", {}, head), el("tbody", {},
    figures.map(([name, cell]) => el("tr", {}, el("th", { scope: "row", text: name }),
      moments.map(([kind, , f]) => el("td", { class: kind, text: cell(f) }))))));
  const intro = `${first.from} with ${size(first.data_bytes)} of data, grown to ${last.to}:`;
  const cost = (c) => `${size(c.asize_bytes)} on disk for ${rs} of data (${(c.efficiency * 100).toFixed(1)}%)`;
  const records = last.records;
  const words = [
    `zfs list converts space at the first width's ratio, ${x.deflate_ratio}/512, for the vdev's life; `
      + `a vdev created as ${last.to.replace(/^\d+x /, "")} would use ${x.native_deflate_ratio}/512.`,
    `A ${rs} record written before costs ${cost(records[0])}; one written after, ${cost(records[records.length - 1])}.`,
    x.rewrite.records ? `Rewriting the old records (zfs send | zfs recv, or zfs rewrite from OpenZFS 2.4; snapshots keep `
      + `the old blocks) frees ${size(x.rewrite.alloc_freed_bytes)} and AVAIL grows by ${size(x.rewrite.avail_gained_bytes)}.`
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
  save(plan.evaluations[selected].layout.replace(/[^A-Za-z0-9]+/g, "-") + ".toml", systemText, "application/toml");
}

function downloadCsv() {
  const name = `zpoolsim-plan-${plan.disks}x-${plan.disk}`.replace(/[^A-Za-z0-9]+/g, "-") + ".csv";
  save(name, tableCsv(), "text/csv");
  say(`The table is downloaded as ${name}.`);
}

// The page's address on the clipboard, said beside the button; where the browser refuses,
// the address shown selected, to copy by hand.
async function copyLink() {
  try {
    await navigator.clipboard.writeText(location.href);
    $("copied").textContent = "Link copied.";
    say("A link to this page is copied.");
  } catch (_) {
    $("copied").replaceChildren("The browser does not let the page copy: the link is selected here, copy it by hand. ",
      el("input", { id: "link-text", readonly: true, value: location.href, "aria-label": "the link to this page" }));
    $("link-text").select();
    say("The link is selected beside the button: copy it by hand.");
  }
}

async function loadDisks() {
  const response = await fetch("/api/disks");
  const disks = await response.json();
  $("disk-list").replaceChildren(...disks.map((d) => el("option", {
    value: d.id, label: `${d.vendor} ${d.model}, ${size(d.capacity_bytes)} ${d.medium}`,
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
    runPlan(null, true);
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
  $("copy-link").addEventListener("click", copyLink);
  $("csv").addEventListener("click", downloadCsv);
  $("units").addEventListener("change", switchUnits);
  $("skip").addEventListener("click", (ev) => {
    ev.preventDefault();
    const row = document.querySelector("#layouts tbody tr");
    if (row) reveal(row);
  });
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
  if (q.has("disk") || q.has("system")) runPlan(q.get("layout"), false);
});
