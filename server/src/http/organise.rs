//! The organiser's desk and its forms: `GET /events/{slug}/organise`; API tokens made and
//! revoked (`POST …/tokens`, `POST …/tokens/{id}/revoke`); the backup downloaded
//! (`GET …/backup`) and restored (`POST …/restore`); a players' CSV file uploaded
//! (`POST …/players/import`). Plain HTML forms answered with whole pages (`app::pages::organise`):
//! nothing here needs the wasm bundle.

use app::pages::{
    organise::{self, Desk, Flash, NewSecret},
    plain,
    standings::PublicSite,
};
use axum::{
    Extension, Form,
    extract::{Multipart, Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use db::{
    audit,
    backup::{RestoreError, RestoreOptions},
    events::Event,
    export::Kind,
    roles::{Action, Role},
    tokens::{self, NewToken, TokenError, TokenKind},
};
use serde::Deserialize;
use tower_sessions::Session;

use super::{
    AppState,
    access::{self, Caller, Denied},
};

/// A refusal as a short page with its status.
pub fn page_for(denied: Denied) -> Response {
    let back = match denied {
        Denied::SignInRequired => Some(("/signin", "Sign in")),
        _ => Some(("/", "Mentat's home page")),
    };
    let heading = match denied.status() {
        StatusCode::UNAUTHORIZED => "Sign in first",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::NOT_FOUND => "Page not found",
        _ => "Something went wrong",
    };
    (
        denied.status(),
        no_store(Html(plain::message(heading, &denied.message(), back))),
    )
        .into_response()
}

/// Pages with tokens and personal data are never kept by a cache.
fn no_store(body: Html<String>) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    response
}

fn origin(site: &PublicSite, headers: &HeaderMap) -> String {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    site.absolute(host, "")
        .unwrap_or_else(|| "http://127.0.0.1:3000".to_owned())
}

/// The signed-in caller of a page (pages take no tokens), checked for `action`.
async fn person(
    state: &AppState,
    session: &Session,
    slug: &str,
    action: Action,
) -> Result<(Event, Caller), Denied> {
    let event = access::event(&state.pool, slug).await?;
    let caller = Caller::of(&state.pool, session, &HeaderMap::new(), "").await?;
    caller.require(&state.pool, &event, action).await?;
    Ok((event, caller))
}

async fn render_desk(
    state: &AppState,
    site: &PublicSite,
    headers: &HeaderMap,
    event: &Event,
    caller: &Caller,
    flash: Option<Flash>,
    new_secret: Option<NewSecret>,
) -> Result<Response, Denied> {
    let pool = &state.pool;
    let mut exports = Vec::new();
    for kind in Kind::ALL {
        if caller.may(pool, event, kind.action()).await {
            exports.push(kind);
        }
    }
    let can_manage = caller.may(pool, event, Action::ManageStaff).await;
    let tokens = if can_manage {
        tokens::list(pool, event.id, TokenKind::Api)
            .await
            .map_err(|e| access::internal("listing tokens", e))?
    } else {
        Vec::new()
    };
    let rounds = db::rounds::list(pool, event.id)
        .await
        .map_err(|e| access::internal("listing rounds", e))?;
    let now: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("SELECT now()")
        .fetch_one(pool)
        .await
        .map_err(|e| access::internal("reading the time", e))?;
    let html = organise::desk(Desk {
        slug: event.slug.clone(),
        name: event.name.clone(),
        rounds: rounds.iter().map(|r| r.number.get()).collect(),
        exports,
        can_print_forms: caller.may(pool, event, Action::ViewAllReports).await,
        can_manage,
        tokens,
        now,
        flash,
        new_secret,
        origin: origin(site, headers),
    });
    Ok(no_store(Html(html)))
}

/// `GET /events/{slug}/organise`: for the staff (judges see the exports and print pages they
/// may use; organisers also backups and tokens).
pub async fn desk(
    State(state): State<AppState>,
    Extension(site): Extension<PublicSite>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let (event, caller) = person(&state, &session, &slug, Action::ViewAllReports).await?;
        render_desk(&state, &site, &headers, &event, &caller, None, None).await
    }
    .await;
    result.unwrap_or_else(page_for)
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    label: String,
    role: String,
    #[serde(default)]
    days: String,
}

/// `POST /events/{slug}/tokens`: makes an API token and shows its secret once.
pub async fn create_token(
    State(state): State<AppState>,
    Extension(site): Extension<PublicSite>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<TokenForm>,
) -> Response {
    let result = async {
        let (event, caller) = person(&state, &session, &slug, Action::ManageStaff).await?;
        let actor = caller.actor().cloned().ok_or(Denied::SignInRequired)?;
        let refused = |message: String| Flash::Refused {
            form: "tokens",
            message,
        };
        let role = Role::parse(form.role.trim());
        let days = match form.days.trim() {
            "" => Ok(None),
            d => match d.parse::<i64>() {
                Ok(n) if (1..=366).contains(&n) => Ok(Some(n)),
                _ => Err(
                    "Expires after a number of days from 1 to 366, or leave it empty.".to_owned(),
                ),
            },
        };
        let (flash, secret) = match (role, days) {
            (None, _) => (
                Some(refused("Pick the role the token acts as.".into())),
                None,
            ),
            (_, Err(m)) => (Some(refused(m)), None),
            (Some(role), Ok(days)) => {
                let expires = days.map(|d| chrono::Utc::now() + chrono::Duration::days(d));
                match tokens::issue(
                    &state.pool,
                    &actor,
                    event.id,
                    NewToken::api(&form.label, role, expires),
                )
                .await
                {
                    Ok(issued) => (
                        None,
                        Some(NewSecret {
                            label: issued.token.label,
                            secret: issued.secret.expose().to_owned(),
                        }),
                    ),
                    Err(TokenError::Database(e)) => {
                        return Err(access::internal("making a token", e));
                    }
                    Err(e) => (Some(refused(e.to_string())), None),
                }
            }
        };
        render_desk(&state, &site, &headers, &event, &caller, flash, secret).await
    }
    .await;
    result.unwrap_or_else(page_for)
}

/// `POST /events/{slug}/tokens/{id}/revoke`.
pub async fn revoke_token(
    State(state): State<AppState>,
    Extension(site): Extension<PublicSite>,
    Path((slug, id)): Path<(String, i64)>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let (event, caller) = person(&state, &session, &slug, Action::ManageStaff).await?;
        let actor = caller.actor().cloned().ok_or(Denied::SignInRequired)?;
        let flash = match tokens::revoke(&state.pool, &actor, event.id, id).await {
            Ok(token) => Flash::Done(format!(
                "The token \"{}\" is revoked: scripts using it are refused from now on.",
                token.label
            )),
            Err(TokenError::Database(e)) => return Err(access::internal("revoking a token", e)),
            Err(e) => Flash::Refused {
                form: "tokens",
                message: e.to_string(),
            },
        };
        render_desk(&state, &site, &headers, &event, &caller, Some(flash), None).await
    }
    .await;
    result.unwrap_or_else(page_for)
}

/// `GET /events/{slug}/backup`: the whole event as a JSON file (organisers).
pub async fn backup(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let event = access::event(&state.pool, &slug).await?;
        let caller = Caller::of(
            &state.pool,
            &session,
            &headers,
            &format!("GET /events/{slug}/backup"),
        )
        .await?;
        caller
            .require(&state.pool, &event, Action::ManageStaff)
            .await?;
        let backup = db::backup::dump(&state.pool, event.id)
            .await
            .map_err(|e| access::internal("writing a backup", e))?;
        let body =
            db::backup::to_json(&backup).map_err(|e| access::internal("writing a backup", e))?;
        if let Some(actor) = caller.actor() {
            audit::record(
                &state.pool,
                audit::Entry::by(
                    actor,
                    audit::Action::EventBackedUp,
                    event.id,
                    &event.name,
                    serde_json::json!({ "bytes": body.len() }),
                ),
            )
            .await
            .map_err(|e| access::internal("recording a backup", e))?;
        }
        let mut response = body.into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        let stamp = backup.written_at.format("%Y%m%d-%H%M");
        if let Ok(v) = HeaderValue::from_str(&format!(
            "attachment; filename=\"{}-backup-{stamp}.json\"",
            event.slug
        )) {
            headers.insert(header::CONTENT_DISPOSITION, v);
        }
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        Ok::<_, Denied>(response)
    }
    .await;
    // The file is JSON, fetched by scripts as often as by a browser: a refusal is the API's
    // JSON (401 with `WWW-Authenticate: Bearer`).
    result.unwrap_or_else(|denied| super::api::error::ApiError::from(denied).into_response())
}

/// The fields of an upload form: the file's bytes and the text fields.
struct Upload {
    file: Vec<u8>,
    fields: Vec<(String, String)>,
}

impl Upload {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

async fn read_upload(mut multipart: Multipart) -> Result<Upload, String> {
    let mut upload = Upload {
        file: Vec::new(),
        fields: Vec::new(),
    };
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| format!("The upload was cut off or malformed ({e}); send it again."))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            upload.file = field
                .bytes()
                .await
                .map_err(|e| format!("The file could not be read ({e}); send it again."))?
                .to_vec();
        } else {
            let text = field
                .text()
                .await
                .map_err(|e| format!("The form could not be read ({e}); send it again."))?;
            upload.fields.push((name, text));
        }
    }
    Ok(upload)
}

/// `POST /events/{slug}/restore`: a backup file restored at the address the form names (this
/// event's, to replace it, or a new one).
pub async fn restore(
    State(state): State<AppState>,
    Extension(site): Extension<PublicSite>,
    Path(slug): Path<String>,
    session: Session,
    headers: HeaderMap,
    multipart: Multipart,
) -> Response {
    let result = async {
        let (event, caller) = person(&state, &session, &slug, Action::ManageStaff).await?;
        let actor = caller.actor().cloned().ok_or(Denied::SignInRequired)?;
        let refused = |message: String| {
            Some(Flash::Refused {
                form: "restore",
                message,
            })
        };
        let upload = match read_upload(multipart).await {
            Ok(upload) => upload,
            Err(message) => {
                return render_desk(
                    &state,
                    &site,
                    &headers,
                    &event,
                    &caller,
                    refused(message),
                    None,
                )
                .await;
            }
        };
        if upload.file.is_empty() {
            return render_desk(
                &state,
                &site,
                &headers,
                &event,
                &caller,
                refused("Choose the backup file to restore.".into()),
                None,
            )
            .await;
        }
        let options = RestoreOptions {
            as_slug: upload.field("as_slug").map(str::to_owned),
            replace: upload.field("replace").is_some(),
            name: upload.field("name").map(str::to_owned),
        };
        match db::backup::restore(&state.pool, Some(&actor), &upload.file, options).await {
            Ok(restored) => Ok(no_store(Html(organise::restored(&restored)))),
            Err(RestoreError::Database(e)) => Err(access::internal("restoring a backup", e)),
            Err(e) => {
                // The event may be gone only if the restore succeeded; it did not.
                render_desk(
                    &state,
                    &site,
                    &headers,
                    &event,
                    &caller,
                    refused(format!("{e} Nothing was changed.")),
                    None,
                )
                .await
            }
        }
    }
    .await;
    result.unwrap_or_else(page_for)
}

/// `POST /events/{slug}/players/import`: players from CSV, pasted on the players page or a
/// file chosen there (multipart, `csv` or `file`). Columns that are all clear are imported at
/// once and the organiser lands back on the players page at the report (`#done`). A column
/// whose meaning is unclear, or no column of names, shows the preview instead: the first rows
/// under each column with a choice of field, nothing saved; its form posts the text again with
/// the choices (`columns=chosen`, `column-0`…).
pub async fn import_players(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    session: Session,
    multipart: Multipart,
) -> Response {
    use db::players::{Column, ImportError, parse_csv, parse_csv_with};
    let result = async {
        let (event, caller) = person(&state, &session, &slug, Action::RunEvent).await?;
        let actor = caller.actor().cloned().ok_or(Denied::SignInRequired)?;
        let page = |status: StatusCode,
                    text: &str,
                    parse: Option<&db::players::CsvParse>,
                    error: Option<&str>| {
            (
                status,
                no_store(Html(organise::import_preview(
                    &event.slug,
                    &event.name,
                    text,
                    parse,
                    error,
                ))),
            )
                .into_response()
        };
        let upload = match read_upload(multipart).await {
            Ok(upload) => upload,
            Err(message) => {
                return Ok(page(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "",
                    None,
                    Some(&message),
                ));
            }
        };
        let text = if upload.file.is_empty() {
            upload.field("csv").unwrap_or_default().to_owned()
        } else {
            match String::from_utf8(upload.file.clone()) {
                Ok(text) => text,
                Err(_) => {
                    return Ok(page(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "",
                        None,
                        Some(&ImportError::NotText.to_string()),
                    ));
                }
            }
        };
        let refused = |e: ImportError| {
            page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
                None,
                Some(&e.to_string()),
            )
        };
        let auto = match parse_csv(&text) {
            Ok(parse) => parse,
            Err(e) => return Ok(refused(e)),
        };
        if auto.columns.is_empty() {
            return Ok(refused(ImportError::Empty));
        }
        // The organiser's choices, if the preview sent them and the text still has as many
        // columns (an edited text is read afresh).
        let chosen: Option<Vec<Option<Column>>> = (upload.field("columns") == Some("chosen"))
            .then(|| {
                (0..auto.columns.len())
                    .map(|i| upload.field(&format!("column-{i}")).and_then(Column::parse))
                    .collect()
            })
            .filter(|_| {
                upload
                    .fields
                    .iter()
                    .filter(|(name, _)| name.starts_with("column-"))
                    .count()
                    == auto.columns.len()
            });
        let edited = upload.field("columns") == Some("chosen") && chosen.is_none();
        let parse = match &chosen {
            Some(choices) => match parse_csv_with(&text, Some(choices)) {
                Ok(parse) => parse,
                Err(e) => return Ok(refused(e)),
            },
            None => auto,
        };
        if edited {
            return Ok(page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
                Some(&parse),
                Some("The text now has other columns: check what each one holds, then import."),
            ));
        }
        if let Some(problem) = &parse.problem {
            return Ok(page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
                Some(&parse),
                Some(problem),
            ));
        }
        if chosen.is_none() && parse.needs_choice() {
            return Ok(page(StatusCode::OK, &text, Some(&parse), None));
        }
        match db::players::import_csv_with(&state.pool, &actor, event.id, &text, chosen.as_deref())
            .await
        {
            Ok(report) => Ok((
                StatusCode::SEE_OTHER,
                [(
                    header::LOCATION,
                    app::players::import_done_path(&event.slug, &report),
                )],
            )
                .into_response()),
            Err(ImportError::Database(e)) => Err(access::internal("importing players", e)),
            Err(e) => Ok(page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
                Some(&parse),
                Some(&e.to_string()),
            )),
        }
    }
    .await;
    result.unwrap_or_else(page_for)
}
