//! Print pages: `GET /events/{slug}/rounds/{n}/print/{slips|reports|pairings}` and
//! `GET /events/{slug}/print/standings` and `GET /events/{slug}/print/qr` (the players' QR
//! codes), rendered by `app::pages::print` without the wasm.
//! Slips, pairings and standings show what the public pages show; the blank report forms are
//! for the judges. `?paper=a4|letter` picks the paper size.

use std::collections::BTreeMap;

use app::pages::print::{self, Paper, RoundPrint, RoundSheet, SlipClaim, SlipClaims};
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
    Extension(site): Extension<PublicSite>,
    Path((slug, number, what)): Path<(String, i32, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
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
        let claims = match (sheet, caller.actor()) {
            (RoundSheet::Slips, Some(actor))
                if caller.may(&state.pool, &event, Action::RunEvent).await =>
            {
                if print::wants_claim_codes(query.as_deref()) {
                    slip_claims(&state, &site, &headers, actor, &event, &round).await?
                } else {
                    SlipClaims::Left
                }
            }
            _ => SlipClaims::NotOffered,
        };
        let sort_keys = db::players::sort_keys(&state.pool, event.id)
            .await
            .map_err(|e| access::internal("reading the players' sort keys", e))?;
        Ok::<_, Denied>(no_cache(print::round_document(&RoundPrint {
            slug: &event.slug,
            event_name: &event.name,
            round: &round,
            sheet,
            paper: Paper::parse(query.as_deref()),
            claims,
            sort_keys: &sort_keys,
        })))
    }
    .await;
    result.unwrap_or_else(page_for)
}

/// Claim codes for the round's players not tied to an account yet, made as the head judge
/// opens the slips (`db::claims::issue_for_slips`); their links and QR codes start with the
/// event's public address, as the hall's QR codes do.
async fn slip_claims(
    state: &AppState,
    site: &PublicSite,
    headers: &HeaderMap,
    actor: &db::roles::Actor,
    event: &db::events::Event,
    round: &db::rounds::RoundDetail,
) -> Result<SlipClaims, Denied> {
    let players: Vec<_> = round
        .tables
        .iter()
        .flat_map(|t| t.seats.iter().map(|s| s.player_id))
        .collect();
    let expires = chrono::Utc::now() + chrono::Duration::days(app::claims::CLAIM_DAYS);
    let made = db::claims::issue_for_slips(&state.pool, actor, event.id, &players, expires)
        .await
        .map_err(|e| match e {
            db::tokens::TokenError::Access(_) => {
                Denied::Forbidden("Only the head judge and organisers make claim codes.".into())
            }
            other => access::internal("making claim codes", other),
        })?;
    let detail = db::events::detail(&state.pool, event.id)
        .await
        .map_err(|e| access::internal("loading the event", e))?
        .ok_or_else(|| Denied::NotFound("The event is gone.".into()))?;
    let (origin, _) = app::qr::choose(detail.settings.public_url.as_ref(), site, headers);
    let origin = origin.unwrap_or_default();
    let mut codes = BTreeMap::new();
    for c in made {
        let code = c.secret.expose().to_owned();
        let svg = app::qr::svg(&format!("{origin}/claim?code={code}"))
            .map_err(|e| access::internal("drawing a claim code's QR code", e))?;
        codes.insert(c.player_id, SlipClaim { code, svg });
    }
    Ok(SlipClaims::Made {
        codes,
        claim_page: format!("{origin}/claim"),
        days: app::claims::CLAIM_DAYS,
    })
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
