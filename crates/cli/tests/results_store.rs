//! The results store as the commands meet it: checked before a bench measures anything (an
//! empty, damaged or locked store is refused in one line, exit code 2, before the dataset is
//! even looked at), and every reading command on a machine that never benched says so and succeeds.

mod common;

use common::{run, Scratch};

/// `bench` at a directory that is no ZFS dataset, with `db`: the store's refusal must come
/// first (it is checked before the dataset), as one line and exit code 2.
fn bench_refused(db: &str) -> String {
    let (code, out, err) = run(&["bench", "/", "--runtime", "1", "--db", db]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        !err.contains("ZFS dataset"),
        "the store is checked first: {err}"
    );
    err
}

#[test]
fn a_store_that_cannot_take_a_bench_is_refused_first() {
    let dir = Scratch::new("cli-store");
    let empty = dir.path("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        bench_refused(&empty),
        format!("zpoolsim: {empty} is an empty file, not a results database: remove it, or give another --db\n")
    );
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);

    let corrupt = dir.path("corrupt.sqlite");
    std::fs::write(&corrupt, vec![0x5a; 4096]).unwrap();
    assert_eq!(
        bench_refused(&corrupt),
        format!("zpoolsim: results database {corrupt}: file is not a database\n")
    );

    let locked = dir.path("locked.sqlite");
    let (code, _, err) = run(&["results", "--db", &locked]);
    assert_eq!(code, 0, "{err}");
    let holder = rusqlite::Connection::open(&locked).unwrap();
    holder
        .execute_batch("CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);")
        .unwrap();
    let err = bench_refused(&locked);
    assert!(
        err.starts_with(&format!("zpoolsim: results database {locked}: "))
            && err.contains("database is locked"),
        "{err}"
    );
}

/// Every reading command on `db`, which holds no bench: exit 0, nothing on stderr, `sentence`
/// as text, and the answer's empty JSON shape with --json.
fn reads_nothing_yet(db: &str, sentence: &str) {
    let reads: [(&[&str], &str); 5] = [
        (&["results"], "[]"),
        (&["results", "3"], "null"),
        (
            &["fleet"],
            r#"{"limit":100,"more":false,"offset":0,"pools":[]}"#,
        ),
        (&["bench", "--compare"], "null"),
        (&["bench", "--compare", "--id", "3"], "null"),
    ];
    for (command, empty) in reads {
        let args = [command, &["--db", db]].concat();
        let (code, out, err) = run(&args);
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, sentence, ""),
            "{args:?}"
        );
        let (code, out, err) = run(&[args.as_slice(), &["--json"]].concat());
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json.to_string(), empty, "{args:?}");
    }
}

/// One meaning of "no results yet" (issue 30): results, results N, fleet and bench --compare
/// on a machine that never benched say so and succeed, whether no store was made or it was
/// made and holds no bench. A bench number missing from a store that holds some stays an
/// error (measure_zfs_fuse.rs).
#[test]
fn every_reading_command_without_results_says_so() {
    let dir = Scratch::new("cli-nostore");
    let db = dir.path("none/results.sqlite");
    let sentence = format!("no results yet: {db} does not exist (`zpoolsim bench DIR` makes it)\n");
    reads_nothing_yet(&db, &sentence);
    assert!(!std::path::Path::new(&db).exists(), "nothing is made");

    let empty = dir.path("empty.sqlite");
    // A store as `bench` makes it before its first run finishes.
    store::Store::open(&store::Location::from_flag(Some(&empty)).unwrap()).unwrap();
    let sentence =
        format!("no results yet: {empty} holds no bench (`zpoolsim bench DIR` stores one)\n");
    reads_nothing_yet(&empty, &sentence);
}
