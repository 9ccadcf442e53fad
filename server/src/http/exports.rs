//! `GET /events/{slug}/export/{kind}.csv` and `.json`: the event's data as downloads
//! (`docs/exports.md`). The standings are anyone's; the rest answers 401/403 like the pages,
//! to a signed-in session or an API token. Every staff export is written to the audit log: it
//! takes personal data (names, email addresses) out of Mentat.

use axum::{
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    response::{IntoResponse, Response},
};
use db::{
    audit,
    export::{Format, Kind},
    roles::Action,
};
use tower_sessions::Session;

use super::{
    AppState,
    access::{self, Caller, Denied},
};

/// A spreadsheet opens a CSV file as UTF-8 only when it starts with a byte-order mark (Excel
/// guesses a legacy code page otherwise, and "Zoë" comes out garbled). `mentat export` prints
/// the same rows without it, for scripts.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `standings.csv` → (standings, CSV).
fn parse_file(file: &str) -> Option<(Kind, Format)> {
    let (kind, extension) = file.rsplit_once('.')?;
    Some((Kind::parse(kind)?, Format::parse(extension)?))
}

fn refused(denied: Denied) -> Response {
    let mut response = (denied.status(), denied.message()).into_response();
    if denied.status() == StatusCode::UNAUTHORIZED {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

pub async fn download(
    State(state): State<AppState>,
    Path((slug, file)): Path<(String, String)>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    let Some((kind, format)) = parse_file(&file) else {
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
        return (
            StatusCode::NOT_FOUND,
            format!(
                "There is no export called {file:?}: ask for KIND.csv or KIND.json, KIND being one of {}.",
                kinds.join(", ")
            ),
        )
            .into_response();
    };
    match export(&state, &slug, kind, format, &session, &headers).await {
        Ok(response) => response,
        Err(denied) => refused(denied),
    }
}

async fn export(
    state: &AppState,
    slug: &str,
    kind: Kind,
    format: Format,
    session: &Session,
    headers: &HeaderMap,
) -> Result<Response, Denied> {
    let pool = &state.pool;
    let event = access::event(pool, slug).await?;
    let purpose = format!(
        "{} /events/{slug}/export/{}.{}",
        Method::GET,
        kind.as_str(),
        format.extension()
    );
    let caller = Caller::of(pool, session, headers, &purpose).await?;
    caller.require(pool, &event, kind.action()).await?;
    let rows = db::export::rows(pool, event.id, kind)
        .await
        .map_err(|e| access::internal("reading an export", e))?;
    let mut body = rows
        .write(format)
        .map_err(|e| access::internal("writing an export", e))?;
    if format == Format::Csv {
        body.splice(0..0, BOM.iter().copied());
    }
    if kind.action() != Action::ViewPublic
        && let Some(actor) = caller.actor()
    {
        audit::record(
            pool,
            audit::Entry::by(
                actor,
                audit::Action::DataExported,
                event.id,
                kind.as_str(),
                serde_json::json!({ "format": format.extension(), "rows": rows.len() }),
            ),
        )
        .await
        .map_err(|e| access::internal("recording an export", e))?;
    }
    let disposition = format!(
        "attachment; filename=\"{}-{}.{}\"",
        event.slug,
        kind.as_str(),
        format.extension()
    );
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    // Personal data stays out of shared caches; the standings change with every report.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if kind.action() == Action::ViewPublic {
            "no-cache"
        } else {
            "private, no-store"
        }),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_a_kind_and_a_format() {
        assert_eq!(
            parse_file("standings.csv"),
            Some((Kind::Standings, Format::Csv))
        );
        assert_eq!(parse_file("audit.json"), Some((Kind::Audit, Format::Json)));
        assert_eq!(parse_file("audit.xlsx"), None);
        assert_eq!(parse_file("secrets.csv"), None);
        assert_eq!(parse_file("standings"), None);
    }
}
