//! The web API against the command line: each endpoint answers, byte for byte, what the
//! command's `--json` prints for the same flags, refuses bad input with HTTP 400 and one
//! sentence, and the system file of a planned layout describes the machine the plan measured.

mod common;

use common::run;
use common::serve::Served;
use serde_json::{json, Value};

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the example exists")
}

/// What `zpoolsim ARGS` prints, which must succeed.
fn cli(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn each_endpoint_answers_what_json_prints() {
    let served = Served::start();
    let system = example("raidz2-10x4tb.toml");
    let cases: [(&str, Value, &[&str]); 6] = [
        (
            "/api/plan",
            json!({"disks": 12, "disk": "16TB", "need": "loss<=1%", "workload": ["bonnie-seeks"]}),
            &[
                "plan",
                "--disks",
                "12",
                "--disk",
                "16TB",
                "--need",
                "loss<=1%",
                "--workload",
                "bonnie-seeks",
                "--json",
            ],
        ),
        (
            "/api/capacity",
            json!({"layout": "3x raidz1-5", "disk": "750GB", "files": ["1K", "10M"], "compression": true}),
            &[
                "capacity",
                "--layout",
                "3x raidz1-5",
                "--disk",
                "750GB",
                "--files",
                "1K,10M",
                "--compression",
                "--json",
            ],
        ),
        (
            "/api/capacity",
            json!({"system": system, "zfs": "zol-0.6.5"}),
            &[
                "capacity",
                "examples/raidz2-10x4tb.toml",
                "--zfs",
                "zol-0.6.5",
                "--json",
            ],
        ),
        (
            "/api/predict",
            json!({"system": system, "workload": "fio-randread:qd=32"}),
            &[
                "predict",
                "examples/raidz2-10x4tb.toml",
                "-w",
                "fio-randread:qd=32",
                "--json",
            ],
        ),
        (
            "/api/predict",
            json!({"system": system, "workload": "dd-read", "sweep": "bs=128K..1M"}),
            &[
                "predict",
                "examples/raidz2-10x4tb.toml",
                "-w",
                "dd-read",
                "--sweep",
                "bs=128K..1M",
                "--json",
            ],
        ),
        (
            "/api/reliability",
            json!({"system": system, "fill": "50%", "trials": 20000, "replacement_hours": 24}),
            &[
                "reliability",
                "examples/raidz2-10x4tb.toml",
                "--fill",
                "50%",
                "--trials",
                "20000",
                "--replacement-hours",
                "24",
                "--json",
            ],
        ),
    ];
    for (path, body, args) in cases {
        let (status, answer) = served.post(path, &body.to_string());
        assert_eq!(status, 200, "{path}: {answer}");
        assert_eq!(answer, cli(args), "{path} {body}");
    }
}

/// Bad input is HTTP 400 with `{"error": one sentence, "field": the request's key it is
/// about}`, in the words of the request's fields (the page shows it beside that field), never
/// a command line's (`--disks <DISKS>`).
#[test]
fn bad_input_is_400_with_one_sentence_about_one_field() {
    let served = Served::start();
    let cases = [
        ("/api/plan", "{\"disks\": 24,", None, "malformed request: EOF while parsing a value at line 1 column 13; expected a JSON object whose keys are the request's fields"),
        ("/api/plan", r#"{"disks": "many", "disk": "16TB"}"#, Some("disks"), "disks: 'many' is not a whole number"),
        ("/api/plan", r#"{"disks": 1000000, "disk": "16TB"}"#, Some("disks"), "disks: 1000000; a web request takes at most 200 (the command line takes more)"),
        ("/api/plan", r#"{"disk": "16TB"}"#, Some("disks"), "give disks N or a system file"),
        ("/api/plan", r#"{"disks": 24, "disk": "seagate-exos-x99"}"#, Some("disk"), "disk seagate-exos-x99: no disk 'seagate-exos-x99' in the catalog; did you mean 'seagate-exos-x14-14tb' or 'seagate-exos-x16-16tb' or 'seagate-exos-x18-18tb'? (`zpoolsim catalog --kind disk` lists them)"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "price": -3}"#, Some("price"), "price: '-3' is refused: give 1 to 100000 US dollars per disk (a dollar to the dearest enterprise drive and well past it)"),
        ("/api/plan", r#"{"disks": 0, "disk": "16TB"}"#, Some("disks"), "a pool needs at least one disk"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "spares": 24}"#, Some("spares"), "no disks left for a pool after 24 hot spares of 24 disks"),
        ("/api/plan", r#"{"disks": 3, "disk": "16TB", "min_redundancy": 3}"#, Some("min_redundancy"), "no layout of 3 disks survives 3 failures per vdev: a raidz3 of 5 disks is the smallest that does"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "need": "speed>=9"}"#, Some("need"), "bad need 'speed>=9': unknown figure 'speed' (read, write, iops, avail or loss); terms look like read>=500MB/s, write>=300MB/s, iops>=2000, avail>=40TB, loss<=1%"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "fill": "120%"}"#, Some("fill"), "fill '120%': give a share of the pool from 1% to 100%, like 80% or 0.8"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "nedd": "loss<=1%"}"#, None, "unknown key 'nedd'; the keys are system, disks, disk, price, spares, min_redundancy, need, read, write, random, workload, fill, years, afr, load, busy, same_batch, grow_to, grow_fill, for, rank, consider_all"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "read": "my.toml"}"#, Some("read"), "workload 'my.toml': the web page reads no files; give NAME[:key=value,...]"),
        ("/api/plan", r#"{"disks": 24, "disk": "16TB", "system": "name = 1"}"#, Some("system"), "system:1:8: invalid type: integer `1`, expected a string"),
        ("/api/system", r#"{"disks": 12, "disk": "16TB", "layout": "4x raidz2-6"}"#, Some("layout"), "4x raidz2-6 needs 24 disks; the machine has 12"),
        ("/api/reliability", r#"{"trials": 5000000}"#, Some("trials"), "trials: 5000000; a web request takes at most 1000000 (the command line takes more)"),
        ("/api/reliability", r#"{"weibull": "x"}"#, Some("weibull"), "weibull: 'x' is refused: not a number; give 0.2 to 5"),
        ("/api/capacity", r#"{"layout": "400x mirror-2", "disk": "4TB"}"#, Some("layout"), "layout: disks: 800; a web request takes at most 200 (the command line takes more)"),
        ("/api/capacity", r#"{"layout": "raidz1-3", "disk": "4QB"}"#, Some("disk"), "disk: bad size '4QB': expected a number with an optional unit: B, K/KiB, M/MiB, G/GiB, T/TiB (binary) or KB, MB, GB, TB (decimal)"),
        ("/api/predict", r#"{"workload": "dd-read", "system": "name = 1"}"#, Some("system"), "system:1:8: invalid type: integer `1`, expected a string"),
    ];
    for (path, body, field, says) in cases {
        let (status, answer) = served.post(path, body);
        assert_eq!(status, 400, "{path} {body}: {answer}");
        let error: Value = serde_json::from_str(&answer).expect("a JSON error");
        let expected = match field {
            Some(f) => json!({ "error": says, "field": f }),
            None => json!({ "error": says }),
        };
        assert_eq!(error, expected, "{path} {body}");
        let sentence = error["error"].as_str().unwrap();
        assert!(
            !sentence.contains(" <") && !sentence.contains("'--"),
            "{sentence}"
        );
    }
    assert_eq!(served.get("/api/plan").0, 405);
    assert_eq!(served.get("/api/plann").0, 404);
    assert_eq!(served.post("/page.js", "{}").0, 405);
}

#[test]
fn the_page_and_its_files_come_from_the_binary_and_ask_nothing_elsewhere() {
    let served = Served::start();
    let (status, page) = served.get("/");
    assert_eq!(status, 200);
    assert!(
        page.contains("<script src=\"/page.js\" defer></script>"),
        "{page}"
    );
    for path in ["/page.js", "/page.css"] {
        let (status, text) = served.get(path);
        assert_eq!(status, 200, "{path}");
        let elsewhere = text.replace("http://www.w3.org/2000/svg", "");
        assert!(!elsewhere.contains("http"), "{path} names another host");
    }
    let (status, disks) = served.get("/api/disks");
    assert_eq!(status, 200);
    let disks: Vec<Value> = serde_json::from_str(&disks).unwrap();
    assert!(disks.iter().any(|d| d["id"] == "seagate-exos-x16-16tb"));
}

/// The system file of a planned layout is the machine the plan measured: the command line
/// reads it back to the AVAIL and speed the plan gave that layout.
#[test]
fn a_planned_layout_as_a_system_file() {
    let served = Served::start();
    let (_, plan) = served.post("/api/plan", r#"{"disks": 24, "disk": "16TB"}"#);
    let plan: Value = serde_json::from_str(&plan).unwrap();
    let picked = &plan["evaluations"][plan["recommendation"]["index"].as_u64().unwrap() as usize];
    let layout = picked["layout"].as_str().unwrap();
    let body = json!({"disks": 24, "disk": "16TB", "layout": layout}).to_string();
    let (status, text) = served.post("/api/system", &body);
    assert_eq!(status, 200, "{text}");
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("planned-24.toml");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap();
    let space: Value = serde_json::from_str(&cli(&["capacity", file, "--json"])).unwrap();
    assert_eq!(space["avail_bytes"], picked["avail_bytes"]);
    assert_eq!(space["layout"].as_str(), Some(layout));
    let write: Value =
        serde_json::from_str(&cli(&["predict", file, "-w", "fio-write", "--json"])).unwrap();
    assert_eq!(
        write["throughput_bytes_per_s"],
        picked["write"]["bytes_per_s"]
    );
}

/// `capacity --expand` through the API: the steps as a list under "expand", the answer what
/// the command line prints.
#[test]
fn capacity_with_a_raidz_expansion() {
    let served = Served::start();
    let body = json!({"layout": "raidz1-4", "disk": "16TB", "expand": ["raidz1-4 -> raidz1-5 at 70%", "raidz1-6 at 80%"]});
    let (status, answer) = served.post("/api/capacity", &body.to_string());
    assert_eq!(status, 200, "{answer}");
    let args = [
        "capacity",
        "--layout",
        "raidz1-4",
        "--disk",
        "16TB",
        "--expand",
        "raidz1-4 -> raidz1-5 at 70%",
        "--expand",
        "raidz1-6 at 80%",
        "--json",
    ];
    assert_eq!(answer, cli(&args));
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["expansion"]["steps"][1]["to"], "raidz1-6");
}
