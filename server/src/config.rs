//! Settings, all from the environment so the same binary runs on a laptop or behind a load
//! balancer. README's "Configuration" section lists every variable.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use crate::error::StartupError;

/// Where the compiled site (wasm, JS, CSS, public files) lives, relative to the working folder.
pub const DEFAULT_SITE_ROOT: &str = "target/site";

#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: String,
    pub site_addr: SocketAddr,
    pub site_root: String,
    pub web: WebConfig,
}

/// What the HTTP layer needs besides the database: cookie and origin rules.
#[derive(Debug, Clone)]
pub struct WebConfig {
    /// `Secure` session cookies (HTTPS only). On unless Mentat serves on a loopback address.
    pub secure_cookies: bool,
    /// Origins allowed to send state-changing requests; empty = the request's own host.
    pub public_origins: Vec<String>,
    /// Sign out after this long without a request.
    pub session_idle_hours: i64,
    /// Behind a load balancer: the client's address is the last one in `X-Forwarded-For`
    /// (`MENTAT_TRUST_PROXY`), for the sign-in back-off; and the QR codes' address comes from
    /// its forwarded scheme and host when nothing names one.
    pub trust_proxy: bool,
}

impl WebConfig {
    /// Settings for an instance on `addr`, read from the environment.
    pub fn from_env(addr: SocketAddr) -> Result<Self, StartupError> {
        let secure_cookies = match std::env::var("MENTAT_SECURE_COOKIES") {
            Ok(v) => parse_bool("MENTAT_SECURE_COOKIES", &v)?,
            Err(_) => !addr.ip().is_loopback(),
        };
        let public_origins = std::env::var("MENTAT_PUBLIC_URL")
            .map(|v| {
                v.split(',')
                    .map(|o| o.trim().trim_end_matches('/').to_owned())
                    .filter(|o| !o.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let session_idle_hours = match std::env::var("MENTAT_SESSION_IDLE_HOURS") {
            Ok(v) => v
                .parse::<i64>()
                .ok()
                .filter(|h| (1..=24 * 90).contains(h))
                .ok_or_else(|| {
                    StartupError::Config(format!(
                        "MENTAT_SESSION_IDLE_HOURS={v} is not a number of hours between 1 and 2160."
                    ))
                })?,
            Err(_) => 12,
        };
        // Set means on, as README has always said; an explicit "off" is off.
        let trust_proxy = match std::env::var("MENTAT_TRUST_PROXY") {
            Ok(v) if v.trim().is_empty() => true,
            Ok(v) => parse_bool("MENTAT_TRUST_PROXY", &v)?,
            Err(_) => false,
        };
        Ok(Self {
            secure_cookies,
            public_origins,
            session_idle_hours,
            trust_proxy,
        })
    }

    /// For tests and local runs: plain HTTP, same-host origins.
    pub fn local() -> Self {
        Self {
            secure_cookies: false,
            public_origins: Vec::new(),
            session_idle_hours: 12,
            trust_proxy: false,
        }
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool, StartupError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(StartupError::Config(format!(
            "{name}={value} should be true or false."
        ))),
    }
}

impl Config {
    pub fn from_env() -> Result<Self, StartupError> {
        let database_url = database_url()?;
        let site_addr = site_addr()?;
        Ok(Self {
            database_url,
            site_addr,
            site_root: std::env::var("LEPTOS_SITE_ROOT")
                .unwrap_or_else(|_| DEFAULT_SITE_ROOT.to_owned()),
            web: WebConfig::from_env(site_addr)?,
        })
    }
}

pub fn database_url() -> Result<String, StartupError> {
    match std::env::var("DATABASE_URL") {
        Ok(url) if url.trim().is_empty() => Err(StartupError::NoDatabaseUrl),
        Ok(url) => {
            if url.starts_with("postgres://") || url.starts_with("postgresql://") {
                Ok(url)
            } else {
                Err(StartupError::BadDatabaseUrl(redact(&url)))
            }
        }
        Err(_) => Err(StartupError::NoDatabaseUrl),
    }
}

/// `LEPTOS_SITE_ADDR` (a full address) wins over `PORT` (a port on 127.0.0.1).
fn site_addr() -> Result<SocketAddr, StartupError> {
    if let Ok(addr) = std::env::var("LEPTOS_SITE_ADDR") {
        return addr.parse().map_err(|_| {
            StartupError::Config(format!(
                "LEPTOS_SITE_ADDR={addr} is not an address with a port, such as 127.0.0.1:3000."
            ))
        });
    }
    let port = match std::env::var("PORT") {
        Ok(port) => port.parse::<u16>().map_err(|_| {
            StartupError::Config(format!(
                "PORT={port} is not a port number between 1 and 65535."
            ))
        })?,
        Err(_) => 3000,
    };
    Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port))
}

/// The database address without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return "(unreadable address)".to_owned();
    };
    let Some((credentials, host)) = rest.rsplit_once('@') else {
        return url.to_owned();
    };
    let user = credentials.split(':').next().unwrap_or_default();
    format!("{scheme}://{user}@{host}")
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn redact_hides_the_password_and_keeps_the_rest() {
        assert_eq!(
            redact("postgres://mentat:s3cret@db.example:5432/mentat"),
            "postgres://mentat@db.example:5432/mentat"
        );
        assert_eq!(
            redact("postgres://localhost/mentat"),
            "postgres://localhost/mentat"
        );
        assert!(!redact("postgresql://u:p%40ss@h/d").contains("p%40ss"));
    }
}
