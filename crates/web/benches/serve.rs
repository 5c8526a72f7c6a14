//! A page load and a 24-disk plan answered over HTTP on this machine, as a browser asks them:
//! the issue's bar is under 300 ms each. `cargo bench -p zpoolsim-web`.

use criterion::{criterion_group, criterion_main, Criterion};
use model::Catalog;
use std::time::Duration;
use zpoolsim_web::Server;

/// A server on a free port of this machine, answering in the background; its base URL.
fn serve() -> String {
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), Catalog::embedded()).unwrap();
    let url = format!("http://{}", server.address());
    std::thread::spawn(move || server.run().unwrap());
    url
}

fn get(url: &str) -> String {
    ureq::get(url)
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap()
}

fn post(url: &str, body: &str) -> String {
    ureq::post(url)
        .header("Content-Type", "application/json")
        .send(body)
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap()
}

fn answers(c: &mut Criterion) {
    let url = serve();
    let mut group = c.benchmark_group("serve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("page load (/, page.js, page.css, /api/disks)", |b| {
        b.iter(|| {
            for path in ["/", "/page.js", "/page.css", "/api/disks"] {
                assert!(!get(&format!("{url}{path}")).is_empty());
            }
        })
    });
    let plan = r#"{"disks": 24, "disk": "seagate-exos-x16-16tb"}"#;
    group.bench_function("24-disk plan", |b| {
        b.iter(|| assert!(post(&format!("{url}/api/plan"), plan).contains("recommendation")))
    });
    group.finish();
}

criterion_group!(benches, answers);
criterion_main!(benches);
