//! Headless Chromium with one page, driven over the DevTools protocol (the web page's tests):
//! Debian's chromium, which scripts/test-deps.sh installs.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Longest the page may take to show a plan and its detail.
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// Headless Chromium with one page, driven over the DevTools protocol; closed when dropped.
pub(crate) struct Browser {
    child: Child,
    profile: PathBuf,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Browser {
    pub(crate) fn launch(chromium: &PathBuf) -> Browser {
        static LAUNCHED: AtomicUsize = AtomicUsize::new(0);
        let n = LAUNCHED.fetch_add(1, Ordering::SeqCst);
        let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-profile-{}-{n}", std::process::id()));
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
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Value {
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
    pub(crate) fn eval(&mut self, expression: &str) -> Value {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        let result = self.call("Runtime.evaluate", params);
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    pub(crate) fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
    }

    /// Waits until the page has answered the last thing asked of it; fails with its message.
    pub(crate) fn wait_until_ready(&mut self) {
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

    pub(crate) fn wait_for(&mut self, expression: &str) {
        let start = Instant::now();
        while self.eval(expression) != json!(true) {
            assert!(start.elapsed() < PATIENCE, "never true: {expression}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The whole page as a PNG.
    pub(crate) fn screenshot(&mut self) -> Vec<u8> {
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

impl Browser {
    /// Lays the page out as a window `width` px wide (a phone at 390) would.
    pub(crate) fn viewport(&mut self, width: u32, height: u32) {
        let mobile = width < 600;
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// A left click at (x, y) of the viewport, as a mouse gives it.
    pub(crate) fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// One press of a key that types no text (Tab, Enter).
    pub(crate) fn press(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Keeps the page's screenshot in target/tmp under `name`, for a person to look at.
    pub(crate) fn keep_screenshot(&mut self, name: &str) -> PathBuf {
        let shot = self.screenshot();
        Self::keep(name, shot)
    }

    /// Keeps what the viewport shows, as a person sees it, as `keep_screenshot` does.
    pub(crate) fn keep_view(&mut self, name: &str) -> PathBuf {
        use base64::Engine;
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let shot = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("base64");
        Self::keep(name, shot)
    }

    /// Keeps a screenshot of the element `selector` picks, as `keep_screenshot` does.
    pub(crate) fn keep_screenshot_of(&mut self, selector: &str, name: &str) -> PathBuf {
        let area = self.eval(&format!(
            "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); return {{ x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, scale: 1 }}; }})()",
            json!(selector)
        ));
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true, "clip": area}),
        );
        use base64::Engine;
        let shot = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("base64");
        Self::keep(name, shot)
    }

    fn keep(name: &str, shot: Vec<u8>) -> PathBuf {
        assert_eq!(&shot[1..4], b"PNG");
        let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&file, shot).unwrap();
        eprintln!("screenshot: {}", file.display());
        file
    }
}
