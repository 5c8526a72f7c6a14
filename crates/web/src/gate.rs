//! What a request must show before it is read. Its Host names this server as the client
//! reached it (a localhost name, a loopback address, or the address it listens on, with its
//! port), so that a web site whose name was rebound to this machine's address (DNS rebinding)
//! cannot read answers. A POST says its body is JSON, which a page of another site can only
//! send after asking (a CORS preflight this server never grants), so that no other site can
//! start work here.

use crate::routes::Reply;
use axum::http::{header, HeaderMap, Method};
use std::net::{IpAddr, SocketAddr};

/// `Ok` when the request may be answered; else the refusal: 421 for another Host, 415 for a
/// POST whose body is not declared JSON.
pub(crate) fn admit(method: &Method, headers: &HeaderMap, local: SocketAddr) -> Result<(), Reply> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| names_this_server(h, local)) {
        return Err(Reply::error(
            421,
            &format!(
                "this server answers requests for localhost, 127.0.0.1, [::1] or {local}, not {}",
                host.map_or("a request without a Host".to_string(), |h| format!(
                    "Host '{h}'"
                ))
            ),
        ));
    }
    if method == Method::POST && !is_json(headers.get(header::CONTENT_TYPE)) {
        return Err(Reply::error(
            415,
            "the request's body is a JSON object: send it with Content-Type: application/json",
        ));
    }
    Ok(())
}

/// Whether `host` (`name[:port]`) is a name of `local`, the address the client reached: a
/// localhost name, a loopback address or `local`'s own, and `local`'s port (none for 80).
fn names_this_server(host: &str, local: SocketAddr) -> bool {
    let (name, port) = match host.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((name, "")) => (name, None),
            Some((name, rest)) => match rest.strip_prefix(':') {
                Some(port) => (name, Some(port)),
                None => return false,
            },
            None => return false,
        },
        None => match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port_matches = match port {
        Some(p) => p.parse::<u16>() == Ok(local.port()),
        None => local.port() == 80,
    };
    let name = name.to_ascii_lowercase();
    let local_name = name == "localhost" || name.ends_with(".localhost");
    let address = name
        .parse::<IpAddr>()
        .is_ok_and(|ip| ip.is_loopback() || ip.to_canonical() == local.ip().to_canonical());
    port_matches && (local_name || address)
}

/// Whether a Content-Type is `application/json` (parameters such as charset allowed).
fn is_json(value: Option<&header::HeaderValue>) -> bool {
    let Some(text) = value.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = text.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_this_server_and_no_other() {
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let lan: SocketAddr = "192.168.1.5:8080".parse().unwrap();
        for host in [
            "localhost:8080",
            "LocalHost:8080",
            "app.localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
        ] {
            assert!(names_this_server(host, loopback), "{host}");
        }
        assert!(names_this_server("192.168.1.5:8080", lan));
        // Listening on [::], an IPv4 client is reached at an IPv4-mapped address.
        let mapped: SocketAddr = "[::ffff:192.168.1.5]:8080".parse().unwrap();
        assert!(names_this_server("192.168.1.5:8080", mapped));
        for host in [
            "evil.example:8080",
            "localhost.evil.example:8080",
            "localhost:8081",
            "localhost",
            "192.168.1.5:8080",
            "[::1",
            "[::1]",
            "127.0.0.1:80:8080",
            "",
        ] {
            assert!(!names_this_server(host, loopback), "{host}");
        }
        let port_80: SocketAddr = "127.0.0.1:80".parse().unwrap();
        assert!(names_this_server("localhost", port_80));
        assert!(names_this_server("[::1]", port_80));
    }

    #[test]
    fn json_with_or_without_parameters() {
        let value = |s: &'static str| header::HeaderValue::from_static(s);
        assert!(is_json(Some(&value("application/json"))));
        assert!(is_json(Some(&value("Application/JSON; charset=utf-8"))));
        assert!(!is_json(Some(&value("text/plain"))));
        assert!(!is_json(Some(&value("application/x-www-form-urlencoded"))));
        assert!(!is_json(Some(&value("application/jsonp"))));
        assert!(!is_json(None));
    }
}
