//! The web page end to end, as a person uses it: `zpoolsim serve` on a free port, Debian's
//! headless Chromium driven over the DevTools protocol (scripts/test-deps.sh installs it),
//! disks and needs typed into the form, the plan's table and the chosen layout's figures read
//! off the page and checked against `zpoolsim plan --json` for the same input; then the chart
//! (layouts told apart, each opened by a click, coloured by the CLI's loss bands), a phone's
//! width, the errors of each field and the keyboard, each at 1400 px and at 390 px. Each
//! keeps its screenshots in target/tmp (web-page-*.png).

mod common;

use common::browser::Browser;
use common::serve::Served;
use common::{skip, which};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;

/// The widths every check runs at: a desktop window and a phone.
const WIDTHS: [u32; 2] = [1400, 390];

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
    assert_eq!(page["chart_points"], json!(shown.len()));
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
  return { points, bands, legend, x_ticks: ticks("middle"), y_ticks: ticks("end"),
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

/// The distance between the closest two of the chart's points, px.
fn closest(points: &[Value]) -> f64 {
    let mut closest = f64::INFINITY;
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            let d = (a["x"].as_f64().unwrap() - b["x"].as_f64().unwrap())
                .hypot(a["y"].as_f64().unwrap() - b["y"].as_f64().unwrap());
            closest = closest.min(d);
        }
    }
    closest
}

#[test]
fn the_chart_tells_layouts_apart_and_opens_each() {
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
    let mut distinct_writes = Vec::new();
    for width in WIDTHS {
        open_at(&mut browser, &served, width, "?disk=16TB&disks=24");
        browser.wait_until_ready();
        let chart = browser.eval(READ_CHART);
        browser.keep_screenshot(&format!("web-page-chart-{width}.png"));
        browser.keep_screenshot_of("#chart-box", &format!("web-page-chart-only-{width}.png"));
        let points = chart["points"].as_array().unwrap();
        let front: Vec<&Value> = points.iter().filter(|p| p["front"] == true).collect();
        let fronts = plan["on_front"].as_array().unwrap();
        assert_eq!(front.len(), fronts.iter().filter(|f| **f == true).count());
        let writes: BTreeSet<String> = front
            .iter()
            .map(|p| {
                let e = &plan["evaluations"][p["index"].as_u64().unwrap() as usize];
                decimal(e["write"]["bytes_per_s"].as_f64().unwrap())
            })
            .collect();
        distinct_writes.push((width, writes));
        let front_points: Vec<Value> = front.iter().map(|p| (*p).clone()).collect();
        let closest = closest(&front_points);
        assert!(
            closest >= 8.0,
            "at {width} px two front points are {closest:.1} px apart"
        );
        let (xt, yt) = (&chart["x_ticks"], &chart["y_ticks"]);
        assert!(
            nice(xt.as_array().unwrap()) && nice(yt.as_array().unwrap()),
            "{xt} {yt}"
        );
        let text = chart["text_height"].as_f64().unwrap();
        assert!(text >= 12.0, "chart text {text} px high at {width} px");
        let families = chart["families"].to_string();
        for family in ["mirror", "raidz1", "raidz2", "raidz3", "dRAID"] {
            assert!(
                families.contains(family),
                "{family} in the legend: {families}"
            );
        }
        // The loss colours: the same classes as the CLI's plan.svg, each of as many layouts.
        let page_bands: BTreeMap<String, usize> = chart["bands"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| {
                let label = chart["legend"][k].as_str().unwrap().to_string();
                (label, n.as_u64().unwrap() as usize)
            })
            .collect();
        assert_eq!(page_bands, cli, "the page's loss classes are the CLI's");
        // A click on each front point opens that layout.
        for p in &front {
            let at = browser.eval(&format!(
                "(() => {{ const g = document.querySelector('#chart .point[data-index=\"{}\"]'); g.scrollIntoView({{ block: 'center' }}); const r = g.querySelector('.mark').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
                p["index"]
            ));
            browser.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
            let opened = format!(
                "document.getElementById('detail').dataset.layout === {} && document.body.dataset.status === 'ready'",
                p["layout"]
            );
            browser.wait_for(&opened);
        }
    }
    // On an axis whose values differ by layout (random reads), the marks spread out alike.
    for width in WIDTHS {
        open_at(
            &mut browser,
            &served,
            width,
            "?disk=16TB&disks=24&axis=random",
        );
        browser.wait_until_ready();
        let chart = browser.eval(READ_CHART);
        browser.keep_screenshot_of("#chart-box", &format!("web-page-chart-random-{width}.png"));
        let points = chart["points"].as_array().unwrap();
        let random: BTreeSet<String> = points
            .iter()
            .filter(|p| p["front"] == true)
            .map(|p| {
                let e = &plan["evaluations"][p["index"].as_u64().unwrap() as usize];
                format!("{:.0}", e["random"]["iops"].as_f64().unwrap())
            })
            .collect();
        assert!(random.len() >= 5, "{random:?}");
        assert!(closest(points) >= 8.0, "at {width} px");
        assert!(nice(chart["y_ticks"].as_array().unwrap()), "{chart}");
    }
    // The standard write workload must differ by layout (dd's zeros do not: they become holes).
    for (width, writes) in distinct_writes {
        assert!(
            writes.len() >= 5,
            "at {width} px the front shows {} write values: {writes:?}",
            writes.len()
        );
    }
}

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
        assert_eq!(every[0], json!(228), "{every}");
        assert_eq!(every[1], json!(228), "{every}");
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
            assert_eq!(
                points.len() as u64,
                counts["points"].as_u64().unwrap(),
                "chart points by Tab at {width} px"
            );
            assert_eq!(
                outlined.len(),
                rows.len() + points.len(),
                "every focused row and point shows its focus at {width} px"
            );
            browser.eval("document.querySelectorAll('#chart .point')[3].focus(), true");
            browser.keep_screenshot_of("#chart-box", &format!("web-page-focus-{width}.png"));
            // Enter on the focused row opens its layout.
            browser.eval("document.querySelector('#layouts tbody tr:last-child').focus(), true");
            browser.press("Enter", 13);
            browser.wait_for("document.getElementById('detail').dataset.layout === document.querySelector('#layouts tbody tr:last-child').dataset.layout");
            browser.wait_until_ready();
            browser.keep_screenshot(&format!("web-page-keyboard-{width}.png"));
        },
    );
}
