//! The results store as the commands meet it: checked before a bench measures anything (an
//! empty, damaged or locked store is refused in one line, exit code 2, before the dataset is
//! even looked at), and `results` on a machine without one says so and succeeds.

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

#[test]
fn results_without_a_store_says_so() {
    let dir = Scratch::new("cli-nostore");
    let db = dir.path("none/results.sqlite");
    let (code, out, err) = run(&["results", "--db", &db]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!("no results yet: {db} does not exist (`zpoolsim bench DIR` makes it)\n")
    );
    let (code, out, _) = run(&["results", "--db", &db, "--json"]);
    assert_eq!((code, out.as_str()), (0, "[]\n"));
    assert!(!std::path::Path::new(&db).exists(), "nothing is made");
    let (code, _, err) = run(&["results", "3", "--db", &db]);
    assert_eq!(code, 2);
    assert!(err.contains("run `zpoolsim bench` first"), "{err}");
}
