//! The web page end to end, as a person uses it: `zpoolsim serve` on a free port, Debian's
//! headless Chromium driven over the DevTools protocol (scripts/test-deps.sh installs it),
//! disks and needs typed into the form, the plan's table and the chosen layout's figures read
//! off the page and checked against `zpoolsim plan --json` for the same input (and its latency
//! percentiles against `predict --latency --json` for its system); then the chart
//! (every mark within 1 px of its values, the front of its two axes, each opened by a click,
//! the CLI's loss bands as patterns), a phone's width, the answers and errors brought into view
//! with the focus, the errors of each field, the keyboard, the table's sorting, CSV and links,
//! gzip, and the fleet page, each at 1366 px and at a true 390 px viewport (DevTools device
//! emulation). Each keeps its screenshots in target/tmp (web-page-*.png).

mod common;

use common::browser::Browser;
use common::serve::Served;
use common::{skip, which};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;

/// The widths every check runs at: a desktop window and a phone.
const WIDTHS: [u32; 2] = [1366, 390];

/// One Chromium at a time: the tests share two cores with everything else.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// The server and a browser on its page, or `None` (said on stderr) without Chromium.
fn page(test: &str) -> Option<(Served, Browser, std::sync::MutexGuard<'static, ()>)> {
    let Some(chromium) = which("chromium") else {
        skip(
            test,
            "chromium is missing (scripts/test-deps.sh installs Debian's package)",
        );
        return None;
    };
    let guard = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let served = Served::start();
    let browser = Browser::launch(&chromium);
    Some((served, browser, guard))
}

/// Opens the page at `width` px and waits for its disk catalog.
fn open_at(browser: &mut Browser, served: &Served, width: u32, query: &str) {
    browser.viewport(width, 1000);
    browser.open(&format!("{}/{query}", served.url));
    browser.wait_for(
        "document.readyState === 'complete' && document.getElementById('disk-list').options.length > 0",
    );
    // A true phone's viewport: nothing wider than it widens the layout.
    assert_eq!(browser.eval("innerWidth"), json!(width), "the viewport");
}

/// Sets the form's fields as typing would (`null`: left empty) and presses Plan.
fn type_and_plan(browser: &mut Browser, fields: &[(&str, &str)]) {
    let script = format!(
        r#"(() => {{
  for (const [id, value] of {}) {{
    const field = document.getElementById(id);
    field.focus();
    field.value = value;
    field.dispatchEvent(new Event("input", {{ bubbles: true }}));
  }}
  document.getElementById("plan").click();
  return true;
}})()"#,
        json!(fields)
    );
    assert_eq!(browser.eval(&script), json!(true));
}

/// What the page shows: the table's rows and the layout in detail.
const READ_PAGE: &str = r##"(() => {
  const rows = [...document.querySelectorAll("#layouts tbody tr")].map((tr) => {
    const cells = [...tr.cells].map((c) => c.textContent);
    return { mark: cells[0], layout: tr.dataset.layout, avail_bytes: Number(tr.dataset.availBytes),
      cells: cells.slice(1) };
  });
  const workloads = [...document.querySelectorAll("#speed .workload")].map((w) => ({
    workload: w.dataset.workload, bytes_per_s: Number(w.dataset.bytesPerS),
    bottleneck: w.querySelector(".bottleneck").textContent,
    latency: (({ dataset: d, textContent: text }) => ({ text, p50: Number(d.p50),
      p90: Number(d.p90), p99: Number(d.p99), p999: Number(d.p999) }))(w.querySelector(".latency")),
    bars: w.querySelectorAll(".bar-row").length }));
  return {
    rows, workloads,
    summary: document.getElementById("summary").textContent,
    layout: document.getElementById("detail").dataset.layout,
    avail_bytes: Number(document.getElementById("space-lines").dataset.avail),
    space_segments: document.querySelectorAll("#space-bar .segment").length,
    space_legend: document.querySelectorAll("#space-legend li").length,
    rebuilds: document.querySelectorAll("#safety .rebuild").length,
    degraded_words: (document.querySelector("#safety .degraded-words") || {}).textContent || "",
    monte_carlo: (document.querySelector("#safety .monte-carlo") || {}).textContent || "",
    chart_points: document.querySelectorAll("#chart .point").length,
    chart_marks: document.querySelectorAll("#chart .point, #chart .background").length,
    disk: document.getElementById("disk").value,
    search: location.search,
  };
})()"##;

/// The layouts no other beats on both space and `axis` (at least as much of each, more of
/// one): the front the chart draws, which is the Pareto front of its two axes.
fn front_of(plan: &Value, axis: &str) -> BTreeSet<usize> {
    let figure = |e: &Value| {
        let f = &e[axis];
        let v = if axis == "random" {
            &f["iops"]
        } else {
            &f["bytes_per_s"]
        };
        (e["avail_bytes"].as_f64().unwrap(), v.as_f64().unwrap())
    };
    let all: Vec<(f64, f64)> = plan["evaluations"]
        .as_array()
        .unwrap()
        .iter()
        .map(figure)
        .collect();
    let beaten = |a: (f64, f64)| {
        all.iter()
            .any(|b| b.0 >= a.0 && b.1 >= a.1 && (b.0 > a.0 || b.1 > a.1))
    };
    (0..all.len()).filter(|&i| !beaten(all[i])).collect()
}

/// The table's AVAIL, READ and WRITE as `zpoolsim plan` prints them (model::units).
fn decimal(value: f64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB", "PB"];
    let (mut v, mut unit) = (value, 0);
    while v >= 1000.0 && unit + 1 < units.len() {
        v /= 1000.0;
        unit += 1;
    }
    format!("{v:.1} {}", units[unit])
}

/// A probability as `zpoolsim plan` prints it (plan::format_probability).
fn probability(p: &Value) -> String {
    p.as_f64()
        .map_or("unknown".into(), plan::format_probability)
}

/// The page's table and chosen layout against the plan's JSON, cell by cell as the CLI
/// prints them.
fn check_against_plan(page: &Value, plan: &Value, chosen: usize) {
    let evaluations = plan["evaluations"].as_array().unwrap();
    let on_front = plan["on_front"].as_array().unwrap();
    let pick = plan["recommendation"]["index"].as_u64().unwrap() as usize;
    let shown: Vec<usize> = (0..evaluations.len())
        .filter(|&i| on_front[i] == true || i == pick)
        .collect();
    let rows = page["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        shown.len(),
        "the table shows the front and the pick"
    );
    for (row, &i) in rows.iter().zip(&shown) {
        let e = &evaluations[i];
        assert_eq!(row["layout"], e["layout"]);
        assert_eq!(row["avail_bytes"], e["avail_bytes"], "{}", e["layout"]);
        let rate = |f: &Value| decimal(f["bytes_per_s"].as_f64().unwrap()) + "/s";
        let degraded = if e["layout"].as_str().unwrap().starts_with("stripe") {
            "-".to_string()
        } else {
            format!("{:.1} h", e["degraded_hours"].as_f64().unwrap())
        };
        let expected = json!([
            e["layout"],
            e["hot_spares"].to_string(),
            decimal(e["avail_bytes"].as_f64().unwrap()),
            rate(&e["read"]),
            rate(&e["write"]),
            format!("{:.0}", e["random"]["iops"].as_f64().unwrap()),
            degraded,
            probability(&e["closed_form"]["pool_loss"]),
            probability(&e["closed_form"]["block_loss"]),
        ]);
        assert_eq!(row["cells"], expected, "as the CLI prints {}", e["layout"]);
        assert_eq!(row["mark"], if i == pick { ">" } else { "*" });
    }
    let drawn: BTreeSet<usize> = shown
        .iter()
        .copied()
        .chain(front_of(plan, "write"))
        .collect();
    assert_eq!(page["chart_points"], json!(drawn.len()));
    assert_eq!(page["chart_marks"], json!(evaluations.len()));
    let e = &evaluations[chosen];
    assert_eq!(page["layout"], e["layout"]);
    assert_eq!(
        page["avail_bytes"], e["avail_bytes"],
        "the detail's AVAIL is the plan's"
    );
    let workloads = page["workloads"].as_array().unwrap();
    let figures = [&e["read"], &e["write"], &e["random"]];
    assert_eq!(workloads.len(), figures.len());
    for (w, f) in workloads.iter().zip(figures) {
        assert_eq!(w["workload"], f["workload"]);
        assert_eq!(w["bytes_per_s"], f["bytes_per_s"], "{}", f["workload"]);
        assert_eq!(w["bottleneck"], f["bottleneck"]);
        assert!(
            w["bars"].as_u64().unwrap() >= 1,
            "bars for {}",
            f["workload"]
        );
    }
    assert!(page["space_segments"].as_u64().unwrap() >= 3, "{page}");
    assert_eq!(
        page["space_legend"], page["space_segments"],
        "a legend entry per segment"
    );
    assert!(page["rebuilds"].as_u64().unwrap() >= 1, "{page}");
    assert!(
        page["degraded_words"]
            .as_str()
            .unwrap()
            .contains("DEGRADED"),
        "{page}"
    );
    assert!(
        page["monte_carlo"].as_str().unwrap().contains(" .. "),
        "{page}"
    );
}

/// Each workload's latency percentiles on the page (issue 28) are `predict --latency --json`'s
/// for the system the page planned the layout with, and its text shows them in ms.
fn check_latency(browser: &mut Browser, page: &Value) {
    let scratch = common::Scratch::new("web-latency");
    let system = scratch.path("system.toml");
    let text = browser.eval("systemText");
    std::fs::write(&system, text.as_str().expect("the page keeps its system")).unwrap();
    for w in page["workloads"].as_array().unwrap() {
        let workload = w["workload"].as_str().unwrap();
        let cli = common::json(&["predict", &system, "-w", workload, "--latency", "--json"]);
        let want = &cli["latency_s"];
        let shown = &w["latency"];
        let mut words = Vec::new();
        for (key, name) in [
            ("p50", "p50"),
            ("p90", "p90"),
            ("p99", "p99"),
            ("p999", "p99.9"),
        ] {
            assert_eq!(shown[key], want[key], "{workload} {key}");
            words.push(format!(
                "{name} {:.2} ms",
                want[key].as_f64().unwrap() * 1e3
            ));
        }
        let line = format!("latency (simulated): {}", words.join(", "));
        assert_eq!(shown["text"], json!(line), "{workload}");
    }
}

/// Runs `check` at each width on the page opened at `query` once it has answered.
fn at_each_width(test: &str, query: &str, mut check: impl FnMut(&mut Browser, &Served, u32)) {
    let Some((served, mut browser, _one)) = page(test) else {
        return;
    };
    for width in WIDTHS {
        open_at(&mut browser, &served, width, query);
        browser.wait_until_ready();
        check(&mut browser, &served, width);
    }
}

#[test]
fn plan_on_the_page_as_on_the_command_line() {
    let Some((served, mut browser, _one)) = page("web page end to end") else {
        return;
    };
    let plan = common::json(&[
        "plan",
        "--disks",
        "24",
        "--disk",
        "16TB",
        "--need",
        "avail>=200TB,loss<=1%",
        "--json",
    ]);
    let pick = plan["recommendation"]["index"].as_u64().unwrap() as usize;
    for width in WIDTHS {
        open_at(&mut browser, &served, width, "");
        let fields = [
            ("disk", "16TB"),
            ("disks", "24"),
            ("need-avail", "200"),
            ("need-loss", "1"),
        ];
        type_and_plan(&mut browser, &fields);
        browser.wait_until_ready();
        let page = browser.eval(READ_PAGE);
        check_against_plan(&page, &plan, pick);
        check_latency(&mut browser, &page);
        let summary = page["summary"].as_str().unwrap();
        let meet = plan["evaluations"].as_array().unwrap().len();
        assert!(
            summary.contains(&format!("{meet} meet avail>=200.0 TB, loss<=1.0%"))
                && summary
                    .contains("aims to keep P(data loss over 5 years) at most 1.0%, your need."),
            "{summary}"
        );
        let search = page["search"].as_str().unwrap();
        assert!(
            search.contains("disks=24") && search.contains("need=avail"),
            "{search}"
        );
        browser.keep_screenshot(&format!("web-page-plan-{width}.png"));

        // Another layout, chosen from the table, then the page's own link opened afresh.
        let other = page["rows"][0]["layout"].as_str().unwrap().to_string();
        browser.eval("document.querySelector('#layouts tbody tr').click(), true");
        let shows_other = format!(
            "document.getElementById('detail')?.dataset.layout === {}",
            json!(other)
        );
        browser.wait_for(&shows_other);
        browser.wait_until_ready();
        let href = browser.eval("window.left = true, location.href");
        browser.open(href.as_str().unwrap());
        browser.wait_for("window.left === undefined && document.readyState === 'complete'");
        browser.wait_for(&shows_other);
        browser.wait_until_ready();
        let reopened = browser.eval(READ_PAGE);
        let chosen = plan["evaluations"]
            .as_array()
            .unwrap()
            .iter()
            .position(|e| e["layout"] == json!(other))
            .unwrap();
        check_against_plan(&reopened, &plan, chosen);
        assert_eq!(reopened["disk"], "16TB");
    }
}

/// The chart's marks: layout, band, centre on the viewport, the value on the speed axis;
/// the tick labels of each axis and the size chart text is drawn at.
const READ_CHART: &str = r##"(() => {
  document.getElementById("chart").scrollIntoView({ block: "center" });
  const points = [...document.querySelectorAll("#chart .point")].map((g) => {
    const r = g.querySelector(".mark").getBoundingClientRect();
    return { layout: g.dataset.layout, index: Number(g.dataset.index), band: Number(g.dataset.band),
      front: g.classList.contains("front"), x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  const bands = {};
  for (const m of document.querySelectorAll("#chart .point, #chart .background")) {
    bands[m.dataset.band] = (bands[m.dataset.band] || 0) + 1;
  }
  const legend = {};
  for (const li of document.querySelectorAll("#legend li.band")) legend[li.dataset.band] = li.textContent;
  const ticks = (anchor) => [...document.querySelectorAll(`#chart .tick[text-anchor=${anchor}]`)]
    .map((t) => t.textContent);
  const text = document.querySelector("#chart .tick").getBoundingClientRect();
  const families = [...document.querySelectorAll("#legend li")].map((li) => li.textContent);
  const grid = (anchor) => [...document.querySelectorAll(`#chart .tick[text-anchor=${anchor}]`)].map((t) => {
    const line = t.previousElementSibling.getBoundingClientRect();
    return [Number(t.dataset.value), anchor === "middle" ? line.left : line.top];
  });
  const dots = [...document.querySelectorAll("#chart .background")].map((c) => {
    const r = c.getBoundingClientRect();
    return { index: Number(c.dataset.index), x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  const fills = {};
  for (const g of document.querySelectorAll("#chart .point")) {
    const id = g.querySelector(".mark").getAttribute("fill").replace(/^url\(#(.*)\)$/, "$1");
    const pattern = document.getElementById(id);
    fills[g.dataset.band] = pattern ? [...pattern.children].map((c) => c.tagName + " " + (c.getAttribute("d") || c.getAttribute("r") || "")).join(";") : id;
  }
  return { points, dots, bands, legend, fills, x_ticks: ticks("middle"), y_ticks: ticks("end"),
    x_grid: grid("middle"), y_grid: grid("end"),
    x_label: document.querySelector("#chart .x-label").textContent,
    y_label: document.querySelector("#chart .y-label").textContent,
    text_height: text.height, families };
})()"##;

/// Whether tick labels step evenly by 1, 2 or 5 times a power of ten.
fn nice(ticks: &[Value]) -> bool {
    let values: Vec<f64> = ticks
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap())
        .collect();
    let step = values[1] - values[0];
    let mantissa = step / 10f64.powf(step.log10().floor());
    values
        .windows(2)
        .all(|w| ((w[1] - w[0]) - step).abs() < step * 1e-6)
        && [1.0, 2.0, 5.0].iter().any(|m| (mantissa - m).abs() < 1e-6)
}

/// The value of the first `fill="..."` of an SVG line.
fn fill_of(line: &str) -> &str {
    let after = line.split("fill=\"").nth(1).expect("a fill");
    after.split('"').next().unwrap()
}

/// P(data loss) classes of the CLI's plan.svg: each series' legend label and its points.
fn cli_bands(svg: &str) -> BTreeMap<String, usize> {
    let legend = svg
        .lines()
        .filter(|l| l.starts_with("<rect") && l.contains("<text"));
    let colours: BTreeMap<&str, String> = legend
        .map(|line| {
            let label = line.split('>').nth(2).unwrap().split('<').next().unwrap();
            (
                fill_of(line),
                label.replace("&lt;", "<").replace("&gt;", ">"),
            )
        })
        .collect();
    let mut counts = BTreeMap::new();
    for line in svg.lines().filter(|l| l.contains("r=\"3\"")) {
        *counts.entry(colours[fill_of(line)].clone()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn the_chart_draws_each_layout_at_its_values_and_opens_each() {
    let Some((served, mut browser, _one)) = page("the web page's chart") else {
        return;
    };
    let plan = common::json(&["plan", "--disks", "24", "--disk", "16TB", "--json"]);
    let svg = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-page-plan.svg");
    let _ = std::fs::remove_file(&svg);
    let (code, _, err) = common::run(&[
        "plan",
        "--disks",
        "24",
        "--disk",
        "16TB",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let cli = cli_bands(&std::fs::read_to_string(&svg).unwrap());
    for width in WIDTHS {
        open_at(&mut browser, &served, width, "?disk=16TB&disks=24");
        browser.wait_until_ready();
        let chart = browser.eval(READ_CHART);
        browser.keep_screenshot(&format!("web-page-chart-{width}.png"));
        browser.keep_screenshot_of("#chart-box", &format!("web-page-chart-only-{width}.png"));
        let worst = marks_at_their_values(&chart, &plan, "write");
        println!("at {width} px the marks sit at most {worst:.2} px off their values");
        let front: BTreeSet<usize> = chart["points"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["front"] == true)
            .map(|p| p["index"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(
            front,
            front_of(&plan, "write"),
            "the front of the axes drawn"
        );
        let (xt, yt) = (&chart["x_ticks"], &chart["y_ticks"]);
        assert!(
            nice(xt.as_array().unwrap()) && nice(yt.as_array().unwrap()),
            "{xt} {yt}"
        );
        let text = chart["text_height"].as_f64().unwrap();
        assert!(text >= 12.0, "chart text {text} px high at {width} px");
        check_legend(&chart, &plan, &cli);
        open_each_front_point(&mut browser, &front);
    }
    // On another axis (random reads) the front and the marks follow that axis.
    for width in WIDTHS {
        let query = "?disk=16TB&disks=24&axis=random";
        open_at(&mut browser, &served, width, query);
        browser.wait_until_ready();
        let chart = browser.eval(READ_CHART);
        browser.keep_screenshot_of("#chart-box", &format!("web-page-chart-random-{width}.png"));
        marks_at_their_values(&chart, &plan, "random");
        let front: BTreeSet<usize> = chart["points"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["front"] == true)
            .map(|p| p["index"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(front, front_of(&plan, "random"));
        assert!(nice(chart["y_ticks"].as_array().unwrap()), "{chart}");
    }
}

/// The value a pixel stands for on an axis, from two of its grid lines: [value, px] pairs.
fn axis_map(grid: &Value) -> impl Fn(f64) -> f64 {
    let lines = grid.as_array().unwrap();
    let at = |k: usize| (lines[k][0].as_f64().unwrap(), lines[k][1].as_f64().unwrap());
    let ((v0, p0), (v1, p1)) = (at(0), at(lines.len() - 1));
    move |v| p0 + (v - v0) * (p1 - p0) / (v1 - v0)
}

/// Every mark (points and small dots) within 1 px of where the plan's values put it on the
/// chart's own axes; the largest distance seen.
fn marks_at_their_values(chart: &Value, plan: &Value, axis: &str) -> f64 {
    let (x, y) = (axis_map(&chart["x_grid"]), axis_map(&chart["y_grid"]));
    let x_label = chart["x_label"].as_str().unwrap();
    assert!(x_label.ends_with(", TB"), "{x_label}");
    let y_label = chart["y_label"].as_str().unwrap();
    let per_unit = match y_label.rsplit(", ").next().unwrap() {
        "IOPS" => 1.0,
        "MB/s" => 1e6,
        "GB/s" => 1e9,
        unit => panic!("a speed axis in {unit}"),
    };
    let marks = chart["points"].as_array().unwrap();
    let dots = chart["dots"].as_array().unwrap();
    let evaluations = plan["evaluations"].as_array().unwrap();
    assert_eq!(marks.len() + dots.len(), evaluations.len());
    let mut worst: f64 = 0.0;
    for m in marks.iter().chain(dots) {
        let e = &evaluations[m["index"].as_u64().unwrap() as usize];
        let speed = if axis == "random" {
            e[axis]["iops"].as_f64().unwrap()
        } else {
            e[axis]["bytes_per_s"].as_f64().unwrap() / per_unit
        };
        let want = (x(e["avail_bytes"].as_f64().unwrap() / 1e12), y(speed));
        let off = (m["x"].as_f64().unwrap() - want.0).hypot(m["y"].as_f64().unwrap() - want.1);
        assert!(
            off <= 1.0,
            "{} is drawn {off:.2} px off its values: {m}",
            e["layout"]
        );
        worst = worst.max(off);
    }
    worst
}

/// The legend names the families the plan has; the loss classes are the CLI's plan.svg's,
/// each of as many layouts, and each told by its pattern as well as its colour.
fn check_legend(chart: &Value, plan: &Value, cli: &BTreeMap<String, usize>) {
    let families = chart["families"].to_string();
    for (family, named) in [
        ("mirror", "mirror"),
        ("raidz1", "raidz1"),
        ("raidz2", "raidz2"),
        ("raidz3", "raidz3"),
        ("draid", "dRAID"),
    ] {
        let planned = plan["evaluations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["layout"].as_str().unwrap().contains(family));
        assert_eq!(
            families.contains(&format!("\"{named}\"")),
            planned,
            "{family} in the legend as in the plan: {families}"
        );
    }
    let page_bands: BTreeMap<String, usize> = chart["bands"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| {
            let label = chart["legend"][k].as_str().unwrap().to_string();
            (label, n.as_u64().unwrap() as usize)
        })
        .collect();
    assert_eq!(&page_bands, cli, "the page's loss classes are the CLI's");
    let fills = chart["fills"].as_object().unwrap();
    let patterns: BTreeSet<&str> = fills.values().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(
        patterns.len(),
        fills.len(),
        "a pattern per loss class: {fills:?}"
    );
}

/// A click at the centre of each front point opens the layout whose mark is on top there:
/// that point's, or one overlapping it.
fn open_each_front_point(browser: &mut Browser, front: &BTreeSet<usize>) {
    for index in front {
        let at = browser.eval(&format!(
            "(() => {{ const g = document.querySelector('#chart .point[data-index=\"{index}\"]'); g.scrollIntoView({{ block: 'center' }}); const r = g.querySelector('.mark').getBoundingClientRect(); const [x, y] = [r.left + r.width / 2, r.top + r.height / 2]; const hit = document.elementFromPoint(x, y).closest('.point'); return [x, y, hit.dataset.layout, Math.hypot(Number(hit.dataset.x) - Number(g.dataset.x), Number(hit.dataset.y) - Number(g.dataset.y))]; }})()"
        ));
        assert!(at[3].as_f64().unwrap() < 12.0, "{index} is hidden: {at}");
        browser.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let opened = format!(
            "document.getElementById('detail').dataset.layout === {}",
            at[2]
        );
        browser.wait_for(&opened);
        browser.wait_until_ready();
        let seen = browser.eval(IN_VIEW_AND_FOCUSED.replace("ID", "detail-title").as_str());
        assert_eq!(seen, json!([true, true]), "the detail of {index}");
    }
}

/// Whether the element of id ID is inside the viewport and has the focus.
const IN_VIEW_AND_FOCUSED: &str = r##"(() => {
  const e = document.getElementById("ID");
  const r = e.getBoundingClientRect();
  return [r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth, document.activeElement === e];
})()"##;

#[test]
fn one_layout_reads_in_the_singular() {
    at_each_width(
        "the web page's words",
        "?disk=16TB&disks=1",
        |browser, _, _| {
            let summary = browser.eval("document.getElementById('summary').textContent");
            let summary = summary.as_str().unwrap();
            assert!(
            summary.contains(
                ": 1 layout evaluated; no needs given, so it is listed; 1 on the Pareto front (*)"
            ) && summary.ends_with("the default target: set your own."),
            "{summary}"
        );
            assert_eq!(
                browser.eval("document.querySelectorAll('#chart .point').length"),
                1
            );
        },
    );
}

#[test]
fn a_phone_never_scrolls_sideways() {
    let query = "?disk=16TB&disks=24&workload=fio-randwrite";
    let plan = common::json(&[
        "plan",
        "--disks",
        "24",
        "--disk",
        "16TB",
        "--workload",
        "fio-randwrite",
        "--json",
    ]);
    at_each_width("the web page on a phone", query, |browser, _, width| {
        let host = "document.getElementById('host-file').click(), true";
        browser.eval(host);
        let seen = browser.eval(
            r##"(() => {
  const box = (id) => document.getElementById(id).getBoundingClientRect();
  const [host, work] = [box("host-set"), box("workload-set")];
  const apart = host.bottom <= work.top || work.bottom <= host.top || host.right <= work.left || work.right <= host.left;
  const columns = [...document.querySelectorAll("#layouts thead th")].filter((th) => th.offsetWidth > 0).length;
  const figures = document.querySelectorAll("#figures dt").length;
  const explained = [...document.querySelectorAll("#columns dt")].map((dt) => dt.textContent);
  const tips = [...document.querySelectorAll("#layouts thead .help")].map((h) => h.firstChild.textContent);
  return { scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth,
    viewport: window.innerWidth, apart, columns, figures, explained, tips };
})()"##,
        );
        browser.keep_screenshot(&format!("web-page-phone-{width}.png"));
        for (part, selector) in [
            ("form", "#inputs"),
            ("table", ".table-box"),
            ("detail", "#detail"),
        ] {
            browser.keep_screenshot_of(selector, &format!("web-page-phone-{part}-{width}.png"));
        }
        let viewport = seen["viewport"].as_u64().unwrap();
        assert_eq!(viewport, u64::from(width));
        assert!(
            seen["scroll"].as_u64().unwrap() <= viewport
                && seen["body"].as_u64().unwrap() <= viewport,
            "{seen}"
        );
        assert_eq!(
            seen["apart"], true,
            "the Host box overlaps Workload: {seen}"
        );
        // The table keeps its key columns on a phone; the detail has every figure.
        let columns = seen["columns"].as_u64().unwrap();
        if width < 600 {
            assert_eq!(columns, 5, "{seen}");
        } else {
            assert_eq!(columns, 11, "{seen}");
        }
        assert_eq!(seen["figures"], 10, "{seen}");
        // The columns a reader may not know are explained where they are, and under the table.
        let hard = ["DEGRADED", "P(POOL LOSS)", "P(BLOCK LOSS)"];
        for column in hard {
            assert!(seen["tips"].to_string().contains(column), "{seen}");
            assert!(seen["explained"].to_string().contains(column), "{seen}");
        }
        // Every layout in the table and on the chart: still no sideways scroll.
        let every = browser.eval(
            "document.getElementById('all').click(), [document.querySelectorAll('#layouts tbody tr').length, document.querySelectorAll('#chart .point').length, document.documentElement.scrollWidth]",
        );
        let evaluated = plan["evaluations"].as_array().unwrap().len();
        assert_eq!(every[0], json!(evaluated), "{every}");
        assert_eq!(every[1], json!(evaluated), "{every}");
        assert!(every[2].as_u64().unwrap() <= viewport, "{every}");
        browser.keep_screenshot_of("#chart-box", &format!("web-page-all-{width}.png"));
    });
}

/// Puts `value` in field `id`, presses Plan and waits for the page to answer; then reads
/// where the error shows, whether the last results are still there, and puts `good` back.
fn error_of(browser: &mut Browser, id: &str, value: &str, good: &str) -> Value {
    type_and_plan(browser, &[(id, value)]);
    browser.wait_for("['error', 'ready'].includes(document.body.dataset.status)");
    let seen = browser.eval(&format!(
        r##"(() => {{
  const field = document.getElementById({id});
  const slot = document.getElementById({id} + "-error");
  const shown = [...document.querySelectorAll(".field-error")].filter((s) => !s.hidden);
  const top = document.getElementById("error");
  return {{ status: document.body.dataset.status, slot: slot && !slot.hidden ? slot.textContent : null,
    described: (field.getAttribute("aria-describedby") || "").includes({id} + "-error"),
    beside: !!slot && (slot.previousElementSibling === field.closest("label") || field.closest("label").contains(slot)),
    shown: shown.length, top: top.hidden ? null : top.textContent,
    rows: document.querySelectorAll("#layouts tbody tr").length,
    results: !document.getElementById("results").hidden }};
}})()"##,
        id = json!(id)
    ));
    let field = [(id, good)];
    let reset = format!(
        "(() => {{ for (const [id, v] of {}) document.getElementById(id).value = v; return true; }})()",
        json!(field)
    );
    browser.eval(&reset);
    seen
}

#[test]
fn every_input_error_shows_beside_its_field() {
    // Each field with a wrong value, and the good value put back after.
    let checked_here = [
        ("disks", "-3", "24"),
        ("disks", "2.5", "24"),
        ("disks", "5000", "24"),
        ("disk", "", "16TB"),
        ("price", "-10", ""),
        ("spares", "-1", "0"),
        ("min_redundancy", "4", "0"),
        ("fill", "150%", ""),
        ("years", "0", ""),
        ("need-avail", "-1", ""),
        ("need-loss", "200", ""),
        ("need-read", "-5", ""),
        ("need-write", "-5", ""),
        ("need-iops", "-5", ""),
    ];
    // Fields only the server can judge: beside the field the API's answer names.
    let checked_there = [
        ("disk", "no-such-disk-at-all", "16TB"),
        ("read", "no-such-workload", ""),
        ("workload", "fio-randread:bs=banana", ""),
        ("spares", "30", "0"),
    ];
    at_each_width(
        "the web page's errors",
        "?disk=16TB&disks=24",
        |browser, _, width| {
            for (id, bad, good) in checked_here.iter().chain(&checked_there) {
                let seen = error_of(browser, id, bad, good);
                assert_eq!(seen["status"], "error", "{id} = {bad:?}: {seen}");
                assert_eq!(seen["results"], true, "earlier results kept: {seen}");
                assert!(seen["rows"].as_u64().unwrap() > 0, "{seen}");
                let sentence = match (&seen["slot"], &seen["top"]) {
                    (Value::String(s), Value::Null) => {
                        assert_eq!(seen["beside"], true, "{id}: {seen}");
                        assert_eq!(seen["described"], true, "{id}: {seen}");
                        assert_eq!(seen["shown"], 1, "{id}: one error: {seen}");
                        s.clone()
                    }
                    _ => panic!("{id} = {bad:?}: the error is not beside the field: {seen}"),
                };
                let sentences = sentence.matches(". ").count() + 1;
                assert!(
                    !sentence.contains("--") && sentence.ends_with('.') && sentences == 1,
                    "{id} = {bad:?}: {sentence}"
                );
            }
            // The API's refusals name their field ({"error", "field"}): each shows beside it.
            let named = [
                ("disk", "disk"),
                ("spares", "spares"),
                ("read", "read"),
                ("workload", "workload"),
                ("fill", "fill"),
                ("need", "need-set"),
                ("system", "host-set"),
            ];
            for (field, target) in named {
                let seen = browser.eval(&format!(
                    r#"(() => {{
  clearErrors();
  fail(new ApiError("That is not right.", {field}));
  const slot = document.getElementById({target} + "-error");
  const shown = [...document.querySelectorAll(".field-error")].filter((s) => !s.hidden).length;
  return {{ slot: slot && !slot.hidden ? slot.textContent : null, shown,
    top: document.getElementById("error").hidden }};
}})()"#,
                    field = json!(field),
                    target = json!(target)
                ));
                let expected = json!({"slot": "That is not right.", "shown": 1, "top": true});
                assert_eq!(seen, expected, "{field}");
            }
            // The server's refusal of no disks at all shows beside How many, with the focus.
            let zero = r#"(async () => {
  clearErrors();
  try { await api("/api/plan", { disks: 0, disk: "16TB" }); } catch (e) { fail(e); }
  const slot = document.getElementById("disks-error");
  return [slot && !slot.hidden ? slot.textContent : null, document.activeElement.id];
})()"#;
            let seen = browser.eval(zero);
            assert_eq!(seen, json!(["a pool needs at least one disk.", "disks"]));
            // Several at once: each beside its own field.
            let bad = [("disks", "-3"), ("years", "0"), ("need-loss", "200")];
            type_and_plan(browser, &bad);
            browser.wait_for("document.body.dataset.status === 'error'");
            let shown = browser.eval(
            "[...document.querySelectorAll('.field-error')].filter((s) => !s.hidden).map((s) => s.id)",
        );
            assert_eq!(
                shown,
                json!(["disks-error", "years-error", "need-loss-error"])
            );
            browser.keep_screenshot(&format!("web-page-errors-{width}.png"));
            browser.keep_screenshot_of("#inputs", &format!("web-page-errors-form-{width}.png"));
            let good = [("disks", "24"), ("years", ""), ("need-loss", "")];
            type_and_plan(browser, &good);
            browser.wait_until_ready();
        },
    );
}

#[test]
fn tab_reaches_every_row_and_chart_point() {
    at_each_width(
        "the web page by keyboard",
        "?disk=16TB&disks=24",
        |browser, _, width| {
            let counts = browser.eval(
            "({ rows: document.querySelectorAll('#layouts tbody tr').length, points: document.querySelectorAll('#chart .point').length, focusable: document.querySelectorAll('[tabindex], a, button, input, select, textarea').length })",
        );
            let unlabelled = browser.eval(
            "[...document.querySelectorAll('input, select, textarea')].filter((f) => f.labels.length === 0 && !f.getAttribute('aria-label')).map((f) => f.id)",
        );
            assert_eq!(unlabelled, json!([]), "every field has a label");
            browser.eval("document.activeElement.blur(), window.scrollTo(0, 0), true");
            let mut rows = BTreeSet::new();
            let mut points = BTreeSet::new();
            let mut outlined = BTreeSet::new();
            let presses = counts["focusable"].as_u64().unwrap() + 20;
            for _ in 0..presses {
                browser.press("Tab", 9);
                let at = browser.eval(
                r##"(() => {
  const a = document.activeElement;
  const kind = a.matches("#layouts tbody tr") ? "row" : a.matches("#chart .point") ? "point" : "";
  const style = getComputedStyle(kind === "point" ? a.querySelector(".halo") : a);
  const visible = kind === "point" ? style.stroke !== "none" && style.strokeWidth !== "0px" : style.outlineStyle !== "none";
  return { kind, index: a.dataset.index || "", visible };
})()"##,
            );
                let index = at["index"].as_str().unwrap().to_string();
                match at["kind"].as_str().unwrap() {
                    "row" => rows.insert(index.clone()),
                    "point" => points.insert(index.clone()),
                    _ => false,
                };
                if at["visible"] == true && !index.is_empty() {
                    outlined.insert(format!("{}{index}", at["kind"]));
                }
            }
            assert_eq!(
                rows.len() as u64,
                counts["rows"].as_u64().unwrap(),
                "rows by Tab at {width} px"
            );
            assert_eq!(points.len(), 1, "the chart is one Tab stop at {width} px");
            assert_eq!(
                outlined.len(),
                rows.len() + points.len(),
                "every focused row and point shows its focus at {width} px"
            );
            // Inside the chart the arrow keys reach every point, each showing its focus.
            browser.eval("document.querySelector('#chart .point[tabindex=\"0\"]').focus(), true");
            browser.press("Home", 36);
            let total = counts["points"].as_u64().unwrap();
            let mut reached = BTreeSet::new();
            for _ in 0..total {
                let at = browser.eval("[document.activeElement.dataset.index, getComputedStyle(document.activeElement.querySelector('.halo')).strokeWidth]");
                assert_ne!(at[1], "0px", "{at}");
                reached.insert(at[0].as_str().unwrap().to_string());
                browser.press("ArrowRight", 39);
            }
            assert_eq!(
                reached.len() as u64,
                total,
                "chart points by arrow keys at {width} px"
            );
            browser.keep_screenshot_of("#chart-box", &format!("web-page-focus-{width}.png"));
            // Enter on the focused row opens its layout, its heading in view with the focus.
            browser.eval("document.querySelector('#layouts tbody tr:last-child').focus(), true");
            browser.press("Enter", 13);
            browser.wait_for("document.getElementById('detail').dataset.layout === document.querySelector('#layouts tbody tr:last-child').dataset.layout");
            browser.wait_until_ready();
            let seen = browser.eval(&IN_VIEW_AND_FOCUSED.replace("ID", "detail-title"));
            assert_eq!(seen, json!([true, true]), "the detail at {width} px");
            browser.keep_screenshot(&format!("web-page-keyboard-{width}.png"));
        },
    );
}

/// The growth the page shows: each moment's AVAIL and fits (bytes), its column's cells (SIZE,
/// ALLOC, AVAIL, fits), the sentences.
const READ_GROWTH: &str = r##"(() => {
  const figures = [...document.querySelectorAll("#grow-result tbody tr")];
  const rows = [...document.querySelectorAll("#grow-result thead th")].map((th, k) => ({
    kind: th.className, avail: Number(th.dataset.avail), fits: Number(th.dataset.fits),
    cells: figures.map((tr) => tr.cells[k + 1].textContent) }));
  const words = [...document.querySelectorAll("#grow-result .grow-words")].map((p) => p.textContent);
  return { rows, words, scroll: document.documentElement.scrollWidth, viewport: window.innerWidth,
    error: (document.getElementById("grow-disks-error") || { hidden: true }).hidden ? null
      : document.getElementById("grow-disks-error").textContent };
})()"##;

/// Presses Enter as a keyboard does, text and all (a form's Enter submits it).
fn enter(browser: &mut Browser) {
    for kind in ["keyDown", "keyUp"] {
        browser.call(
            "Input.dispatchKeyEvent",
            json!({"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"}),
        );
    }
}

#[test]
fn growing_a_raidz_shows_what_zfs_list_reports() {
    let steps = ["4x raidz2-7 at 70%", "4x raidz2-8"];
    // The plan's 16TB is the catalog's first disk of that size, as the page's system file has.
    let disk = "seagate-exos-x16-16tb";
    let mut args = vec!["capacity", "--layout", "4x raidz2-6", "--disk", disk];
    for step in steps {
        args.extend(["--expand", step]);
    }
    let (code, text, err) = common::run(&args);
    assert_eq!(code, 0, "{err}");
    args.push("--json");
    let cli = common::json(&args)["expansion"].clone();
    let last = &cli["steps"][1];
    // In zfs list's units, as capacity --expand prints them.
    let query = "?disk=16TB&disks=24&layout=4x%20raidz2-6&units=iec";
    at_each_width("the web page's raidz growth", query, |browser, _, width| {
        assert_eq!(
            browser.eval("document.getElementById('grow').hidden"),
            false
        );
        // By keyboard: Tab from the last button of the detail to the two fields, then Enter.
        browser.eval("document.getElementById('edit-host').focus(), true");
        browser.press("Tab", 9);
        assert_eq!(browser.eval("document.activeElement.id"), "grow-disks");
        browser.eval("document.activeElement.value = '2', true");
        browser.press("Tab", 9);
        assert_eq!(browser.eval("document.activeElement.id"), "grow-fill");
        enter(browser);
        browser.wait_for("document.querySelectorAll('#grow-result thead th').length === 3");
        browser.wait_until_ready();
        let seen = browser.eval(READ_GROWTH);
        browser.keep_screenshot_of("#grow", &format!("web-page-grow-{width}.png"));
        let rows = seen["rows"].as_array().unwrap();
        let figures = [
            &cli["steps"][0]["before"],
            &last["after"],
            &cli["rewrite"]["after"],
        ];
        for (row, f) in rows.iter().zip(figures) {
            assert_eq!(row["avail"], f["avail_bytes"], "{seen}");
            assert_eq!(row["fits"], f["fits_bytes"], "{seen}");
        }
        // The after row's AVAIL and what new records fit, as capacity --expand prints them.
        let after = text
            .lines()
            .rfind(|l| l.trim_start().starts_with("after"))
            .unwrap();
        let cells = &rows[1]["cells"];
        for k in 0..4 {
            let cell = cells[k].as_str().unwrap();
            assert!(after.contains(cell), "{cell} in {after}");
        }
        assert_ne!(
            rows[1]["avail"], rows[1]["fits"],
            "old and new ratio differ"
        );
        let words = seen["words"].to_string();
        assert!(
            words.contains("341/512") && words.contains("364/512"),
            "{words}"
        );
        assert!(
            seen["scroll"].as_u64().unwrap() <= seen["viewport"].as_u64().unwrap(),
            "{seen}"
        );
        // A wrong number: one sentence beside the field, in the page's words.
        browser.eval("document.getElementById('grow-disks').value = '0', document.getElementById('grow-go').click(), true");
        let error = browser.eval(READ_GROWTH)["error"].clone();
        let error = error.as_str().expect("an error beside the field");
        assert!(
            error.starts_with("Disks to add to each vdev: give a whole number from 1 to")
                && !error.contains("--"),
            "{error}"
        );
        browser.eval("document.getElementById('grow-disks').value = '1', true");
    });
}

/// The contrast of every text of the table, the legends and the form's labels against the
/// colour behind it (WCAG 2's relative luminance): the ones under 4.5:1, and how many were read.
const READ_CONTRAST: &str = r##"(() => {
  const rgba = (s) => { const m = (s.match(/[\d.]+/g) || [0, 0, 0, 0]).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = ([r, g, b, a], under) => [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
  const lum = (rgb) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
  const behind = (node) => { const chain = []; for (let n = node; n; n = n.parentElement) chain.unshift(n);
    return chain.reduce((under, n) => over(rgba(getComputedStyle(n).backgroundColor), under), [255, 255, 255]); };
  const selector = "#layouts th, #layouts td, #layouts .help, #legend li, #space-legend li, #inputs label, #inputs legend, "
    + "#inputs .hint, .columns dt, .columns dd, #chart text, #grow label, .grow-table th, .grow-table td, figcaption";
  const low = []; let read = 0, least = Infinity;
  for (const e of document.querySelectorAll(selector)) {
    const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== "");
    if (!own || e.getClientRects().length === 0) continue;
    const style = getComputedStyle(e);
    const bg = behind(e);
    const fg = over(rgba(e instanceof SVGElement ? style.fill : style.color), bg);
    const [a, b] = [lum(fg), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    read++;
    least = Math.min(least, ratio);
    if (ratio < 4.5) low.push(`${e.tagName.toLowerCase()}.${e.getAttribute("class") || ""} '${e.textContent.trim().slice(0, 30)}' ${ratio.toFixed(2)}:1`);
  }
  return { low, read, least };
})()"##;

#[test]
fn text_contrast_is_at_least_4_5_to_1() {
    let query = "?disk=16TB&disks=24&layout=4x%20raidz2-6";
    at_each_width("the web page's contrast", query, |browser, _, width| {
        browser.eval("document.getElementById('grow-go').click(), true");
        browser.wait_for("document.querySelectorAll('#grow-result thead th').length === 3");
        browser.wait_until_ready();
        let seen = browser.eval(READ_CONTRAST);
        println!(
            "at {width} px: {} texts, the least contrast {:.2}:1",
            seen["read"],
            seen["least"].as_f64().unwrap()
        );
        assert!(seen["read"].as_u64().unwrap() >= 100, "{seen}");
        assert_eq!(seen["low"], json!([]), "under 4.5:1 at {width} px");
    });
}

/// Where the page's error is: the field with the focus, its error's box, the stale note and
/// what the status line says.
const READ_FAILURE: &str = r##"(() => {
  const slot = document.getElementById("disk-error");
  const r = slot.getBoundingClientRect();
  return { focused: document.activeElement.id, slot: slot.hidden ? null : slot.textContent,
    in_view: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight,
    stale: document.getElementById("stale").hidden ? null : document.getElementById("stale").textContent,
    said: document.getElementById("status-words").textContent,
    live: [...document.querySelectorAll("[aria-live]")].map((e) => e.id) };
})()"##;

/// The page's state, whether its busy sign is hidden, and whether that sign is in view.
const BUSY: &str = r##"(() => {
  const b = document.getElementById("busy");
  const r = b.getBoundingClientRect();
  return [document.body.dataset.status, b.hidden, r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth];
})()"##;

#[test]
fn after_plan_and_after_an_error_the_answer_is_in_view_and_focused() {
    let Some((served, mut browser, _one)) = page("the web page's answers in view") else {
        return;
    };
    for width in WIDTHS {
        open_at(&mut browser, &served, width, "");
        type_and_plan(&mut browser, &[("disk", "16TB"), ("disks", "24")]);
        browser.wait_until_ready();
        let seen = browser.eval(&IN_VIEW_AND_FOCUSED.replace("ID", "results-title"));
        assert_eq!(seen, json!([true, true]), "the results at {width} px");
        browser.keep_view(&format!("web-page-planned-{width}.png"));
        // A disk the catalog does not hold: its error seen, focused, announced; the plan
        // below says it is the last one's.
        type_and_plan(&mut browser, &[("disk", "banana")]);
        browser.wait_for("document.body.dataset.status === 'error'");
        let seen = browser.eval(READ_FAILURE);
        browser.keep_view(&format!("web-page-failed-{width}.png"));
        let slot = seen["slot"].as_str().expect("an error beside Disk");
        assert!(slot.contains("banana"), "{seen}");
        assert_eq!(seen["focused"], "disk", "{seen}");
        assert_eq!(seen["in_view"], true, "the error at {width} px: {seen}");
        assert!(
            seen["stale"].as_str().unwrap().contains("last plan"),
            "{seen}"
        );
        assert_eq!(seen["said"], slot, "announced: {seen}");
        assert_eq!(seen["live"], json!(["status-line"]), "one live region");
        // Slow work shows a busy sign once it passes 300 ms, and takes it down after.
        let slow = r#"(() => {
  const ask = window.fetch;
  window.fetch = (...a) => new Promise((r) => setTimeout(r, 2500)).then(() => ask(...a));
  document.getElementById("disk").value = "16TB";
  document.getElementById("plan").click();
  return document.getElementById("busy").hidden;
})()"#;
        assert_eq!(browser.eval(slow), json!(true), "not busy at once");
        std::thread::sleep(std::time::Duration::from_millis(1200));
        let busy = browser.eval(BUSY);
        browser.keep_view(&format!("web-page-busy-{width}.png"));
        assert_eq!(
            busy,
            json!(["planning", false, true]),
            "busy, in view, after 1.2 s"
        );
        browser.wait_until_ready();
        assert_eq!(browser.eval("document.getElementById('busy').hidden"), true);
        assert_eq!(
            browser.eval("document.getElementById('stale').hidden"),
            true
        );
    }
}

#[test]
fn the_table_sorts_downloads_and_links() {
    let Some((served, mut browser, _one)) = page("the web page's table") else {
        return;
    };
    let plan = common::json(&["plan", "--disks", "24", "--disk", "16TB", "--json"]);
    let downloads = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("web-page-downloads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&downloads);
    std::fs::create_dir_all(&downloads).unwrap();
    browser.call(
        "Browser.setDownloadBehavior",
        json!({"behavior": "allow", "downloadPath": downloads.to_str().unwrap()}),
    );
    // A headless page is never focused, and the clipboard serves only a focused one.
    browser.call(
        "Emulation.setFocusEmulationEnabled",
        json!({"enabled": true}),
    );
    browser.call(
        "Browser.grantPermissions",
        json!({"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"], "origin": served.url}),
    );
    for width in WIDTHS {
        open_at(&mut browser, &served, width, "?disk=16TB&disks=24");
        browser.wait_until_ready();
        // The skip link is the first Tab stop and leads to the table's first row.
        browser.press("Tab", 9);
        assert_eq!(browser.eval("document.activeElement.id"), "skip");
        browser.press("Enter", 13);
        let row = browser.eval("document.activeElement.matches('#layouts tbody tr:first-child')");
        assert_eq!(row, true, "Enter on the skip link at {width} px");
        check_sorting(&mut browser);
        check_csv(&mut browser, &plan, &downloads);
        // "Copy a link" says it did.
        browser.eval("document.getElementById('copy-link').click(), true");
        browser.wait_for("document.getElementById('copied').textContent !== ''");
        let said = browser.eval("document.getElementById('copied').textContent");
        assert_eq!(said, "Link copied.", "at {width} px");
        // In zfs list's units: the table, the chart's axis and the space field.
        let iec = "(() => { const u = document.getElementById('units'); u.value = 'iec'; u.dispatchEvent(new Event('change')); return [[...document.querySelectorAll('#layouts tbody tr')].map((tr) => [Number(tr.dataset.availBytes), tr.cells[3].textContent]), document.querySelector('#chart .x-label').textContent, document.getElementById('need-avail').closest('label').textContent.trim()]; })()";
        let seen = browser.eval(iec);
        for row in seen[0].as_array().unwrap() {
            let bytes = row[0].as_u64().unwrap();
            assert_eq!(row[1], model::units::format_bytes(bytes), "{row}");
        }
        assert!(seen[1].as_str().unwrap().ends_with(", TiB"), "{seen}");
        assert_eq!(seen[2], "Space at least, TiB", "{seen}");
        assert!(browser
            .eval("location.search")
            .as_str()
            .unwrap()
            .contains("units=iec"));
    }
    let _ = std::fs::remove_dir_all(&downloads);
}

/// A press on AVAIL's heading sorts the rows by it, ascending, a second descending.
fn check_sorting(browser: &mut Browser) {
    let sort = r##"(() => {
  const th = [...document.querySelectorAll("#layouts thead th")].find((t) => t.textContent.startsWith("AVAIL"));
  th.querySelector("button").click();
  const now = [...document.querySelectorAll("#layouts thead th")].find((t) => t.textContent.startsWith("AVAIL"));
  return [now.getAttribute("aria-sort"), [...document.querySelectorAll("#layouts tbody tr")].map((tr) => Number(tr.dataset.availBytes))];
})()"##;
    for order in ["ascending", "descending"] {
        let seen = browser.eval(sort);
        assert_eq!(seen[0], order);
        let avail: Vec<f64> = seen[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let sorted = avail.windows(2).all(|w| {
            if order == "ascending" {
                w[0] <= w[1]
            } else {
                w[0] >= w[1]
            }
        });
        assert!(avail.len() > 5 && sorted, "{order}: {avail:?}");
    }
}

/// The CSV the table downloads: a heading per column, a row per row of the table, each
/// layout's AVAIL as the CLI prints it.
fn check_csv(browser: &mut Browser, plan: &Value, downloads: &std::path::Path) {
    let csv = || {
        std::fs::read_dir(downloads)
            .unwrap()
            .map(|f| f.unwrap().path())
            .find(|f| f.extension().is_some_and(|e| e == "csv"))
    };
    if let Some(old) = csv() {
        std::fs::remove_file(old).unwrap();
    }
    browser.eval("document.getElementById('csv').click(), true");
    let start = std::time::Instant::now();
    let file = loop {
        if let Some(file) = csv() {
            break file;
        }
        assert!(
            start.elapsed() < common::browser::PATIENCE,
            "no CSV in {downloads:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(
        file.to_str().unwrap().contains("zpoolsim-plan-24x-"),
        "{file:?}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<Vec<String>> = text
        .split_terminator("\r\n")
        .map(|l| {
            l.trim_matches('"')
                .split("\",\"")
                .map(|f| f.replace("\"\"", "\""))
                .collect()
        })
        .collect();
    assert_eq!(
        lines[0][..4],
        ["MARK", "LAYOUT", "SPARES", "AVAIL"],
        "{text}"
    );
    let rows = browser.eval("document.querySelectorAll('#layouts tbody tr').length");
    assert_eq!(lines.len() as u64 - 1, rows.as_u64().unwrap(), "{text}");
    let evaluations = plan["evaluations"].as_array().unwrap();
    for line in &lines[1..] {
        assert_eq!(line.len(), lines[0].len(), "{line:?}");
        let e = evaluations
            .iter()
            .find(|e| e["layout"] == json!(line[1]))
            .expect("a planned layout");
        assert_eq!(
            line[3],
            decimal(e["avail_bytes"].as_f64().unwrap()),
            "{line:?}"
        );
    }
}

#[test]
fn the_page_comes_gzip_encoded() {
    at_each_width(
        "the web page's encoding",
        "?disk=16TB&disks=24",
        |browser, _, width| {
            let sizes = browser.eval(
            "[performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')].filter((e) => /\\/(page\\.js|page\\.css|api\\/disks)?(\\?.*)?$/.test(e.name)).map((e) => [e.name, e.encodedBodySize, e.decodedBodySize])",
        );
            let sizes = sizes.as_array().unwrap();
            assert!(sizes.len() >= 4, "{sizes:?}");
            for s in sizes {
                let (encoded, decoded) = (s[1].as_f64().unwrap(), s[2].as_f64().unwrap());
                assert!(
                    decoded > 0.0 && encoded < decoded * 0.6,
                    "{} at {width} px: {encoded} bytes for {decoded}",
                    s[0]
                );
            }
        },
    );
}

/// Every visible cell of the fleet's tables: its width, whether its text wraps inside a word
/// (a heading taller than its line), and the text of the page.
const READ_FLEET: &str = r##"(() => {
  const cells = [...document.querySelectorAll("table.stacking th, table.stacking td")]
    .filter((c) => c.getClientRects().length > 0 && c.textContent.trim() !== "")
    .map((c) => ({ text: c.textContent, width: c.getBoundingClientRect().width,
      lines: (() => { const r = document.createRange(); r.selectNodeContents(c); return r.getClientRects().length; })() }));
  return { cells, scroll: document.documentElement.scrollWidth, viewport: innerWidth,
    detail: document.getElementById("workloads").tBodies[0].textContent };
})()"##;

#[test]
fn the_fleet_page_on_a_phone_and_without_a_store() {
    let Some((plain, mut browser, _one)) = page("the fleet page") else {
        return;
    };
    // Without a store: a page saying how to get one.
    browser.viewport(390, 800);
    browser.open(&format!("{}/fleet", plain.url));
    browser.wait_for("document.readyState === 'complete'");
    let seen = browser.eval("[document.contentType, document.querySelector('h2').textContent, document.body.textContent.includes('zpoolsim serve --db')]");
    assert_eq!(
        seen,
        json!(["text/html", "This server has no results store", true])
    );
    drop(plain);
    // A store of several hosts, one bench of which has a run nothing was predicted for.
    let dir = common::Scratch::new("web-page-fleet");
    let db = dir.path("results.sqlite");
    let mut benches = common::benches::fleet_benches();
    let mut unpredicted = common::benches::run_of("dd-write:size=1G", 180.0, 0.0, 0.0);
    unpredicted.prediction = json!(null);
    benches.push(common::benches::bench(
        "delta-with-a-long-name",
        "scratch",
        600,
        vec![unpredicted],
    ));
    common::benches::sqlite_store_of(&db, benches);
    let served = Served::start_with(&["--db", &db]);
    for width in WIDTHS {
        browser.viewport(width, 900);
        browser.open(&format!("{}/fleet", served.url));
        browser.wait_for("document.querySelectorAll('#fleet tbody tr').length >= 5");
        let row = "[...document.querySelectorAll('#fleet tbody tr')].find((tr) => tr.textContent.includes('delta-with'))";
        browser.eval(&format!("{row}.click(), true"));
        browser.wait_for("document.querySelectorAll('#benches button').length === 1");
        browser.eval("document.querySelector('#benches button').click(), true");
        browser.wait_for("document.getElementById('workloads').tBodies[0].rows.length === 1");
        assert_eq!(browser.eval("innerWidth"), json!(width), "the viewport");
        let seen = browser.eval(READ_FLEET);
        browser.keep_screenshot(&format!("web-page-fleet-{width}.png"));
        for cell in seen["cells"].as_array().unwrap() {
            assert!(
                cell["width"].as_f64().unwrap() >= 60.0,
                "at {width} px: {cell}"
            );
            if width > 600 && !cell["text"].as_str().unwrap().contains(' ') {
                assert_eq!(
                    cell["lines"], 1,
                    "split inside a word at {width} px: {cell}"
                );
            }
        }
        assert!(
            seen["scroll"].as_u64() <= seen["viewport"].as_u64(),
            "{seen}"
        );
        assert!(seen["detail"].as_str().unwrap().contains("none"), "{seen}");
    }
}
