//! Where a PostgreSQL store is: the `postgres://` URL parsed once into the driver's connection
//! config, the role and password taken where libpq takes them (the URL, else `PGUSER` or the
//! login name, and `PGPASSWORD` or the password file), and the one printed form, which never
//! holds a password.

use crate::{Result, StoreError};
use std::path::PathBuf;
use tokio_postgres::config::Host;

/// A PostgreSQL results database: how to connect to it, and how messages name it.
#[derive(Clone)]
pub struct Server {
    pub(crate) config: tokio_postgres::Config,
    place: String,
}

impl Server {
    /// Parses the URL once; a password it lacks is looked for as libpq looks for one.
    pub fn parse(url: &str) -> Result<Server> {
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
            // The driver's parse errors name an option, never a value: no password in them.
            StoreError(format!("results database URL: {e}"))
        })?;
        if config.get_user().is_none() {
            // As libpq: PGUSER, else the login name (which the driver would take anyway; set
            // here so the password file is matched and messages name the same role).
            let user = std::env::var("PGUSER").ok().filter(|u| !u.is_empty());
            if let Some(user) = user.or_else(|| whoami::username().ok()) {
                config.user(user);
            }
        }
        let place = place(&config);
        if config.get_password().is_none() {
            if let Some(password) = password_of(&config) {
                config.password(password);
            }
        }
        Ok(Server { config, place })
    }

    /// The database as messages, logs and HTTP answers name it: `postgres://USER@HOST:PORT/DB`.
    pub fn place(&self) -> &str {
        &self.place
    }
}

/// Two places are the same database whatever password reaches them.
impl PartialEq for Server {
    fn eq(&self, other: &Server) -> bool {
        self.place == other.place
    }
}

impl Eq for Server {}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.place)
    }
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.place)
    }
}

/// The printed form, built from the parsed fields (user, hosts, ports, database) so that no
/// password, wherever the URL held it (`user:pw@`, `?password=`), can reach it.
fn place(config: &tokio_postgres::Config) -> String {
    let user = config.get_user().map_or(String::new(), |u| format!("{u}@"));
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            format!("{}:{port}", host_name(h))
        })
        .collect();
    let db = config.get_dbname().unwrap_or_default();
    model::input::escape_controls(&format!("postgres://{user}{}/{db}", hosts.join(",")))
}

/// A host as the password file names it: a socket directory is `localhost` there.
fn host_name(host: &Host) -> String {
    match host {
        Host::Tcp(name) => name.clone(),
        Host::Unix(_) => "localhost".into(),
    }
}

/// `PGPASSWORD`, else the first matching line of the password file.
fn password_of(config: &tokio_postgres::Config) -> Option<String> {
    if let Some(p) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        return Some(p);
    }
    let text = std::fs::read_to_string(password_file()?).ok()?;
    let user = config.get_user().unwrap_or_default();
    let host = config
        .get_hosts()
        .first()
        .map_or("localhost".into(), host_name);
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let db = config.get_dbname().unwrap_or(user);
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(fields)
        .find(|f| {
            f.len() == 5
                && [host.as_str(), &port, db, user]
                    .iter()
                    .zip(f)
                    .all(|(want, have)| have == "*" || have == want)
        })
        .map(|f| f[4].clone())
}

/// `PGPASSFILE`, else `~/.pgpass`; as libpq, a file that the group or others may read or
/// write is not used (it would hand every user of the machine the team's password).
fn password_file() -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = match std::env::var_os("PGPASSFILE").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".pgpass"),
    };
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
        return None;
    }
    Some(path)
}

/// A password file line's `host:port:database:user:password`, `\:` and `\\` unescaped.
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.last_mut().unwrap().extend(chars.next()),
            ':' if out.len() < 5 => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_reaches_the_printed_form() {
        for url in [
            "postgres://team:s3cr3t@db.example.net:5433/zpoolsim",
            "postgresql://team@db.example.net:5433/zpoolsim?password=s3cr3t",
            "postgres://team:s3cr3t@db.example.net:5433/zpoolsim?password=s3cr3t&connect_timeout=2",
        ] {
            let server = Server::parse(url).unwrap();
            assert_eq!(
                server.place(),
                "postgres://team@db.example.net:5433/zpoolsim"
            );
            assert_eq!(
                format!("{server} {server:?}"),
                format!("{0} {0}", server.place())
            );
            assert_eq!(server.config.get_password(), Some(&b"s3cr3t"[..]));
        }
        let e = Server::parse("postgres://team:s3cr3t@db/z?port=x&password=s3cr3t").unwrap_err();
        assert!(!e.to_string().contains("s3cr3t"), "{e}");
    }

    /// A URL without a role is the login's (or PGUSER's), named so in messages.
    #[test]
    fn a_url_without_a_role_takes_the_login_name() {
        let server = Server::parse("postgres://db.example.net/zpoolsim").unwrap();
        let user = server.config.get_user().expect("a role").to_string();
        assert!(!user.is_empty());
        assert_eq!(
            server.place(),
            format!("postgres://{user}@db.example.net:5432/zpoolsim")
        );
    }

    #[test]
    fn password_file_lines_are_split_as_libpq_does() {
        assert_eq!(
            fields("db\\:1:5432:*:team:pa:ss\\\\"),
            ["db:1", "5432", "*", "team", "pa:ss\\"]
        );
        assert_eq!(fields("a:b"), ["a", "b"]);
    }
}
