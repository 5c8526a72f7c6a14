//! The fleet view, when `serve` is given a results store: the page `/fleet` (`/fleet.js`,
//! `/fleet.css`) and three GET endpoints over the store, answered as JSON: `/api/fleet` (a page
//! of host and pool rows, `host`, `pool` and `offset` in the query), `/api/fleet/history`
//! (`host`, `machine_id`, `pool`: that pool's benches, oldest first) and `/api/fleet/bench`
//! (`id`: one bench, measured beside predicted, per workload and disk). The store is behind
//! the `Fleet` trait, so this crate needs no database: the command line hands one in.

use crate::routes::Reply;

const PAGE: &str = include_str!("../page/fleet.html");
const SCRIPT: &str = include_str!("../page/fleet.js");
const STYLE: &str = include_str!("../page/fleet.css");
/// What `/fleet` shows without a store: what to run to get one.
const NO_STORE: &str = include_str!("../page/fleet-none.html");

/// Benches of one pool a history shows at most.
const HISTORY: u32 = 200;

/// A results store as the fleet view reads it; each answer serialisable as JSON, each error
/// one sentence.
pub trait Fleet: Send + Sync {
    /// One page of the fleet (the newest bench of each host and pool), filtered by host and pool.
    fn page(
        &self,
        host: Option<&str>,
        pool: Option<&str>,
        offset: u32,
    ) -> Result<serde_json::Value, String>;
    /// One host's pool over time: its newest `limit` benches, oldest first, for the chart.
    fn history(
        &self,
        host: &str,
        machine_id: &str,
        pool: &str,
        limit: u32,
    ) -> Result<serde_json::Value, String>;
    /// One stored bench and its measured-against-predicted comparison.
    fn bench(&self, id: i64) -> Result<serde_json::Value, String>;
}

/// Whether the path is the fleet view's.
pub(crate) fn is_fleet_path(path: &str) -> bool {
    matches!(path, "/fleet" | "/fleet.js" | "/fleet.css") || path.starts_with("/api/fleet")
}

/// The answer to a request of the fleet view (blocking: the store is asked synchronously).
pub(crate) fn reply(fleet: Option<&dyn Fleet>, method: &str, path: &str, query: &str) -> Reply {
    if method != "GET" {
        return Reply::error(405, &format!("{path} answers GET"));
    }
    let Some(fleet) = fleet else {
        if path == "/fleet" {
            // A person opened the page: a page that says how, not the API's JSON.
            return Reply::page("text/html; charset=utf-8", NO_STORE).with_status(404);
        }
        return Reply::error(
            404,
            &format!("{path}: the fleet view needs a results store: start the server with `zpoolsim serve --db FILE|URL`"),
        );
    };
    let q = Query(query);
    let answer = match path {
        "/fleet" => return Reply::page("text/html; charset=utf-8", PAGE),
        "/fleet.js" => return Reply::page("text/javascript; charset=utf-8", SCRIPT),
        "/fleet.css" => return Reply::page("text/css; charset=utf-8", STYLE),
        "/api/fleet" => match q.get("offset").map(|o| o.parse::<u32>()) {
            Some(Err(_)) => Err("offset: give a whole number of pools".to_string()),
            offset => fleet.page(
                q.get("host").as_deref(),
                q.get("pool").as_deref(),
                offset.and_then(Result::ok).unwrap_or(0),
            ),
        },
        // A machine without a machine-id (a container's empty /etc/machine-id) is stored with
        // an empty one: `machine_id=` names it, and must not be taken for a missing key.
        "/api/fleet/history" => match (q.get("host"), q.raw("machine_id"), q.get("pool")) {
            (Some(h), Some(m), Some(p)) => fleet.history(&h, &m, &p, HISTORY),
            _ => Err("give host, machine_id and pool".to_string()),
        },
        "/api/fleet/bench" => match q.get("id").and_then(|i| i.parse::<i64>().ok()) {
            Some(id) => fleet.bench(id),
            None => Err("id: give a bench's number".to_string()),
        },
        _ => return Reply::error(404, &format!("{path}: no such page")),
    };
    match answer {
        Ok(value) => Reply::page("application/json", value.to_string() + "\n"),
        Err(e) => Reply::error(400, &e),
    }
}

/// A URL's query string: `key=value` pairs, percent-decoded, `+` a space.
struct Query<'a>(&'a str);

impl Query<'_> {
    /// A key's value, where it is not empty.
    fn get(&self, key: &str) -> Option<String> {
        self.raw(key).filter(|v| !v.is_empty())
    }

    /// A key's value as given, empty too (`key=`).
    fn raw(&self, key: &str) -> Option<String> {
        self.0
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| decode(v))
    }
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    /// Without a store, a person opening /fleet gets a page naming what to run; the API its
    /// JSON sentence.
    #[test]
    fn without_a_store_the_page_says_how_to_get_one() {
        let page = super::reply(None, "GET", "/fleet", "");
        assert_eq!((page.status, page.media), (404, "text/html; charset=utf-8"));
        assert!(
            page.body.contains("<code>zpoolsim serve --db"),
            "{}",
            page.body
        );
        let api = super::reply(None, "GET", "/api/fleet", "");
        assert_eq!((api.status, api.media), (404, "application/json"));
        assert!(
            api.body.contains("zpoolsim serve --db FILE|URL"),
            "{}",
            api.body
        );
    }

    #[test]
    fn a_query_is_decoded() {
        let q = super::Query("host=nas%2007&pool=tank+2&empty=&x");
        assert_eq!(q.get("host").as_deref(), Some("nas 07"));
        assert_eq!(q.get("pool").as_deref(), Some("tank 2"));
        assert_eq!(
            (q.get("empty"), q.get("x"), q.get("none")),
            (None, None, None)
        );
        assert_eq!((q.raw("empty").as_deref(), q.raw("x")), (Some(""), None));
        assert_eq!(super::decode("%zz%41"), "%zzA");
    }
}
