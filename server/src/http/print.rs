//! Print pages: `GET /events/{slug}/rounds/{n}/print/{slips|reports|pairings}` and
//! `GET /events/{slug}/print/standings` and `GET /events/{slug}/print/qr` (the players' QR
//! codes), rendered by `app::pages::print` without the wasm.
//! Slips, pairings and standings show what the public pages show; the blank report forms are
//! for the judges. `?paper=a4|letter` picks the paper size.

use app::pages::print::{self, Paper, RoundPrint, RoundSheet};
use app::pages::standings::PublicSite;
use axum::{
    Extension,
    extract::{Path, RawQuery, State},
    http::{HeaderMap, HeaderValue, header},
    response::{Html, IntoResponse, Response},
};
use db::roles::Action;
use tournament::ids::RoundNumber;
use tower_sessions::Session;

use super::{
    AppState,
    access::{self, Caller, Denied},
    organise::page_for,
};

fn no_cache(html: String) -> Response {
    let mut response = Html(html).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub async fn round(
    State(state): State<AppState>,
    Path((slug, number, what)): Path<(String, i32, String)>,
    RawQuery(query): RawQuery,
    session: Session,
) -> Response {
    let result = async {
        let sheet = RoundSheet::parse(&what).ok_or_else(|| {
            Denied::NotFound(format!(
                "There is no print page called {what:?}: slips, reports or pairings."
            ))
        })?;
        let event = access::event(&state.pool, &slug).await?;
        let caller = Caller::of(&state.pool, &session, &HeaderMap::new(), "").await?;
        let action = match sheet {
            RoundSheet::Reports => Action::ViewAllReports,
            RoundSheet::Slips | RoundSheet::Pairings => Action::ViewPublic,
        };
        caller.require(&state.pool, &event, action).await?;
        let round = db::rounds::detail(&state.pool, event.id, RoundNumber(number))
            .await
            .map_err(|e| access::internal("reading a round", e))?
            .ok_or_else(|| Denied::NotFound(format!("{} has no round {number}.", event.name)))?;
        Ok::<_, Denied>(no_cache(print::round_document(&RoundPrint {
            slug: &event.slug,
            event_name: &event.name,
            round: &round,
            sheet,
            paper: Paper::parse(query.as_deref()),
        })))
    }
    .await;
    result.unwrap_or_else(page_for)
}

pub async fn standings(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let result = async {
        let event = access::event(&state.pool, &slug).await?;
        let standings = db::results::standings::event_standings(&state.pool, event.id)
            .await
            .map_err(|e| access::internal("computing the standings", e))?;
        Ok::<_, Denied>(no_cache(print::standings_document(
            &event.slug,
            &event.name,
            &standings,
            Paper::parse(query.as_deref()),
        )))
    }
    .await;
    result.unwrap_or_else(page_for)
}

/// `GET /events/{slug}/print/qr`: the players' QR codes (find my seat, the standings), one per
/// half page, at the address the dashboard shows (`app::qr`). Public, like what they open.
pub async fn qr_codes(
    State(state): State<AppState>,
    Extension(site): Extension<PublicSite>,
    Path(slug): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let event = access::event(&state.pool, &slug).await?;
        let detail = db::events::detail(&state.pool, event.id)
            .await
            .map_err(|e| access::internal("loading the event", e))?
            .ok_or_else(|| Denied::NotFound("The event is gone.".into()))?;
        let codes = app::qr::hall_codes(
            &event.slug,
            detail.settings.public_url.as_ref(),
            &site,
            &headers,
        )
        .map_err(|e| access::internal("drawing the QR codes", e))?;
        Ok::<_, Denied>(no_cache(print::qr_document(
            &event.slug,
            &event.name,
            &codes,
            Paper::parse(query.as_deref()),
        )))
    }
    .await;
    result.unwrap_or_else(page_for)
}
