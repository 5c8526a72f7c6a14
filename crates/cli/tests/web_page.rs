//! The web page end to end, as a person uses it: `zpoolsim serve` on a free port, Debian's
//! headless Chromium driven over the DevTools protocol (scripts/test-deps.sh installs it),
//! disks and needs typed into the form, the plan's table and the chosen layout's figures read
//! off the page and checked against `zpoolsim plan --json` for the same input; then another row
//! chosen, and the page's own link reopened. A screenshot is kept in target/tmp.

mod common;

use common::serve::Served;
use common::{skip, which};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Longest the page may take to show a plan and its detail.
const PATIENCE: Duration = Duration::from_secs(60);

/// Headless Chromium with one page, driven over the DevTools protocol; closed when dropped.
struct Browser {
    child: Child,
    profile: PathBuf,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Browser {
    fn launch(chromium: &PathBuf) -> Browser {
        let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chromium-profile");
        let _ = std::fs::remove_dir_all(&profile);
        let mut child = Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
            ])
            .args([
                "--no-first-run",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("its stderr"));
        let port = devtools_port(&mut stderr);
        // Chromium goes on logging: its stderr is drained so that it never blocks on the pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let targets = ureq::get(format!("http://127.0.0.1:{port}/json/list"))
            .call()
            .expect("the DevTools endpoint answers")
            .body_mut()
            .read_to_string()
            .expect("a list of targets");
        let targets: Vec<Value> = serde_json::from_str(&targets).expect("JSON");
        let page = targets
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target");
        let url = page["webSocketDebuggerUrl"].as_str().expect("its socket");
        let (socket, _) = tungstenite::connect(url).expect("the page's socket opens");
        Browser {
            child,
            profile,
            socket,
            next_id: 0,
        }
    }

    /// The result of one DevTools command, skipping the events sent meanwhile.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let command = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::text(command.to_string()))
            .expect("the command is sent");
        loop {
            let message = self.socket.read().expect("DevTools answers");
            let Ok(text) = message.to_text() else {
                continue;
            };
            let reply: Value = serde_json::from_str(text).expect("DevTools speaks JSON");
            if reply["id"] == id {
                assert!(reply["error"].is_null(), "{method}: {}", reply["error"]);
                return reply["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        let result = self.call("Runtime.evaluate", params);
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
    }

    /// Waits until the page has answered the last thing asked of it; fails with its message.
    fn wait_until_ready(&mut self) {
        let start = Instant::now();
        loop {
            let status = self.eval("document.body && document.body.dataset.status");
            match status.as_str() {
                Some("ready") => return,
                Some("error") => panic!(
                    "the page says: {}",
                    self.eval("document.getElementById('error').textContent")
                ),
                _ if start.elapsed() > PATIENCE => panic!(
                    "the page is still {status} after {PATIENCE:?}; finished: {}; at {}",
                    self.eval("JSON.stringify(performance.getEntriesByType('resource').map((e) => [e.name, Math.round(e.startTime), Math.round(e.duration), e.responseStatus]))"),
                    self.eval("location.href + ' ' + document.getElementById('detail').dataset.layout")
                ),
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    fn wait_for(&mut self, expression: &str) {
        let start = Instant::now();
        while self.eval(expression) != json!(true) {
            assert!(start.elapsed() < PATIENCE, "never true: {expression}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The whole page as a PNG.
    fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine;
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// The port of "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/..." on stderr.
fn devtools_port(stderr: &mut impl BufRead) -> u16 {
    for line in stderr.lines() {
        let line = line.expect("chromium's stderr");
        if let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
            let port = rest.split('/').next().unwrap_or_default();
            return port.parse().expect("a port number");
        }
    }
    let mut rest = String::new();
    let _ = stderr.read_to_string(&mut rest);
    panic!("chromium printed no DevTools address: {rest}");
}

/// Sets the form's fields as typing would and presses Plan.
const TYPE_AND_PLAN: &str = r#"(() => {
  const type = (id, value) => {
    const field = document.getElementById(id);
    field.focus();
    field.value = value;
    field.dispatchEvent(new Event("input", { bubbles: true }));
  };
  type("disk", "16TB");
  type("disks", "24");
  type("need-avail", "200");
  type("need-loss", "1");
  document.getElementById("plan").click();
  return true;
})()"#;

/// What the page shows: the table's rows and the layout in detail.
const READ_PAGE: &str = r##"(() => {
  const rows = [...document.querySelectorAll("#layouts tbody tr")].map((tr) => {
    const cells = [...tr.cells].map((c) => c.textContent);
    return { mark: cells[0], layout: tr.dataset.layout, avail_bytes: Number(tr.dataset.availBytes),
      avail: cells[3], read: cells[4], write: cells[5], random: cells[6] };
  });
  const workloads = [...document.querySelectorAll("#speed .workload")].map((w) => ({
    workload: w.dataset.workload, bytes_per_s: Number(w.dataset.bytesPerS),
    bottleneck: w.querySelector(".bottleneck").textContent,
    bars: w.querySelectorAll(".bar-row").length }));
  return {
    rows, workloads,
    layout: document.getElementById("detail").dataset.layout,
    avail_bytes: Number(document.getElementById("space-lines").dataset.avail),
    space_segments: document.querySelectorAll("#space-bar .segment").length,
    rebuilds: document.querySelectorAll("#safety .rebuild").length,
    monte_carlo: (document.querySelector("#safety .monte-carlo") || {}).textContent || "",
    chart_points: document.querySelectorAll("#chart .point").length,
    chart_rings: document.querySelectorAll("#chart .ring").length,
    disk: document.getElementById("disk").value,
    search: location.search,
  };
})()"##;

fn tb(bytes: &Value) -> String {
    format!("{:.1} TB", bytes.as_f64().unwrap() / 1e12)
}

fn mbs(bytes_per_s: &Value) -> String {
    format!("{:.1} MB/s", bytes_per_s.as_f64().unwrap() / 1e6)
}

/// The page's table and chosen layout against the plan's JSON.
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
        assert_eq!(row["avail"], tb(&e["avail_bytes"]));
        assert_eq!(row["read"], mbs(&e["read"]["bytes_per_s"]));
        assert_eq!(row["write"], mbs(&e["write"]["bytes_per_s"]));
        let iops = format!("{:.0}", e["random"]["iops"].as_f64().unwrap());
        assert_eq!(row["random"], iops);
        assert_eq!(row["mark"], if i == pick { ">" } else { "*" });
    }
    assert_eq!(page["chart_points"], json!(evaluations.len()));
    assert_eq!(
        page["chart_rings"],
        json!(on_front.iter().filter(|f| **f == true).count())
    );
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
            "utilisation bars for {}",
            f["workload"]
        );
    }
    assert!(page["space_segments"].as_u64().unwrap() >= 3, "{page}");
    assert!(page["rebuilds"].as_u64().unwrap() >= 1, "{page}");
    assert!(
        page["monte_carlo"].as_str().unwrap().contains(" .. "),
        "{page}"
    );
}

#[test]
fn plan_on_the_page_as_on_the_command_line() {
    let Some(chromium) = which("chromium") else {
        return skip(
            "web page end to end",
            "chromium is missing (scripts/test-deps.sh installs Debian's package)",
        );
    };
    let served = Served::start();
    let mut browser = Browser::launch(&chromium);
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1300, "height": 1600, "deviceScaleFactor": 1, "mobile": false}),
    );
    browser.open(&format!("{}/", served.url));
    browser.wait_for(
        "document.readyState === 'complete' && document.getElementById('disk-list').options.length > 0",
    );
    assert_eq!(browser.eval(TYPE_AND_PLAN), json!(true));
    browser.wait_until_ready();
    let page = browser.eval(READ_PAGE);
    let (code, out, err) = common::run(&[
        "plan",
        "--disks",
        "24",
        "--disk",
        "16TB",
        "--need",
        "avail>=200TB,loss<=1%",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let plan: Value = serde_json::from_str(&out).unwrap();
    let pick = plan["recommendation"]["index"].as_u64().unwrap() as usize;
    check_against_plan(&page, &plan, pick);
    let search = page["search"].as_str().unwrap();
    assert!(
        search.contains("disks=24") && search.contains("need=avail"),
        "{search}"
    );
    let shot = browser.screenshot();
    assert_eq!(&shot[1..4], b"PNG");
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-page-plan.png");
    std::fs::write(&file, shot).unwrap();
    eprintln!("screenshot: {}", file.display());

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
