//! `zpoolsim fleet` and `results --push` over both backends: the same assertions on a SQLite
//! file and on a throwaway PostgreSQL server (common/postgres.rs) the benches were pushed to.
//! The benches are made with the store's own API (no fio here; measure_zfs_fuse.rs benches a
//! real pool into PostgreSQL).

mod common;

use common::benches::{bench, run_of, sqlite_store};
use common::postgres::Server;
use common::shapes::{check, shapes};
use common::skip;
use common::{run, Scratch};
use serde_json::{json, Value};
use store::{Location, Sample, Store};

fn fleet(db: &str, more: &[&str]) -> Value {
    let (code, out, err) = run(&[&["fleet", "--db", db, "--json"], more].concat());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON")
}

/// (host, pool) of each row.
fn keys(page: &Value) -> Vec<(String, String)> {
    page["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["host"].as_str().unwrap().into(),
                r["pool"].as_str().unwrap().into(),
            )
        })
        .collect()
}

fn key(host: &str, pool: &str) -> (String, String) {
    (host.into(), pool.into())
}

/// What every store must answer of the fleet above.
fn check_fleet(db: &str) {
    let page = fleet(db, &[]);
    check(&page, "FleetPage", "fleet --json", &shapes());
    assert_eq!(
        keys(&page),
        [
            key("alpha", "tank"),
            key("beta", "fast"),
            key("beta", "tank"),
            key("gamma", "old")
        ]
    );
    let rows = page["pools"].as_array().unwrap();
    let alpha = &rows[0];
    assert_eq!(
        (alpha["flagged"].clone(), alpha["machine_id"].clone()),
        (json!(false), json!("alpha-id"))
    );
    let ratios: Vec<f64> = alpha["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["ratio"].as_f64().unwrap())
        .collect();
    assert_eq!(
        ratios,
        [0.96, 0.9],
        "the newest bench, not the slow old one"
    );
    let beta = &rows[2];
    assert_eq!(beta["flagged"], json!(true));
    let w = &beta["workloads"][0];
    assert_eq!(
        (w["ratio"].as_f64(), w["short"].clone()),
        (Some(0.4), json!(true))
    );
    assert_eq!(w["bottleneck"], json!("the disks limit dd-read:size=1G"));
    assert_eq!(
        rows[1]["flagged"],
        json!(false),
        "above the band is no shortfall"
    );
    assert_eq!(
        (page["more"].clone(), page["limit"].clone()),
        (json!(false), json!(100))
    );

    assert_eq!(
        keys(&fleet(db, &["--host", "beta"])),
        [key("beta", "fast"), key("beta", "tank")]
    );
    assert_eq!(
        keys(&fleet(db, &["--pool", "tank"])),
        [key("alpha", "tank"), key("beta", "tank")]
    );
    assert_eq!(
        keys(&fleet(db, &["--age", "30d"])).len(),
        3,
        "gamma's bench is too old"
    );
    assert_eq!(
        keys(&fleet(db, &["--age", "3h"])),
        [key("alpha", "tank"), key("beta", "tank")]
    );
    let first = fleet(db, &["--limit", "3"]);
    assert_eq!(
        (keys(&first).len(), first["more"].clone()),
        (3, json!(true))
    );
    let next = fleet(db, &["--limit", "3", "--offset", "3"]);
    assert_eq!(
        (keys(&next), next["more"].clone()),
        (vec![key("gamma", "old")], json!(false))
    );

    let (code, text, err) = run(&["fleet", "--db", db, "--pool", "tank"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains(" 0.40!  the disks limit dd-read:size=1G"),
        "{text}"
    );
    assert!(text.contains("2 pools, 1 flagged"), "{text}");
    check_repredict(db);
}

/// --repredict replaces each stored prediction by what `predict` says today of the same file.
fn check_repredict(db: &str) {
    let page = fleet(db, &["--host", "beta", "--pool", "tank", "--repredict"]);
    let row = &page["pools"][0];
    assert_eq!(row["repredicted"], json!(true));
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/raidz2-10x4tb.toml"
    );
    let p = common::json(&["predict", file, "-w", "dd-read:size=1G", "--json"]);
    let w = &row["workloads"][0];
    assert_eq!(w["predicted_bytes_per_s"], p["throughput_bytes_per_s"]);
    assert_eq!(w["expected_error_pct"], p["expected_error_pct"]);
    assert_eq!(w["bottleneck"], p["bottleneck"]["sentence"]);
}

#[test]
fn fleet_of_a_sqlite_store() {
    let dir = Scratch::new("fleet-sqlite");
    let db = dir.path("results.sqlite");
    sqlite_store(&db);
    check_fleet(&db);
    // A push between two files: once, then nothing more.
    let copy = dir.path("copy.sqlite");
    let pushed = common::json(&["results", "--db", &db, "--push", &copy, "--json"]);
    check(&pushed, "Pushed", "results --push --json", &shapes());
    assert_eq!(
        pushed,
        json!({"copied": [1, 2, 3, 4, 5], "already": 0, "skipped": []})
    );
    let again = common::json(&["results", "--db", &db, "--push", &copy, "--json"]);
    assert_eq!(again, json!({"copied": [], "already": 5, "skipped": []}));
    check_fleet(&copy);
    let (code, _, err) = run(&["fleet", "--db", &db, "--age", "0"]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("from 1h to 3650d"), "{err}");
}

/// `serve --db` shows the fleet: the page, its table's JSON, a pool's history and a bench's
/// detail; without a store the view says how to get one.
#[test]
fn serve_shows_the_fleet_of_a_store() {
    let dir = Scratch::new("fleet-serve");
    let db = dir.path("results.sqlite");
    sqlite_store(&db);
    let served = common::serve::Served::start_with(&["--db", &db]);
    let (status, page) = served.get("/fleet");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/fleet.js\">"), "{page}");
    let (status, script) = served.get("/fleet.js");
    assert!(status == 200 && script.contains("/api/fleet/history"));
    let (status, body) = served.get("/api/fleet?pool=tank");
    assert_eq!(status, 200, "{body}");
    let fleet: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(keys(&fleet), [key("alpha", "tank"), key("beta", "tank")]);
    let (_, body) = served.get("/api/fleet/history?host=alpha&machine_id=alpha-id&pool=tank");
    let history: Value = serde_json::from_str(&body).unwrap();
    let ratios: Vec<Value> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["workloads"][0]["ratio"].clone())
        .collect();
    assert_eq!(ratios, [json!(0.4), json!(0.96)], "oldest first");
    let (status, body) = served.get("/api/fleet/bench?id=5");
    assert_eq!(status, 200, "{body}");
    let detail: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (detail["host"].clone(), detail["pool"].clone()),
        (json!("beta"), json!("tank"))
    );
    check(
        &detail["comparison"],
        "BenchComparison",
        "/api/fleet/bench",
        &shapes(),
    );
    assert_eq!(detail["comparison"]["workloads"][0]["ratio"], json!(0.4));
    assert_eq!(served.get("/api/fleet/bench?id=x").0, 400);
    drop(served);
    let plain = common::serve::Served::start();
    let (status, body) = plain.get("/api/fleet");
    assert_eq!(status, 404);
    assert!(body.contains("zpoolsim serve --db FILE|URL"), "{body}");
    // A person opening the page gets a page saying what to run.
    let (status, page) = plain.get("/fleet");
    assert_eq!(status, 404);
    assert!(
        page.starts_with("<!doctype html>") && page.contains("zpoolsim serve --db"),
        "{page}"
    );
}

#[test]
fn fleet_of_a_postgresql_store_the_benches_were_pushed_to() {
    let server = match Server::start("fleet") {
        Ok(s) => s,
        Err(why) => return skip("fleet on PostgreSQL", &why),
    };
    let dir = Scratch::new("fleet-pg");
    let local = dir.path("results.sqlite");
    sqlite_store(&local);
    let url = server.database("fleet", "postgres");
    let push = |db: &str| run(&["results", "--db", db, "--push", &url]);
    let (code, out, err) = push(&local);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("pushed 5 benches to {url}; 0 were there already; 0 skipped\n").as_str()
        ),
        "{err}"
    );
    let (_, again, _) = push(&local);
    assert_eq!(
        again,
        format!("pushed 0 benches to {url}; 5 were there already; 0 skipped\n")
    );
    assert_eq!(
        server.sql("fleet", "SELECT count(*) FROM bench").trim(),
        "5"
    );
    check_fleet(&url);
    broken_rows_are_skipped(&server, &dir);
    a_killed_push_leaves_no_partial_bench(&server, &dir);
    refusals(&server);
    passwords_are_taken_as_libpq_takes_them_and_never_shown(&server, &dir);
    first_pushes_at_once_make_the_schema_once(&server);
    a_locked_table_is_said_in_seconds(&server, &url);
    serve_answers_again_after_the_database_restarts(&server, &url);
}

/// `zpoolsim ARGS` with `env` set and `unset` removed from its environment; exit code, stdout,
/// stderr and how long it took.
fn run_env(
    args: &[&str],
    env: &[(&str, &str)],
    unset: &[&str],
) -> (i32, String, String, std::time::Duration) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_zpoolsim"));
    for name in unset {
        command.env_remove(name);
    }
    command.args(args).envs(env.iter().copied());
    let start = std::time::Instant::now();
    let out = command.output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
    )
}

/// A role that must log in with a password: given in the URL (`?password=`), in PGPASSWORD or
/// in ~/.pgpass (only when no one else may read it), as psql takes it. Wherever the password
/// was, no message, error or HTTP answer shows it; before, `/api/fleet?host=%00` answered
/// with the URL and its password.
fn passwords_are_taken_as_libpq_takes_them_and_never_shown(server: &Server, dir: &Scratch) {
    let secret = "pw-s3cret";
    server.require_password("keeper", secret);
    server.sql(
        "fleet",
        "GRANT SELECT ON ALL TABLES IN SCHEMA public TO keeper",
    );
    let url = server.url("fleet", "keeper");
    let fleet_of = |env: &[(&str, &str)], home: &str| {
        let unset = ["PGPASSWORD", "PGPASSFILE", "ZPOOLSIM_DB"];
        let env = [env, &[("HOME", home)]].concat();
        let (code, out, err, _) = run_env(&["fleet", "--db", &url, "--json"], &env, &unset);
        assert!(!format!("{out}{err}").contains(secret), "{out}{err}");
        (code, err)
    };
    let home = dir.path("home");
    std::fs::create_dir_all(&home).unwrap();
    let (code, err) = fleet_of(&[], &home);
    assert_eq!(code, 2, "no password: refused");
    assert!(
        err.starts_with(&format!(
            "zpoolsim: results database {url}: cannot connect: "
        )),
        "{err}"
    );
    let (code, err) = fleet_of(&[("PGPASSWORD", secret)], &home);
    assert_eq!(code, 0, "PGPASSWORD: {err}");
    let pgpass = std::path::Path::new(&home).join(".pgpass");
    let line = format!(
        "# the team's store\n127.0.0.1:{}:fleet:keeper:{secret}\n",
        server.port
    );
    std::fs::write(&pgpass, line).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, err) = fleet_of(&[], &home);
    assert_eq!(code, 0, "~/.pgpass: {err}");
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(
        fleet_of(&[], &home).0,
        2,
        "a ~/.pgpass others may read is not used"
    );
    let wrong = format!("{url}?password=wrong-{secret}");
    let (code, _, err, _) = run_env(&["fleet", "--db", &wrong], &[], &[]);
    assert_eq!(code, 2);
    assert!(!err.contains("wrong-") && err.contains(&url), "{err}");
    let with = format!(
        "postgres://keeper:{secret}@127.0.0.1:{}/fleet?password={secret}",
        server.port
    );
    let served = common::serve::Served::start_with(&["--db", &with]);
    let (status, body) = served.get("/api/fleet?host=%00");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains(&url) && !body.contains(secret), "{body}");
}

/// Four first pushes into an empty database at the same moment: each makes or finds the
/// schema (before, the second failed on creating a type the first was creating).
fn first_pushes_at_once_make_the_schema_once(server: &Server) {
    for round in 0..3 {
        let url = server.database(&format!("race{round}"), "postgres");
        let at = Location::from_flag(Some(&url)).unwrap();
        let start = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            let opened: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        start.wait();
                        Store::open(&at).map(drop)
                    })
                })
                .collect();
            for o in opened {
                o.join().unwrap().expect("each opens the store");
            }
        });
        let versions = server.sql(
            &format!("race{round}"),
            "SELECT count(*) FROM zpoolsim_schema",
        );
        assert_eq!(versions.trim(), "1");
    }
}

/// A table another session holds locked: saving a bench (what Ctrl-C does with the finished
/// workloads) and `/api/fleet` each say so within the lock wait, 5 s, rather than waiting
/// (38 s before) for as long as the lock is held.
fn a_locked_table_is_said_in_seconds(server: &Server, url: &str) {
    let mut holder = server.session(
        "fleet",
        "BEGIN; LOCK TABLE bench IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)",
    );
    let locked = || {
        server.sql("postgres", "SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation IS NOT NULL AND granted").trim() != "0"
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !locked() {
        assert!(
            std::time::Instant::now() < deadline,
            "the lock was never taken"
        );
    }
    let start = std::time::Instant::now();
    let mut store = Store::open_existing(&Location::from_flag(Some(url)).unwrap()).unwrap();
    let e = store
        .save(&bench("locked", "tank", 60, vec![]))
        .unwrap_err()
        .to_string();
    let waited = start.elapsed();
    assert!(
        e.contains("another session holds the table; waited 5 s"),
        "{e}"
    );
    assert!(waited < std::time::Duration::from_secs(10), "{waited:?}");
    let served = common::serve::Served::start_with(&["--db", url]);
    let start = std::time::Instant::now();
    let (status, body) = served.get("/api/fleet");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("another session holds the table"), "{body}");
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    // The server-side session sleeps on after its psql is gone: ended there.
    server.sql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()");
    holder.wait().unwrap();
}

/// `serve --db` across a restart of the database: the connections it held are gone, and the
/// next request is answered over a new one (before: 400 "connection closed" until restarted).
fn serve_answers_again_after_the_database_restarts(server: &Server, url: &str) {
    let served = common::serve::Served::start_with(&["--db", url]);
    let (status, body) = served.get("/api/fleet");
    assert_eq!(status, 200, "{body}");
    server.restart();
    let (status, body) = served.get("/api/fleet");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["pools"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
}

/// A push killed (SIGKILL) partway leaves only whole benches, each with both its runs and
/// their samples; pushed again, every bench is there once.
fn a_killed_push_leaves_no_partial_bench(server: &Server, dir: &Scratch) {
    let local = dir.path("many.sqlite");
    let mut store = Store::open(&Location::Sqlite(local.clone().into())).unwrap();
    for i in 0..100 {
        let mut b = bench(
            &format!("h{i:03}"),
            "tank",
            60,
            vec![
                run_of("dd-read:size=1G", 200.0, 250.0, 12.7),
                run_of("dd-write:size=1G", 100.0, 250.0, 12.7),
            ],
        );
        for r in &mut b.runs {
            r.samples = (0..30)
                .map(|s| Sample {
                    second: s,
                    device: "sda".into(),
                    vdev: Some("mirror-0".into()),
                    read_ops_per_s: 1.0,
                    write_ops_per_s: 1.0,
                    read_bytes_per_s: 1.0,
                    write_bytes_per_s: 1.0,
                })
                .collect();
        }
        store.save(&b).unwrap();
    }
    drop(store);
    let url = server.database("killed", "postgres");
    let mut push = std::process::Command::new(env!("CARGO_BIN_EXE_zpoolsim"))
        .args(["results", "--db", &local, "--push", &url])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the first benches are in, well before the 100th.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let stored = || {
        let made = server.sql("killed", "SELECT to_regclass('bench') IS NOT NULL");
        made.trim() == "t" && server.sql("killed", "SELECT count(*) FROM bench").trim() != "0"
    };
    while !stored() {
        assert!(
            std::time::Instant::now() < deadline,
            "the push stored nothing in 30 s"
        );
    }
    push.kill().unwrap();
    push.wait().unwrap();
    let whole = "SELECT count(*) || ' ' || count(*) FILTER (WHERE (SELECT count(*) FROM run r WHERE r.bench_id = b.id) = 2 AND (SELECT count(*) FROM disk_sample s JOIN run r ON s.run_id = r.id WHERE r.bench_id = b.id) = 60) FROM bench b";
    let counts = server.sql("killed", whole);
    let (benches, complete) = counts.trim().split_once(' ').unwrap();
    eprintln!("killed push: {benches} of 100 benches stored, {complete} whole");
    assert_eq!(benches, complete, "every stored bench is whole");
    let (code, out, err) = run(&["results", "--db", &local, "--push", &url]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("{benches} were there already; 0 skipped")),
        "{out}"
    );
    assert_eq!(server.sql("killed", whole).trim(), "100 100");
}

/// A bench whose prediction is not JSON cannot be read, and one with a NUL in a disk's name
/// cannot be written to PostgreSQL (after its bench and run rows were): both are reported and
/// skipped, the second leaving nothing behind, and the others are copied.
fn broken_rows_are_skipped(server: &Server, dir: &Scratch) {
    let local = dir.path("broken.sqlite");
    sqlite_store(&local);
    let mut nul = bench(
        "delta",
        "tank",
        60,
        vec![run_of("dd-read:size=1G", 1.0, 1.0, 10.0)],
    );
    nul.runs[0].samples.push(Sample {
        second: 0,
        device: "sd\0a".into(),
        vdev: None,
        read_ops_per_s: 1.0,
        write_ops_per_s: 0.0,
        read_bytes_per_s: 1.0,
        write_bytes_per_s: 0.0,
    });
    let mut store = Store::open(&Location::Sqlite(local.clone().into())).unwrap();
    store.save(&nul).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&local).unwrap();
    conn.execute(
        "UPDATE run SET prediction_json = 'not json' WHERE bench_id = 2",
        [],
    )
    .unwrap();
    drop(conn);
    let url = server.database("broken", "postgres");
    let (code, out, err) = run(&["results", "--db", &local, "--push", &url]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("pushed 4 benches to {url}; 0 were there already; 2 skipped")
    );
    assert_eq!(
        lines[1],
        "  skipped bench 2: run 2: its prediction is not JSON: expected ident at line 1 column 2"
    );
    assert!(
        lines[2].starts_with(&format!("  skipped bench 6: results database {url}: ")),
        "{out}"
    );
    let counts = server.sql("broken", "SELECT (SELECT count(*) FROM bench) || ' ' || (SELECT count(*) FROM run) || ' ' || (SELECT count(*) FROM bench WHERE host = 'delta')");
    assert_eq!(counts.trim(), "4 5 0", "no partial bench");
}

/// A role that may only read, a server that does not answer and a schema of another version
/// are refused before a bench looks at its directory, in one line.
fn refusals(server: &Server) {
    server.sql(
        "fleet",
        "CREATE ROLE reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader",
    );
    let reader = server.url("fleet", "reader");
    let refused = |db: &str| {
        let (code, out, err) = run(&["bench", "/", "--db", db]);
        assert_eq!(
            (code, out.as_str(), err.lines().count()),
            (2, "", 1),
            "{err}"
        );
        err
    };
    assert_eq!(
        refused(&reader),
        format!("zpoolsim: results database {reader}: this role may not add rows to 'bench': grant it INSERT, or give a role that may write and read\n")
    );
    assert_eq!(
        fleet(&reader, &[])["pools"].as_array().unwrap().len(),
        4,
        "a reader reads the fleet"
    );
    // INSERT without SELECT failed only after fio ran (INSERT ... RETURNING id reads the
    // row): now it is refused before.
    server.sql(
        "fleet",
        "CREATE ROLE writer LOGIN; GRANT INSERT ON ALL TABLES IN SCHEMA public TO writer; GRANT SELECT ON zpoolsim_schema TO writer",
    );
    let writer = server.url("fleet", "writer");
    assert_eq!(
        refused(&writer),
        format!("zpoolsim: results database {writer}: this role may not read 'bench': grant it SELECT, or give a role that may write and read\n")
    );
    let closed = format!("postgres://postgres@127.0.0.1:{}/fleet", server.port + 1);
    assert!(refused(&closed).starts_with(&format!(
        "zpoolsim: results database {closed}: cannot connect: "
    )));
    let newer = server.database("newer", "postgres");
    let (code, _, err) = run(&["results", "--db", &newer]);
    assert_eq!(code, 0, "a new database gets the schema: {err}");
    server.sql("newer", "UPDATE zpoolsim_schema SET version = 9");
    assert_eq!(
        refused(&newer),
        format!("zpoolsim: {newer}: results of schema version 9; this zpoolsim reads version 2 (a newer zpoolsim made them)\n")
    );
}

/// A bench from a machine whose hostname, pool and workload hold terminal escapes (stored by
/// that machine, pushed to the team's store): `fleet`, `results` and `results ID` print them
/// escaped, and not one control character reaches the terminal.
#[test]
fn stored_control_characters_are_escaped() {
    let dir = Scratch::new("fleet-escapes");
    let db = dir.path("results.sqlite");
    let mut store = Store::open(&Location::Sqlite(db.as_str().into())).unwrap();
    let mut evil = bench(
        "evil\u{1b}]0;pwned\u{7}",
        "tank\r",
        3600,
        vec![run_of("dd-read:size=1G\u{1b}[2J", 100.0, 250.0, 12.7)],
    );
    evil.dataset = "tank/\u{1b}[31mred".into();
    store.save(&evil).unwrap();
    for args in [
        &["fleet", "--db", &db][..],
        &["results", "--db", &db],
        &["results", "1", "--db", &db],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            !out.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?}: {out:?}"
        );
        assert!(out.contains("\\u{1b}"), "{args:?}: {out}");
    }
    let (_, out, _) = run(&["fleet", "--db", &db]);
    assert!(
        out.starts_with("host") && out.contains("\nevil\\u{1b}]0;pwned\\u{7} tank\\r"),
        "{out}"
    );
}

/// A host whose machine-id is empty (a container without /etc/machine-id) is stored with an
/// empty one; its history is reachable as `machine_id=` (before: "give host, machine_id and
/// pool").
#[test]
fn a_host_without_a_machine_id_has_a_history() {
    let dir = Scratch::new("fleet-no-machine-id");
    let db = dir.path("results.sqlite");
    let mut store = Store::open(&Location::Sqlite(db.as_str().into())).unwrap();
    let mut b = bench(
        "bare",
        "tank",
        60,
        vec![run_of("dd-read:size=1G", 100.0, 250.0, 12.7)],
    );
    b.host.machine_id = String::new();
    store.save(&b).unwrap();
    let served = common::serve::Served::start_with(&["--db", &db]);
    let (status, body) = served.get("/api/fleet/history?host=bare&machine_id=&pool=tank");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body)
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// A server that accepts the connection and never answers: refused in one line within the
/// connect wait, 5 s (the docs' promise; before, bench waited 14.6 s).
#[test]
fn a_server_that_never_answers_is_refused_within_5_s() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = std::thread::spawn(move || {
        listener.accept().map(|(socket, _)| {
            std::thread::sleep(std::time::Duration::from_secs(15));
            drop(socket)
        })
    });
    let url = format!("postgres://team@127.0.0.1:{port}/zpoolsim");
    let (code, _, err, took) = run_env(&["fleet", "--db", &url], &[], &[]);
    assert_eq!(
        err,
        format!("zpoolsim: results database {url}: cannot connect: no answer within 5 s\n")
    );
    assert_eq!(code, 2);
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    drop(held);
}

/// With HOME unset or empty and no --db nor ZPOOLSIM_DB there is no default store: one line
/// says so, rather than a store under / or the current directory; --db still works.
#[test]
fn no_home_no_default_store() {
    let dir = Scratch::new("fleet-no-home");
    let unset = ["HOME", "XDG_DATA_HOME", "ZPOOLSIM_DB"];
    let empty_home = [("HOME", "")];
    for (env, removed) in [(&[][..], &unset[..]), (&empty_home[..], &unset[1..])] {
        let (code, out, err, _) = run_env(&["results"], env, removed);
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (2, "", "zpoolsim: HOME is unset or empty, so there is no default results store: give --db FILE|URL or set ZPOOLSIM_DB\n")
        );
    }
    let db = dir.path("results.sqlite");
    let (code, _, err, _) = run_env(&["results", "--db", &db], &[], &unset);
    assert_eq!(code, 0, "{err}");
}
