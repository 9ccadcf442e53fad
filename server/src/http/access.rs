//! Who is calling the server's own routes (exports, the JSON API, print, statistics, backups):
//! the account signed in through the session cookie, an API token sent as
//! `Authorization: Bearer mentat_…`, or nobody. The same role matrix (`db::roles`) decides what
//! each may do, so an export answers 401/403 exactly where the page would.

use axum::http::{HeaderMap, header};
use db::{
    PgPool,
    events::Event,
    roles::{self, AccessError, Action, Actor, Role},
    tokens::{self, Redeemed, Refusal, TokenKind},
};
use tournament::ids::UserId;
use tower_sessions::Session;

/// The caller of a request.
#[derive(Debug, Clone)]
pub enum Caller {
    Anonymous,
    /// Signed in through the session.
    Person(Actor),
    /// An API token, accepted and its use recorded.
    Token(Box<Redeemed>),
}

/// Why a request was refused. The handlers turn it into their own answer (JSON for the API,
/// a page or plain text elsewhere) with [`Denied::status`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denied {
    SignInRequired,
    /// A token that is unknown, revoked, expired or malformed: 401 with the reason.
    BadToken(String),
    Forbidden(String),
    NotFound(String),
    Internal,
}

impl Denied {
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            Denied::SignInRequired | Denied::BadToken(_) => StatusCode::UNAUTHORIZED,
            Denied::Forbidden(_) => StatusCode::FORBIDDEN,
            Denied::NotFound(_) => StatusCode::NOT_FOUND,
            Denied::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn message(&self) -> String {
        match self {
            Denied::SignInRequired => {
                "Sign in to do this, or send an API token (Authorization: Bearer mentat_…) made on the event's Organiser's desk (…/organise).".into()
            }
            Denied::BadToken(m) | Denied::Forbidden(m) | Denied::NotFound(m) => m.clone(),
            Denied::Internal => {
                "Something went wrong on the server; please try again. If it keeps happening, tell the organiser.".into()
            }
        }
    }
}

pub fn internal(context: &str, error: impl std::fmt::Display) -> Denied {
    tracing::error!(%error, "{context}");
    Denied::Internal
}

/// The token in `Authorization: Bearer …`, if the header is there.
fn bearer(headers: &HeaderMap) -> Option<Result<&str, Denied>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let malformed = || {
        Denied::BadToken(
            "Send the API token as the header \"Authorization: Bearer mentat_…\".".into(),
        )
    };
    Some(
        value
            .to_str()
            .ok()
            .and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                scheme
                    .eq_ignore_ascii_case("bearer")
                    .then_some(token.trim())
                    .filter(|t| !t.is_empty())
            })
            .ok_or_else(malformed),
    )
}

impl Caller {
    /// Who sent the request. A token is redeemed here, once per request, and its use recorded
    /// as `purpose` ("GET /api/v1/events/gencon"); it wins over a session cookie.
    pub async fn of(
        pool: &PgPool,
        session: &Session,
        headers: &HeaderMap,
        purpose: &str,
    ) -> Result<Caller, Denied> {
        if let Some(token) = bearer(headers) {
            let token = token?;
            return match tokens::redeem(pool, TokenKind::Api, token, tokens::Use { purpose }).await
            {
                Ok(redeemed) => Ok(Caller::Token(Box::new(redeemed))),
                Err(Refusal::Database(e)) => Err(internal("checking an API token", e)),
                Err(refusal) => Err(Denied::BadToken(refusal.to_string())),
            };
        }
        let user: Option<UserId> = session
            .get(app::server::USER_KEY)
            .await
            .map_err(|e| internal("reading the session", e))?;
        let Some(user) = user else {
            return Ok(Caller::Anonymous);
        };
        match db::accounts::actor(pool, user).await {
            Ok(Some(actor)) => Ok(Caller::Person(actor)),
            Ok(None) => Ok(Caller::Anonymous),
            Err(e) => Err(internal("loading the signed-in account", e)),
        }
    }

    /// The account a change is recorded under.
    pub fn actor(&self) -> Option<&Actor> {
        match self {
            Caller::Anonymous => None,
            Caller::Person(actor) => Some(actor),
            Caller::Token(redeemed) => Some(&redeemed.actor),
        }
    }

    /// Checks the caller may do `action` in `event`; returns their role there (a token's: the
    /// role it grants).
    pub async fn require(
        &self,
        pool: &PgPool,
        event: &Event,
        action: Action,
    ) -> Result<Option<Role>, Denied> {
        match self {
            // An account token is its maker: their role in this event decides, as for the
            // maker signed in.
            Caller::Token(redeemed) if redeemed.token.kind == TokenKind::Account => {
                person(pool, Some(&redeemed.actor), event, action).await
            }
            Caller::Token(redeemed) => {
                if redeemed.token.event_id != Some(event.id) {
                    return Err(Denied::Forbidden(format!(
                        "This API token belongs to another event, not to {}; make one on this event's Organiser's desk (/events/{}/organise).",
                        event.name, event.slug
                    )));
                }
                if !redeemed.allows(action) {
                    return Err(Denied::Forbidden(format!(
                        "This API token's role does not allow this. Ask the event's organiser for a token with the role it needs (Organiser's desk, /events/{}/organise).",
                        event.slug
                    )));
                }
                Ok(match redeemed.token.grant {
                    tokens::Grant::Role(role) => Some(role),
                    tokens::Grant::Player(_) => Some(Role::Player),
                    tokens::Grant::Maker => redeemed.maker_role,
                })
            }
            caller => person(pool, caller.actor(), event, action).await,
        }
    }

    /// Whether the caller may also do `action` (for showing what a page offers).
    pub async fn may(&self, pool: &PgPool, event: &Event, action: Action) -> bool {
        match self {
            Caller::Anonymous => roles::allows(None, false, action),
            _ => self.require(pool, event, action).await.is_ok(),
        }
    }

    /// A site administrator (signed in, or through their account token).
    pub fn is_admin(&self) -> bool {
        self.actor().is_some_and(|a| a.is_admin)
    }
}

/// A person's role in the event, checked as the pages check it.
async fn person(
    pool: &PgPool,
    actor: Option<&Actor>,
    event: &Event,
    action: Action,
) -> Result<Option<Role>, Denied> {
    match roles::authorize(pool, actor, event.id, action).await {
        Ok(role) => Ok(role),
        Err(AccessError::SignInRequired) => Err(Denied::SignInRequired),
        Err(AccessError::Forbidden) => Err(Denied::Forbidden(
            "Your role in this event does not allow this. Ask the event's organiser if you need it.".into(),
        )),
        Err(AccessError::Database(e)) => Err(internal("checking a role", e)),
    }
}

/// The event at `slug`, or 404.
pub async fn event(pool: &PgPool, slug: &str) -> Result<Event, Denied> {
    match db::events::by_slug(pool, slug).await {
        Ok(Some(event)) => Ok(event),
        Ok(None) => Err(Denied::NotFound(format!(
            "No event lives at /events/{slug}; check the address."
        ))),
        Err(e) => Err(internal("loading the event", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_header_is_read_or_named_as_malformed() {
        let mut headers = HeaderMap::new();
        assert!(bearer(&headers).is_none());
        headers.insert(
            header::AUTHORIZATION,
            "Bearer  mentat_abc ".parse().unwrap(),
        );
        assert_eq!(bearer(&headers).unwrap(), Ok("mentat_abc"));
        headers.insert(header::AUTHORIZATION, "Basic abc".parse().unwrap());
        assert!(matches!(bearer(&headers), Some(Err(Denied::BadToken(_)))));
        headers.insert(header::AUTHORIZATION, "Bearer".parse().unwrap());
        assert!(matches!(bearer(&headers), Some(Err(Denied::BadToken(_)))));
    }
}
