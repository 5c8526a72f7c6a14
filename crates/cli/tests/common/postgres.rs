//! A throwaway PostgreSQL server for the tests: Debian's `postgresql` package (installed when
//! missing and we are root), a cluster made by initdb in a temporary directory, listening on a
//! free port of 127.0.0.1 only (and a socket in that directory), trust authentication, fsync
//! off. Stopped (`pg_ctl stop -m immediate`) and removed on drop, so also when a test fails.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

pub(crate) struct Server {
    dir: PathBuf,
    bin: PathBuf,
    pub port: u16,
    root: bool,
}

/// The newest installed PostgreSQL's bin directory.
fn bin_dir() -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").exists())
        .collect();
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    found.pop()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Installs Debian's postgresql when it is missing and we may.
fn install() -> Result<PathBuf, String> {
    if let Some(bin) = bin_dir() {
        return Ok(bin);
    }
    if !is_root() || super::which("apt-get").is_none() {
        return Err("PostgreSQL is not installed (the Debian package postgresql), and we are not root to install it".into());
    }
    // Quietly: apt-get's words reach the test log only when the install fails.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/apt-install.sh");
    let out = Command::new("bash")
        .args([script, "postgresql"])
        .output()
        .map_err(|e| format!("bash {script}: {e}"))?;
    bin_dir()
        .filter(|_| out.status.success())
        .ok_or_else(|| String::from_utf8_lossy(&out.stderr).trim().to_string())
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Server {
    /// Starts a server, or says why it cannot.
    pub(crate) fn start(name: &str) -> Result<Server, String> {
        let bin = install()?;
        let dir = std::env::temp_dir().join(format!("zpoolsim-pg-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let server = Server {
            dir,
            bin,
            port: free_port(),
            root: is_root(),
        };
        if server.root {
            // initdb refuses root: the cluster belongs to the postgres user.
            let owner = Command::new("chown")
                .args(["postgres:postgres", &server.dir.display().to_string()])
                .status();
            if !owner.is_ok_and(|s| s.success()) {
                return Err("cannot give the cluster to the postgres user".into());
            }
        }
        let data = server.path("data");
        server.must(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        )?;
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40",
            server.port,
            server.dir.display()
        );
        let log = server.path("log");
        server.must(
            "pg_ctl",
            &[
                "-D", &data, "-o", &options, "-l", &log, "-w", "-t", "60", "start",
            ],
        )?;
        Ok(server)
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// One of PostgreSQL's programs (as the postgres user when we are root).
    fn command(&self, name: &str, args: &[&str]) -> Command {
        let program = self.bin.join(name);
        let mut command = if self.root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        command.args(args).current_dir(&self.dir);
        command
    }

    /// Runs one of PostgreSQL's programs.
    fn program(&self, name: &str, args: &[&str]) -> Output {
        self.command(name, args)
            .output()
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The psql arguments that run `sql` as the superuser in `db`.
    fn psql_args<'a>(&self, port: &'a str, db: &'a str, sql: &'a str) -> [&'a str; 16] {
        [
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-U",
            "postgres",
            "-d",
            db,
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            sql,
        ]
    }

    /// Starts `sql` in `db` in a session of its own and leaves it running (a lock held while
    /// it sleeps); the session ends when the child is killed or the sleep ends.
    pub(crate) fn session(&self, db: &str, sql: &str) -> std::process::Child {
        let port = self.port.to_string();
        self.command("psql", &self.psql_args(&port, db, sql))
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("psql starts")
    }

    /// Stops the server and starts it again on the same port (its clients' sessions end).
    pub(crate) fn restart(&self) {
        let (data, log) = (self.path("data"), self.path("log"));
        // Its output goes to the log: a pipe the new server kept open would never end.
        self.must(
            "pg_ctl",
            &[
                "-D", &data, "-l", &log, "-m", "fast", "-w", "-t", "60", "restart",
            ],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Makes `role` log in with `password` over TCP (SCRAM), others still trusted.
    pub(crate) fn require_password(&self, role: &str, password: &str) {
        self.sql(
            "postgres",
            &format!("CREATE ROLE {role} LOGIN PASSWORD '{password}'"),
        );
        let hba = self.dir.join("data/pg_hba.conf");
        let rules = self.sql("postgres", "SHOW hba_file");
        let hba = if rules.trim().is_empty() {
            hba
        } else {
            PathBuf::from(rules.trim())
        };
        let old = fs::read_to_string(&hba).expect("pg_hba.conf");
        let first = format!("host all {role} 127.0.0.1/32 scram-sha-256\n");
        fs::write(&hba, first + &old).expect("pg_hba.conf written");
        self.sql("postgres", "SELECT pg_reload_conf()");
        // The postmaster reads the file again on the signal, a moment after.
        std::thread::sleep(std::time::Duration::from_millis(500));
    }

    fn must(&self, name: &str, args: &[&str]) -> Result<String, String> {
        let out = self.program(name, args);
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            let log = fs::read_to_string(self.dir.join("log")).unwrap_or_default();
            Err(format!(
                "{name} {args:?}: {}{log}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    /// Runs SQL as the superuser in `db`; its output (unaligned, tuples only).
    pub(crate) fn sql(&self, db: &str, sql: &str) -> String {
        let port = self.port.to_string();
        self.must("psql", &self.psql_args(&port, db, sql))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A new database; its URL for `user`.
    pub(crate) fn database(&self, name: &str, user: &str) -> String {
        self.sql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(name, user)
    }

    pub(crate) fn url(&self, db: &str, user: &str) -> String {
        format!("postgres://{user}@127.0.0.1:{}/{db}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let data = self.path("data");
        let _ = self.program("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"]);
        let _ = fs::remove_dir_all(&self.dir);
    }
}
