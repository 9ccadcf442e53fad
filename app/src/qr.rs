//! The QR codes players scan in the hall: "find my seat" (`/events/{slug}/find`) and the live
//! standings. Their address starts with the event's public address (settings), else
//! `MENTAT_PUBLIC_URL`, else what a trusted proxy forwards, else the request's own host
//! ([`choose`]); when a phone cannot open that host (127.0.0.1, localhost, 0.0.0.0) the
//! dashboard says what to set. The dashboard shows the codes; `print::qr_document` prints them.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;

/// One code: what it opens and the code itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrLink {
    /// "Find my seat", "Live standings".
    pub title: String,
    /// Absolute when the server knows how it is reached, else the path.
    pub url: String,
    /// The QR code of `url` as an inline SVG element, drawn on the server.
    pub svg: String,
}

/// The event's two codes and what the head judge should know about their address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HallCodes {
    pub find: QrLink,
    pub standings: QrLink,
    /// Where the address comes from, in words ("the event's settings").
    pub source: String,
    /// Why phones cannot open the codes, when they cannot.
    pub warning: Option<String>,
}

/// Where the codes' address came from, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The event's public address (settings).
    Event,
    /// `MENTAT_PUBLIC_URL`.
    Configured,
    /// A trusted proxy's forwarded headers (`MENTAT_TRUST_PROXY`).
    Proxy,
    /// The address this page was opened at.
    Request,
    /// Nothing: the codes hold a path only.
    None,
}

impl Source {
    pub fn text(self) -> &'static str {
        match self {
            Source::Event => "the event's public address (settings)",
            Source::Configured => "MENTAT_PUBLIC_URL on the server",
            Source::Proxy => "the proxy's forwarded address (MENTAT_TRUST_PROXY)",
            Source::Request => "the address this page was opened at",
            Source::None => "nowhere: the server does not know its address",
        }
    }
}

/// Where phones open Mentat: the origin (without a trailing slash) and where it came from.
#[cfg(feature = "ssr")]
pub fn choose(
    setting: Option<&db::public_address::PublicAddress>,
    site: &crate::pages::standings::PublicSite,
    headers: &http::HeaderMap,
) -> (Option<String>, Source) {
    use crate::pages::standings::OriginSource;
    if let Some(address) = setting {
        return (Some(address.as_str().to_owned()), Source::Event);
    }
    match site.origin_of(headers) {
        Some((origin, from)) => (
            Some(origin),
            match from {
                OriginSource::Configured => Source::Configured,
                OriginSource::Proxy => Source::Proxy,
                OriginSource::Request => Source::Request,
            },
        ),
        None => (None, Source::None),
    }
}

/// Why a phone in the hall cannot open `origin`, and what to set, if it cannot.
#[cfg(feature = "ssr")]
pub fn warning(origin: Option<&str>) -> Option<String> {
    use db::public_address::{Unreachable, unreachable_host};
    let Some(origin) = origin else {
        return Some(
            "The codes hold no server address, so a phone cannot open them. Set the event's public address, the address phones in the hall reach Mentat at."
                .to_owned(),
        );
    };
    let host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    unreachable_host(host).map(|why| {
        let what = match why {
            Unreachable::Loopback => format!("on a phone, {host} means the phone itself"),
            Unreachable::Unspecified => {
                format!("{host} is an address to listen on, not one to open")
            }
        };
        format!(
            "Phones cannot open these codes: {what}. Set the event's public address, the address phones in the hall reach Mentat at (such as https://mentat.example.org, or this computer's address on the hall's network, http://192.168.1.20:3000)."
        )
    })
}

/// Why a phone cannot open `link` (an invitation or a claim link), if it cannot: it holds no
/// server address, or one a phone cannot reach (127.0.0.1, localhost, 0.0.0.0).
#[cfg(feature = "ssr")]
pub fn link_warning(link: &str) -> Option<String> {
    use db::public_address::unreachable_host;
    let Some((_, rest)) = link.split_once("://") else {
        return Some(
            "This link holds no server address, so it opens nothing on another device. Set the event's public address in its settings, then make a new one."
                .to_owned(),
        );
    };
    let host = rest.split('/').next().unwrap_or(rest);
    unreachable_host(host).map(|_| {
        format!(
            "Another phone cannot open this link: {host} is this computer's own address. Set the event's public address in its settings (the address phones in the hall reach Mentat at), then make a new one."
        )
    })
}

/// `text` as a QR code, an inline `<svg>` element (black on white, with its quiet zone).
#[cfg(feature = "ssr")]
pub fn svg(text: &str) -> Result<String, AppError> {
    let code = qrcode::QrCode::new(text.as_bytes())
        .map_err(|e| crate::server::internal("drawing the QR code", e))?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    // Inline in HTML: the XML declaration is noise there.
    Ok(match svg.find("<svg") {
        Some(start) => svg[start..].to_owned(),
        None => svg,
    })
}

/// The event's two codes for a request with `headers`.
#[cfg(feature = "ssr")]
pub fn hall_codes(
    slug: &str,
    setting: Option<&db::public_address::PublicAddress>,
    site: &crate::pages::standings::PublicSite,
    headers: &http::HeaderMap,
) -> Result<HallCodes, AppError> {
    let (origin, source) = choose(setting, site, headers);
    let link = |title: &str, path: String| {
        let url = format!("{}{path}", origin.as_deref().unwrap_or_default());
        Ok::<_, AppError>(QrLink {
            title: title.to_owned(),
            svg: svg(&url)?,
            url,
        })
    };
    Ok(HallCodes {
        find: link("Find my seat", format!("/events/{slug}/find"))?,
        standings: link("Live standings", crate::pages::standings::path(slug))?,
        source: source.text().to_owned(),
        warning: warning(origin.as_deref()),
    })
}

/// Where phones open Mentat for the event whose public address (settings) is `setting`, for
/// the request being answered: the same origin as the QR codes ([`choose`]). `None` when the
/// server does not know its address.
#[cfg(feature = "ssr")]
pub async fn request_origin(
    setting: Option<&db::public_address::PublicAddress>,
) -> Result<Option<String>, AppError> {
    let site = use_context::<crate::pages::standings::PublicSite>().unwrap_or_default();
    let headers = leptos_axum::extract::<http::HeaderMap>()
        .await
        .map_err(|e| crate::server::internal("reading the request's host", e))?;
    Ok(choose(setting, &site, &headers).0)
}

/// `path` at the event's public address, as the QR codes have it: an invitation or a claim
/// link to send to a phone. Only the path when the server does not know its address.
#[cfg(feature = "ssr")]
pub async fn event_link(
    event_id: tournament::ids::EventId,
    path: &str,
) -> Result<String, AppError> {
    let detail = db::events::detail(&crate::server::pool()?, event_id)
        .await
        .map_err(|e| crate::server::internal("loading the event", e))?
        .ok_or_else(|| AppError::NotFound("The event is gone.".into()))?;
    let origin = request_origin(detail.settings.public_url.as_ref()).await?;
    Ok(format!("{}{path}", origin.unwrap_or_default()))
}

/// The event's QR codes for the dashboard (staff who run the event).
#[server]
pub async fn get_hall_codes(slug: String) -> Result<HallCodes, AppError> {
    use crate::server::{internal, pool, require_staff};
    let event = crate::events::load(&slug).await?;
    require_staff(event.id, db::roles::Action::RunEvent).await?;
    let detail = db::events::detail(&pool()?, event.id)
        .await
        .map_err(|e| internal("loading the event", e))?
        .ok_or_else(|| AppError::NotFound("The event is gone.".into()))?;
    let site = use_context::<crate::pages::standings::PublicSite>().unwrap_or_default();
    let headers = leptos_axum::extract::<http::HeaderMap>()
        .await
        .map_err(|e| internal("reading the request's host", e))?;
    hall_codes(
        &event.slug,
        detail.settings.public_url.as_ref(),
        &site,
        &headers,
    )
}

/// Where the printable page of the codes lives (served outside the app: `rel="external"`).
pub fn print_path(slug: &str) -> String {
    format!("/events/{slug}/print/qr")
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::pages::standings::PublicSite;
    use db::public_address::PublicAddress;
    use http::{HeaderMap, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn site(origin: Option<&str>, trust_proxy: bool) -> PublicSite {
        PublicSite {
            origin: origin.map(str::to_owned),
            https: false,
            trust_proxy,
        }
    }

    const PROXIED: &[(&str, &str)] = &[
        ("host", "127.0.0.1:3300"),
        ("x-forwarded-proto", "https"),
        ("x-forwarded-host", "hall.example.org"),
    ];

    fn chosen(
        setting: Option<&str>,
        site: &PublicSite,
        h: &[(&'static str, &'static str)],
    ) -> (Option<String>, Source) {
        let setting = setting.map(|s| PublicAddress::parse(s).unwrap().unwrap());
        choose(setting.as_ref(), site, &headers(h))
    }

    #[test]
    fn the_setting_wins_over_the_environment_the_proxy_and_the_host() {
        let got = chosen(
            Some("https://mentat.example.org"),
            &site(Some("https://env.example.org"), true),
            PROXIED,
        );
        assert_eq!(
            got,
            (Some("https://mentat.example.org".into()), Source::Event)
        );
    }

    #[test]
    fn the_environment_wins_over_the_proxy_and_the_host() {
        let got = chosen(None, &site(Some("https://env.example.org"), true), PROXIED);
        assert_eq!(
            got,
            (Some("https://env.example.org".into()), Source::Configured)
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_address() {
        let got = chosen(None, &site(None, true), PROXIED);
        assert_eq!(
            got,
            (Some("https://hall.example.org".into()), Source::Proxy)
        );
        // The standard header, quoted, first hop only.
        let got = chosen(
            None,
            &site(None, true),
            &[
                ("host", "127.0.0.1:3300"),
                (
                    "forwarded",
                    "for=10.0.0.9;proto=https;host=\"mentat.example.org\", for=10.0.0.1;host=inner",
                ),
            ],
        );
        assert_eq!(
            got,
            (Some("https://mentat.example.org".into()), Source::Proxy)
        );
        // Only the scheme forwarded: the request's host with it.
        let got = chosen(
            None,
            &site(None, true),
            &[("host", "hall.example.org"), ("x-forwarded-proto", "https")],
        );
        assert_eq!(
            got,
            (Some("https://hall.example.org".into()), Source::Proxy)
        );
    }

    #[test]
    fn without_trust_a_client_cannot_set_the_host() {
        let got = chosen(None, &site(None, false), PROXIED);
        assert_eq!(got, (Some("http://127.0.0.1:3300".into()), Source::Request));
        // Junk in forwarded headers is ignored even when trusted.
        let got = chosen(
            None,
            &site(None, true),
            &[
                ("host", "192.168.1.20:3000"),
                ("x-forwarded-proto", "gopher"),
                ("x-forwarded-host", "evil.example/<script>"),
            ],
        );
        assert_eq!(
            got,
            (Some("http://192.168.1.20:3000".into()), Source::Request)
        );
    }

    #[test]
    fn nothing_known_leaves_a_path() {
        assert_eq!(chosen(None, &site(None, false), &[]), (None, Source::None));
    }

    #[test]
    fn links_a_phone_cannot_open_are_warned_about() {
        for link in [
            "/invite/mentat_x",
            "http://127.0.0.1:3300/invite/mentat_x",
            "http://localhost:3000/claim?code=AAAA-BBBB-CCCC",
        ] {
            let text = link_warning(link).unwrap_or_default();
            assert!(text.contains("public address"), "{link}: {text}");
        }
        assert_eq!(
            link_warning("https://hall.example.org/invite/mentat_x"),
            None
        );
        assert_eq!(link_warning("http://192.168.1.20:3000/claim?code=A"), None);
    }

    #[test]
    fn loopback_addresses_are_warned_about() {
        for origin in [
            "http://127.0.0.1:3300",
            "http://localhost:3000",
            "http://[::1]:3000",
            "http://0.0.0.0:3000",
        ] {
            let text = warning(Some(origin)).unwrap_or_default();
            assert!(
                text.contains("Set the event's public address"),
                "{origin}: {text}"
            );
        }
        assert!(warning(None).is_some());
        assert_eq!(warning(Some("http://192.168.1.20:3000")), None);
        assert_eq!(warning(Some("https://mentat.example.org")), None);
    }
}
