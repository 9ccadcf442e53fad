//! The event's public address: the origin phones in the hall open Mentat at
//! (`https://mentat.example.org`, `http://192.168.1.20:3000`), printed in the QR codes. Read
//! once from the settings form into [`PublicAddress`]; whoever holds one holds a scheme, a host
//! and maybe a port, nothing else. [`unreachable_host`] tells which hosts a phone cannot open.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `http` or `https`, a host (name, IPv4 or bracketed IPv6) and an optional port; lower case,
/// without a trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicAddress(String);

/// Why a typed address is refused, in words a head judge can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("Start the address with https:// or http://, for example https://mentat.example.org.")]
    Scheme,
    #[error(
        "Only the start of the address: https://, the host and maybe a port (https://mentat.example.org or http://192.168.1.20:3000), without a path, query or user name."
    )]
    Extra,
    #[error("{0:?} is not a host name or IP address.")]
    Host(String),
    #[error("{0:?} is not a port number between 1 and 65535.")]
    Port(String),
    #[error("The address is at most 200 characters.")]
    TooLong,
}

impl PublicAddress {
    /// Reads what was typed; empty means no address set (`None`).
    pub fn parse(text: &str) -> Result<Option<PublicAddress>, AddressError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        if text.len() > 200 {
            return Err(AddressError::TooLong);
        }
        let lower = text.to_ascii_lowercase();
        let (scheme, rest) = if let Some(rest) = lower.strip_prefix("https://") {
            ("https", rest)
        } else if let Some(rest) = lower.strip_prefix("http://") {
            ("http", rest)
        } else {
            return Err(AddressError::Scheme);
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.is_empty() {
            return Err(AddressError::Host(String::new()));
        }
        if rest
            .chars()
            .any(|c| matches!(c, '/' | '?' | '#' | '@' | '\\') || c.is_whitespace())
        {
            return Err(AddressError::Extra);
        }
        let (host, port) = split_port(rest)?;
        check_host(host)?;
        if let Some(port) = port {
            let valid = port.chars().all(|c| c.is_ascii_digit())
                && port.parse::<u16>().is_ok_and(|p| p > 0);
            if !valid {
                return Err(AddressError::Port(port.to_owned()));
            }
        }
        Ok(Some(PublicAddress(format!("{scheme}://{rest}"))))
    }

    /// The address as stored and printed: `https://mentat.example.org`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The host without the port (an IPv6 address keeps its brackets).
    pub fn host(&self) -> &str {
        let rest = self.0.split_once("://").map_or("", |(_, rest)| rest);
        split_port(rest).map_or(rest, |(host, _)| host)
    }
}

impl fmt::Display for PublicAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `host[:port]` → host and port; `[v6]:port` keeps the brackets on the host.
fn split_port(rest: &str) -> Result<(&str, Option<&str>), AddressError> {
    if rest.starts_with('[') {
        let Some(end) = rest.find(']') else {
            return Err(AddressError::Host(rest.to_owned()));
        };
        let (host, after) = rest.split_at(end + 1);
        return match after {
            "" => Ok((host, None)),
            _ => match after.strip_prefix(':') {
                Some(port) => Ok((host, Some(port))),
                None => Err(AddressError::Host(rest.to_owned())),
            },
        };
    }
    Ok(match rest.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    })
}

fn check_host(host: &str) -> Result<(), AddressError> {
    let bad = || AddressError::Host(host.to_owned());
    if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().map(|_| ()).map_err(|_| bad());
    }
    if host.parse::<Ipv4Addr>().is_ok() {
        return Ok(());
    }
    // Four dotted numbers that are not an IPv4 address (999.1.1.1) are a typo, not a name.
    let all_numeric = host
        .split('.')
        .all(|l| l.chars().all(|c| c.is_ascii_digit()));
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if host.len() > 253 || all_numeric || !host.split('.').all(label_ok) {
        return Err(bad());
    }
    Ok(())
}

/// Why a phone in the hall cannot open an address on this host, if it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreachable {
    /// `localhost`, 127.0.0.0/8, `::1`: the computer that opens the address is itself.
    Loopback,
    /// `0.0.0.0`, `::`: an address to listen on, not one to open.
    Unspecified,
}

/// Whether a phone cannot open `host` (a name or an address, with or without a port or IPv6
/// brackets).
pub fn unreachable_host(host: &str) -> Option<Unreachable> {
    let host = host.trim().to_ascii_lowercase();
    let bare = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => match host.parse::<Ipv6Addr>() {
            Ok(_) => host.as_str(),
            Err(_) => host.split(':').next().unwrap_or_default(),
        },
    };
    let bare = bare.trim_end_matches('.');
    if bare == "localhost" || bare.ends_with(".localhost") {
        return Some(Unreachable::Loopback);
    }
    let ip = match bare.parse::<IpAddr>() {
        Ok(IpAddr::V6(v6)) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        Ok(ip) => ip,
        Err(_) => return None,
    };
    if ip.is_loopback() {
        Some(Unreachable::Loopback)
    } else if ip.is_unspecified() {
        Some(Unreachable::Unspecified)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> String {
        PublicAddress::parse(text).unwrap().unwrap().to_string()
    }

    #[test]
    fn addresses_keep_scheme_host_and_port_only() {
        assert_eq!(
            ok("https://mentat.example.org"),
            "https://mentat.example.org"
        );
        assert_eq!(
            ok("  HTTPS://Mentat.Example.org/ "),
            "https://mentat.example.org"
        );
        assert_eq!(ok("http://192.168.1.20:3000"), "http://192.168.1.20:3000");
        assert_eq!(ok("http://[fd00::20]:3000/"), "http://[fd00::20]:3000");
        assert_eq!(ok("http://hall-pc"), "http://hall-pc");
        assert_eq!(PublicAddress::parse("   "), Ok(None));
    }

    #[test]
    fn junk_is_refused_by_what_is_wrong() {
        let err = |text: &str| PublicAddress::parse(text).unwrap_err();
        assert_eq!(err("mentat.example.org"), AddressError::Scheme);
        assert_eq!(err("ftp://mentat.example.org"), AddressError::Scheme);
        assert_eq!(
            err("https://mentat.example.org/events"),
            AddressError::Extra
        );
        assert_eq!(err("https://mentat.example.org?x=1"), AddressError::Extra);
        assert_eq!(err("https://judge@mentat.example.org"), AddressError::Extra);
        assert_eq!(err("https://mentat example.org"), AddressError::Extra);
        assert_eq!(err("https://"), AddressError::Host(String::new()));
        assert_eq!(
            err("https://bad_host"),
            AddressError::Host("bad_host".into())
        );
        assert_eq!(err("https://-x.org"), AddressError::Host("-x.org".into()));
        assert_eq!(
            err("http://999.1.1.1"),
            AddressError::Host("999.1.1.1".into())
        );
        assert_eq!(err("http://[zz::1]"), AddressError::Host("[zz::1]".into()));
        assert_eq!(err("http://x.org:0"), AddressError::Port("0".into()));
        assert_eq!(
            err("http://x.org:70000"),
            AddressError::Port("70000".into())
        );
        assert_eq!(err("http://x.org:"), AddressError::Port(String::new()));
        assert_eq!(
            err(&format!("https://{}.org", "a".repeat(200))),
            AddressError::TooLong
        );
    }

    #[test]
    fn the_host_comes_without_the_port() {
        let host = |text: &str| {
            PublicAddress::parse(text)
                .unwrap()
                .unwrap()
                .host()
                .to_owned()
        };
        assert_eq!(host("http://192.168.1.20:3000"), "192.168.1.20");
        assert_eq!(host("https://mentat.example.org"), "mentat.example.org");
        assert_eq!(host("http://[::1]:3000"), "[::1]");
    }

    #[test]
    fn loopback_and_unspecified_hosts_are_unreachable_from_a_phone() {
        use Unreachable::*;
        for host in [
            "127.0.0.1",
            "127.0.0.1:3300",
            "127.8.9.10",
            "localhost",
            "LOCALHOST:3000",
            "app.localhost",
            "::1",
            "[::1]",
            "[::1]:3000",
            "[::ffff:127.0.0.1]:80",
        ] {
            assert_eq!(unreachable_host(host), Some(Loopback), "{host}");
        }
        for host in ["0.0.0.0", "0.0.0.0:3000", "[::]:3000", "::"] {
            assert_eq!(unreachable_host(host), Some(Unspecified), "{host}");
        }
        for host in [
            "192.168.1.20:3000",
            "10.0.0.5",
            "mentat.example.org",
            "[fd00::20]:3000",
            "localhost.example.org",
            "128.0.0.1",
        ] {
            assert_eq!(unreachable_host(host), None, "{host}");
        }
    }
}
