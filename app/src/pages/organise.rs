//! The organiser's desk (`/events/{slug}/organise`): everything to take the event's data out,
//! put it on paper, learn from it and move it: the exports, the print pages, the statistics,
//! the backup and its restore, and the event's API tokens. A plain server-rendered page
//! (`server/src/http/organise.rs` answers it and its forms) without the wasm bundle: its forms
//! are ordinary HTML forms, so it needs no hydration.

/// The desk of an event.
pub fn path(slug: &str) -> String {
    format!("/events/{slug}/organise")
}

/// Where the players page posts a CSV file.
pub fn import_path(slug: &str) -> String {
    format!("/events/{slug}/players/import")
}

/// The event's API tokens, on the desk.
pub fn tokens_path(slug: &str) -> String {
    format!("{}#tokens", path(slug))
}

#[cfg(feature = "ssr")]
pub use render::*;

#[cfg(feature = "ssr")]
mod render {
    use chrono::{DateTime, Utc};
    use db::{
        export::Kind,
        tokens::{Standing, Token},
    };
    use leptos::prelude::*;

    use crate::pages::plain::{Look, document};

    /// A message after a form was sent.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum Flash {
        Done(String),
        /// Refused: the message, and the form it belongs to (`tokens`, `restore`).
        Refused {
            form: &'static str,
            message: String,
        },
    }

    /// A token just made: its secret, shown this once.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct NewSecret {
        pub label: String,
        pub secret: String,
    }

    /// Everything the desk shows.
    #[derive(Debug, Clone)]
    pub struct Desk {
        pub slug: String,
        pub name: String,
        pub rounds: Vec<i32>,
        /// The exports this viewer may download.
        pub exports: Vec<Kind>,
        /// Staff-only print pages (report forms) are offered.
        pub can_print_forms: bool,
        /// Organisers: backup, restore, API tokens.
        pub can_manage: bool,
        pub tokens: Vec<Token>,
        pub now: DateTime<Utc>,
        pub flash: Option<Flash>,
        pub new_secret: Option<NewSecret>,
        /// The site's address, for the example request (`https://mentat.example.org`).
        pub origin: String,
    }

    fn when(at: DateTime<Utc>) -> String {
        at.format("%Y-%m-%d %H:%M UTC").to_string()
    }

    pub fn desk(d: Desk) -> String {
        let title = "Organiser's desk".to_owned();
        let (slug, name) = (d.slug.clone(), d.name.clone());
        let main = main_content(d);
        document(&title, Some((&slug, &name)), Look::Screen, main)
    }

    /// The refusal again beside its form (it is announced at the top of the page).
    fn flash_for(flash: &Option<Flash>, form: &'static str) -> Option<AnyView> {
        match flash {
            Some(Flash::Refused { form: f, message }) if *f == form => {
                Some(view! { <p class="form-error">{message.clone()}</p> }.into_any())
            }
            _ => None,
        }
    }

    fn main_content(d: Desk) -> impl IntoView {
        let base = format!("/events/{}", d.slug);
        // The answer to a form is a new page, read from the top: what happened is said there,
        // where the eye is, not only beside the form further down.
        let done = match &d.flash {
            Some(Flash::Done(text)) => {
                Some(view! { <p class="ok" role="status">{text.clone()}</p> }.into_any())
            }
            Some(Flash::Refused { form, message }) => {
                let (anchor, what) = match *form {
                    "restore" => ("#backup", "the restore form"),
                    _ => ("#tokens", "the token form"),
                };
                Some(
                    view! {
                        <div class="form-error" role="alert">
                            <p>{message.clone()}</p>
                            <p><a href=anchor>{format!("Go to {what}")}</a></p>
                        </div>
                    }
                    .into_any(),
                )
            }
            None => None,
        };
        let exports = d
            .exports
            .iter()
            .map(|kind| {
                let csv = format!("{base}/export/{}.csv", kind.as_str());
                let json = format!("{base}/export/{}.json", kind.as_str());
                let title = kind.title();
                view! {
                    <li>
                        <span class="download-title">{title}</span>
                        <a href=csv download="" aria-label=format!("{title}, CSV")>"CSV"</a>
                        <a href=json download="" aria-label=format!("{title}, JSON")>"JSON"</a>
                    </li>
                }
            })
            .collect_view();
        let rounds = if d.rounds.is_empty() {
            view! { <p>"Slips, report forms and pairings appear here once a round is drawn."</p> }
                .into_any()
        } else {
            d.rounds
                .iter()
                .map(|n| {
                    let round = format!("{base}/rounds/{n}/print");
                    let forms = d.can_print_forms.then(|| {
                        view! { <li><a href=format!("{round}/reports")>{format!("Round {n}: game-report forms, one per table")}</a></li> }
                    });
                    view! {
                        <li><a href=format!("{round}/slips")>{format!("Round {n}: table slips, one page per table")}</a></li>
                        {forms}
                        <li><a href=format!("{round}/pairings")>{format!("Round {n}: pairings for the wall, by name and by table")}</a></li>
                    }
                })
                .collect_view()
                .into_any()
        };
        let manage = d.can_manage.then(|| manage_sections(&d));
        view! {
            <p><a href=base.clone()>"← Back to the event"</a></p>
            <h1>"Organiser's desk"</h1>
            <p class="lead">{d.name.clone()}</p>
            {done}
            <section aria-labelledby="exports">
                <h2 id="exports">"Take the data out"</h2>
                <p>"Spreadsheet-ready CSV (UTF-8) and JSON. Cells a spreadsheet could run as a formula start with an apostrophe. The columns are described in the manual (docs/exports.md)."</p>
                <ul class="downloads">{exports}</ul>
            </section>
            <section aria-labelledby="print">
                <h2 id="print">"Print"</h2>
                <p>"Pages laid out for A4 and Letter; use the browser's Print."</p>
                <ul>
                    {rounds}
                    <li><a href=format!("{base}/print/standings")>"Standings with the finals line"</a></li>
                    <li><a href=crate::qr::print_path(&d.slug)>"QR codes for the players' phones: find my seat and the standings, one per half page"</a></li>
                </ul>
            </section>
            <section aria-labelledby="statistics">
                <h2 id="statistics">"Statistics"</h2>
                <ul>
                    <li><a href=format!("{base}/statistics")>"This event: factions, win types, game length, seats"</a></li>
                    <li><a href="/statistics">"All events together"</a></li>
                </ul>
            </section>
            {manage}
        }
    }

    fn role_label(token: &Token) -> String {
        match token.grant {
            db::tokens::Grant::Role(role) => role.label().to_owned(),
            db::tokens::Grant::Player(p) => format!("player {p}"),
            db::tokens::Grant::Maker => "as its maker".to_owned(),
        }
    }

    fn standing_label(token: &Token, now: DateTime<Utc>) -> String {
        match token.standing(now) {
            Standing::Active => match token.expires_at {
                Some(at) => format!("active until {}", when(at)),
                None => "active".to_owned(),
            },
            Standing::Revoked => format!(
                "revoked{}",
                token
                    .revoked_by
                    .as_ref()
                    .map(|by| format!(" by {by}"))
                    .unwrap_or_default()
            ),
            Standing::Expired => "expired".to_owned(),
            Standing::Spent => "used".to_owned(),
        }
    }

    fn manage_sections(d: &Desk) -> impl IntoView + use<> {
        let base = format!("/events/{}", d.slug);
        let secret = d.new_secret.clone().map(|s| {
            let example = format!(
                "curl -H \"Authorization: Bearer {}\" {}/api/v1/events/{}/rounds",
                s.secret, d.origin, d.slug
            );
            view! {
                <div class="notice secret" role="status">
                    <h3>{format!("Token \"{}\" made", s.label)}</h3>
                    <p><strong>"Copy it now: Mentat shows it only this once and keeps only a fingerprint of it."</strong></p>
                    <p><label for="new-token">"The token"</label></p>
                    <input id="new-token" class="secret-value" type="text" readonly value=s.secret.clone()/>
                    <p>"A script sends it with every request, for example:"</p>
                    <pre><code>{example}</code></pre>
                </div>
            }
        });
        let now = d.now;
        let rows = d
            .tokens
            .iter()
            .map(|t| {
                let active = t.standing(now) == Standing::Active;
                let revoke = active.then(|| {
                    view! {
                        <form method="post" action=format!("{base}/tokens/{}/revoke", t.id) class="inline">
                            <button type="submit" class="small secondary" aria-label=format!("Revoke the token {}", t.label)>"Revoke"</button>
                        </form>
                    }
                });
                let made = format!(
                    "made {}{}",
                    when(t.created_at),
                    t.created_by.as_ref().map(|b| format!(" by {b}")).unwrap_or_default()
                );
                let used = match t.last_used_at {
                    Some(at) => format!("used {} times, last {}", t.used_count, when(at)),
                    None => "never used".to_owned(),
                };
                view! {
                    <li class="token">
                        <p><strong>{t.label.clone()}</strong>" "<code>{t.hint.clone()}</code></p>
                        <p>{format!("Acts as {} · {made} · {used} · {}", role_label(t), standing_label(t, now))}</p>
                        {revoke}
                    </li>
                }
            })
            .collect_view();
        let list = if d.tokens.is_empty() {
            view! { <p>"No API token yet."</p> }.into_any()
        } else {
            view! {
                <h3>"This event's API tokens"</h3>
                <ul class="tokens">{rows}</ul>
            }
            .into_any()
        };
        let token_error = flash_for(&d.flash, "tokens");
        let restore_error = flash_for(&d.flash, "restore");
        view! {
            <section aria-labelledby="backup">
                <h2 id="backup">"Backup and restore"</h2>
                <p>"The whole event in one file: settings, players, rounds with their seeds and draws, clocks, win attempts, every report revision and confirmation, the finals and the audit log. Keep one after each round."</p>
                <p><a href=format!("{base}/backup") download="">"Download the backup (JSON)"</a></p>
                <form method="post" action=format!("{base}/restore") enctype="multipart/form-data">
                    <h3>"Restore a backup"</h3>
                    <div class="field">
                        <label for="field-backup">"Backup file"</label>
                        <p class="hint" id="backup-hint">"Up to 2 MB here; a larger file is restored on the server with mentat restore."</p>
                        <input id="field-backup" type="file" name="file" accept=".json,application/json" required aria-describedby="backup-hint"/>
                    </div>
                    <div class="field">
                        <label for="field-as-slug">"Restore at the address /events/…"</label>
                        <p class="hint" id="as-slug-hint">"This event's address replaces this event; another address makes a new event beside it (site administrators only)."</p>
                        <input id="field-as-slug" type="text" name="as_slug" value=d.slug.clone() aria-describedby="as-slug-hint"/>
                    </div>
                    <div class="field">
                        <label for="field-restore-name">"Name of the restored event (optional)"</label>
                        <p class="hint" id="restore-name-hint">"Left empty: the file's name, or, when an event here already has it, the name with “(restored” and today's date after it."</p>
                        <input id="field-restore-name" type="text" name="name" maxlength="120" aria-describedby="restore-name-hint"/>
                    </div>
                    <label class="check"><input type="checkbox" name="replace" value="yes"/>"Replace the event at that address: its data is deleted and the file's takes its place"</label>
                    {restore_error}
                    <button type="submit">"Restore"</button>
                </form>
            </section>
            <section aria-labelledby="tokens">
                <h2 id="tokens">"API tokens"</h2>
                <p>"A token lets a script use the JSON API (docs/api.md) for this event only, with the role you choose. Each use is written to the audit log; revoke a token the moment it is not needed."</p>
                {secret}
                {list}
                <form method="post" action=format!("{base}/tokens")>
                    <h3>"Make a token"</h3>
                    <div class="field">
                        <label for="field-label">"Name"</label>
                        <p class="hint" id="label-hint">"What it is for, such as \"results bot\"."</p>
                        <input id="field-label" type="text" name="label" required maxlength="80" aria-describedby="label-hint"/>
                    </div>
                    <div class="field">
                        <label for="field-token-role">"Acts as"</label>
                        <p class="hint" id="role-hint">"A judge's token records reports; a head judge's also registers and checks in players; an organiser's also reads the audit log."</p>
                        <select id="field-token-role" name="role" aria-describedby="role-hint">
                            <option value="judge">"Judge"</option>
                            <option value="head_judge" selected>"Head judge"</option>
                            <option value="organiser">"Organiser"</option>
                        </select>
                    </div>
                    <div class="field">
                        <label for="field-expires">"Expires after (days)"</label>
                        <p class="hint" id="expires-hint">"Leave empty for a token that works until revoked."</p>
                        <input id="field-expires" type="number" name="days" min="1" max="366" inputmode="numeric" aria-describedby="expires-hint"/>
                    </div>
                    {token_error}
                    <button type="submit">"Make the token"</button>
                </form>
            </section>
        }
    }

    /// The import's preview: the text read into columns, each with its first values and a
    /// choice of field, the unclear ones marked; nothing is saved until the organiser imports.
    /// With `parse` absent (the text could not be read at all), only the text and the error.
    pub fn import_preview(
        slug: &str,
        name: &str,
        text: &str,
        parse: Option<&db::players::CsvParse>,
        error: Option<&str>,
    ) -> String {
        use db::players::Column;
        let players = format!("/events/{slug}/players");
        let action = super::import_path(slug);
        let error = error.map(|e| {
            view! { <div class="form-error" role="alert" id="import-error"><p>{e.to_owned()}</p></div> }
        });
        let columns = parse.map(|p| {
            let unclear = p.columns.iter().filter(|c| c.unclear).count();
            let cards = p
                .columns
                .iter()
                .map(|c| {
                    let label = format!("{} holds", capitalise(&c.name()));
                    let select_id = format!("column-{}", c.index);
                    let options = std::iter::once(view! {
                        <option value="" selected=c.field.is_none()>"Not imported"</option>
                    }.into_any())
                    .chain(Column::ALL.into_iter().map(|f| {
                        view! {
                            <option value=f.code() selected=c.field == Some(f)>{capitalise(f.label())}</option>
                        }
                        .into_any()
                    }))
                    .collect_view();
                    let samples = c
                        .samples
                        .iter()
                        .map(|v| {
                            if v.is_empty() {
                                view! { <li class="empty">"(empty)"</li> }.into_any()
                            } else {
                                view! { <li>{v.clone()}</li> }.into_any()
                            }
                        })
                        .collect_view();
                    view! {
                        <li class="column-card" data-unclear=c.unclear.then_some("true")>
                            <div class="field">
                                <label for=select_id.clone()>{label}</label>
                                {c.unclear.then(|| view! {
                                    <p class="hint unclear-note">"Mentat is not sure what this column holds: choose."</p>
                                })}
                                <select id=select_id.clone() name=select_id>{options}</select>
                            </div>
                            <p class="hint">"First rows:"</p>
                            <ul class="samples">{samples}</ul>
                        </li>
                    }
                })
                .collect_view();
            let read = format!(
                "Read as {}. Nothing is saved yet: check what each column holds{}, then import.",
                p.read_as,
                match unclear {
                    0 => String::new(),
                    1 => " (one is unclear)".to_owned(),
                    n => format!(" ({n} are unclear)"),
                }
            );
            view! {
                <p class="lead">{read}</p>
                <input type="hidden" name="columns" value="chosen"/>
                <ol class="column-cards">{cards}</ol>
            }
        });
        let has_columns = parse.is_some();
        let main = view! {
            <p><a href=players.clone()>"← Back to the players"</a></p>
            <h1>"Import players: check the columns"</h1>
            {error}
            <form method="post" action=action enctype="multipart/form-data" class="import-preview">
                {columns}
                <details class="panel" id="import-text" open=!has_columns>
                    <summary>"The text to import"</summary>
                    <div class="field">
                        <label for="field-csv">"CSV lines"</label>
                        <p class="hint" id="field-csv-hint">"Edit it if a line is wrong; the columns are read again when you import."</p>
                        <textarea id="field-csv" name="csv" rows="8" aria-describedby="field-csv-hint">{text.to_owned()}</textarea>
                    </div>
                </details>
                <button type="submit">{if has_columns { "Import these players" } else { "Read the text again" }}</button>
            </form>
        };
        document("CSV import", Some((slug, name)), Look::Screen, main)
    }

    fn capitalise(text: &str) -> String {
        let mut chars = text.chars();
        match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => String::new(),
        }
    }

    /// After a restore.
    pub fn restored(restored: &db::backup::Restored) -> String {
        let event = &restored.event;
        let created = (!restored.created_accounts.is_empty()).then(|| {
            view! {
                <p>{format!(
                    "Accounts this server did not have were made without a password (an administrator sets one before they can sign in): {}.",
                    restored.created_accounts.join(", ")
                )}</p>
            }
        });
        let main = view! {
            <h1>"Restored"</h1>
            <p class="ok" role="status">{format!(
                "{} is at /events/{}: {} players, {} rounds, {} report revisions{}.",
                event.name, event.slug, restored.players, restored.rounds, restored.reports,
                if restored.replaced { ", replacing the event that was there" } else { "" }
            )}</p>
            {created}
            {restored.warnings.iter().map(|w| view! { <p class="notice" role="alert">{w.clone()}</p> }).collect_view()}
            <p><a href=format!("/events/{}", event.slug)>"Open the event"</a></p>
        };
        document(
            "Restored",
            Some((&event.slug, &event.name)),
            Look::Screen,
            main,
        )
    }
}
