//! `zpoolsim serve` on a free port of this machine for one test, and plain HTTP to it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running server; it is stopped when dropped.
pub(crate) struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`, without a slash at the end.
    pub url: String,
}

impl Served {
    /// Starts `zpoolsim serve --port 0` and reads the address it prints.
    pub(crate) fn start() -> Served {
        Served::start_with(&[])
    }

    /// Starts `zpoolsim serve --port 0 ARGS` and reads the address it prints.
    pub(crate) fn start_with(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("zpoolsim serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its stdout"))
            .read_line(&mut line)
            .expect("it prints its address");
        let url = line
            .trim()
            .strip_prefix("zpoolsim: serving ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .trim_end_matches('/')
            .to_string();
        Served { child, url }
    }

    /// Status and body of GET `path`.
    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        reply(agent().get(format!("{}{path}", self.url)).call())
    }

    /// Status and body of POST `path` with `body`.
    pub(crate) fn post(&self, path: &str, body: &str) -> (u16, String) {
        reply(
            agent()
                .post(format!("{}{path}", self.url))
                .header("Content-Type", "application/json")
                .send(body),
        )
    }
}

impl Served {
    /// `host:port` the server listens on.
    pub(crate) fn address(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// Sends `head` (the request line and headers, each ending in CRLF, without the blank
    /// line) and `body` as they are, and reads the whole answer: status, headers (names in
    /// lower case) and body.
    pub(crate) fn raw(&self, head: &str, body: &str) -> (u16, Vec<(String, String)>, String) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(self.address()).expect("it accepts");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let request = format!(
            "{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("it reads");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("it answers");
        let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .unwrap_or("0");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        (status.parse().unwrap_or(0), headers, body.to_string())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client that hands back error statuses as answers.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn reply(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, String) {
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_to_string().expect("a text body"),
    )
}
