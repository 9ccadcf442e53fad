//! The event's players for the head judge: add one, import many from CSV (with a line-by-line
//! report of what was refused), check in, drop and reinstate. Every action is a plain form the
//! server answers by rendering the list anew (`crate::forms`), so a check-in volunteer's phone
//! works before the wasm arrives.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    components::field::{Field, FormError, TextArea},
    forms::{DoneNote, PostForm, form_state},
    pages::{dashboard::RunNav, params::slug_param},
    players::{
        AddPlayer, CheckIn, CheckInAll, ImportPlayers, LinkAccount, NOTHING_IMPORTED, PlayerRow,
        SetDropped, list_players,
    },
    registration::{DeletePlayer, search_registered},
};

#[component]
pub fn PlayersPage() -> impl IntoView {
    let slug = slug_param();
    let players = Resource::new(move || slug.get(), list_players);
    // Check-in at the door: the forgiving search (case, accents, any part of the name) narrows
    // the list; a plain GET form, so it works before the wasm arrives.
    let query = leptos_router::hooks::use_query_map();
    let q = Memo::new(move |_| query.read().get("q").unwrap_or_default());
    let shown = Resource::new(
        move || (slug.get(), q.get()),
        |(slug, q)| async move {
            if q.trim().is_empty() {
                None
            } else {
                search_registered(slug, q)
                    .await
                    .ok()
                    .map(|rows| rows.into_iter().map(|r| r.id).collect::<Vec<_>>())
            }
        },
    );
    // A deleted player's page sends the head judge back here, saying who was deleted.
    let deleted = form_state(DeletePlayer::url()).done;
    view! {
        <Title text="Players"/>
        <main class="page">
            <RunNav slug=slug/>
            <h1>"Players"</h1>
            <DoneNote done=deleted/>
            <form method="get" class="player-search" role="search">
                <div class="field">
                    <label for="player-q">"Find a player"</label>
                    <input id="player-q" name="q" type="search" value=q.get_untracked()/>
                </div>
                <button type="submit" class="secondary">"Search"</button>
            </form>
            <Suspense fallback=|| view! { <p>"Loading players…"</p> }>
                {move || Suspend::new(async move {
                    let shown = shown.await;
                    match players.await {
                        Ok(rows) => view! {
                            <PlayerList rows=rows.clone() shown=shown slug=slug.get_untracked()/>
                            <LinkForm rows=rows slug=slug.get_untracked()/>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <AddForm slug=slug.get_untracked()/>
            <ImportForm slug=slug.get_untracked()/>
        </main>
    }
}

#[component]
fn AddForm(slug: String) -> impl IntoView {
    let state = form_state(AddPlayer::url());
    let error = state.error;
    view! {
        <section aria-labelledby="add-player">
            <h2 id="add-player">"Add a player"</h2>
            <p class="hint">"After the first round is drawn, a new player is a late entry and plays from the next round."</p>
            <PostForm action=AddPlayer::url() class="narrow">
                <input type="hidden" name="slug" value=slug/>
                <Field label="Name" name="name" required=true error=error/>
                <Field label="Email (optional)" name="email" kind="email" error=error/>
                <Field label="Club (optional)" name="club" error=error/>
                <FormError error=error/>
                <button type="submit">"Add player"</button>
            </PostForm>
            <DoneNote done=state.done/>
        </section>
    }
}

/// The import's report comes back from the server with the page: how many were imported, and
/// each refused line with its number, its text and the reason.
#[component]
fn ImportForm(slug: String) -> impl IntoView {
    let state = form_state(ImportPlayers::url());
    let error = state.error;
    let file_action = crate::pages::organise::import_path(&slug);
    view! {
        <section aria-labelledby="import">
            <h2 id="import">"Import from CSV"</h2>
            <PostForm action=ImportPlayers::url()>
                <input type="hidden" name="slug" value=slug/>
                <TextArea label="CSV lines" name="csv" rows=8 required=true
                    hint="One player per line: name, then optional email and club, separated by commas, semicolons or tabs (a paste from a spreadsheet works). A first line such as name,email,club names the columns, in any order; other columns are ignored. Good lines are imported; every refused line is listed with its reason."
                    error=error/>
                <FormError error=error/>
                <button type="submit">"Import players"</button>
            </PostForm>
            // A file goes to a plain form the server answers with the same report on a page of
            // its own, so it works without the browser reading the file.
            <form method="post" enctype="multipart/form-data"
                action=file_action>
                <div class="field">
                    <label for="field-csv-file">"Or choose a CSV file"</label>
                    <input id="field-csv-file" type="file" name="file" accept=".csv,.tsv,.txt,text/csv,text/plain" required/>
                </div>
                <button type="submit">"Import the file"</button>
            </form>
            {state.done.map(|done| {
                // Nothing imported is never shown as a success.
                let nothing = done.message == NOTHING_IMPORTED;
                view! {
                <div class="import-report" role="status">
                    <p class=if nothing { "field-error" } else { "ok" }>{done.message}</p>
                    {done.notes.into_iter().map(|n| view! { <p>{n}</p> }).collect_view()}
                    {(!done.lines.is_empty()).then(|| view! {
                        <p class="field-error">{format!(
                            "{} line{} refused:", done.lines.len(), if done.lines.len() == 1 { "" } else { "s" }
                        )}</p>
                        <ul class="refused">
                            {done.lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                        </ul>
                    })}
                </div>
            }})}
        </section>
    }
}

fn status(p: &PlayerRow) -> String {
    let mut parts = Vec::new();
    if let Some(round) = p.dropped_after {
        parts.push(format!("Dropped after round {round}"));
    } else if p.checked_in {
        parts.push("Checked in".to_owned());
    } else {
        parts.push("Not checked in".to_owned());
    }
    if p.alternate {
        parts.push("alternate".to_owned());
    }
    if let Some(round) = p.late_after {
        parts.push(format!("late entry after round {round}"));
    }
    parts.join(", ")
}

#[component]
fn PlayerList(
    rows: Vec<PlayerRow>,
    /// The players a search found, best first; everyone when there is no search.
    shown: Option<Vec<tournament::ids::PlayerId>>,
    slug: String,
) -> impl IntoView {
    let registered = rows.iter().filter(|p| !p.alternate).count();
    let checked = rows
        .iter()
        .filter(|p| p.checked_in && p.dropped_after.is_none() && !p.alternate)
        .count();
    let dropped = rows.iter().filter(|p| p.dropped_after.is_some()).count();
    let slug_rows = slug.clone();
    let searched = shown.is_some();
    let rows: Vec<PlayerRow> = match &shown {
        None => rows,
        Some(ids) => ids
            .iter()
            .filter_map(|id| rows.iter().find(|r| r.id == *id).cloned())
            .collect(),
    };
    let found = rows.len();
    // The row forms' refusals (a stale row, for one) are said under the list.
    let list_error = Signal::stored(
        [CheckIn::url(), SetDropped::url(), CheckInAll::url()]
            .into_iter()
            .find_map(|action| form_state(action).error.get_untracked()),
    );
    view! {
        <div data-form-errors="">
        {searched.then(|| view! {
            <p role="status" data-testid="search-result">{match found {
                0 => "Nobody of that name. Check the spelling; any part of the name will do.".to_owned(),
                1 => "1 player found.".to_owned(),
                n => format!("{n} players found."),
            }}</p>
        })}
        <p class="lead" data-testid="player-summary">{format!(
            "{registered} registered · {checked} checked in · {dropped} dropped"
        )}</p>
        <PostForm action=CheckInAll::url() class="inline">
            <input type="hidden" name="slug" value=slug/>
            <button type="submit">"Check in everyone"</button>
        </PostForm>
        <table class="players">
            <caption>"Registered players"</caption>
            <thead><tr>
                <th scope="col">"Name"</th><th scope="col">"Club"</th><th scope="col">"Email"</th>
                <th scope="col">"Status"</th><th scope="col">"Check-in"</th><th scope="col">"Drop"</th>
            </tr></thead>
            <tbody>
                {rows.into_iter().map(|p| {
                    let dropped = p.dropped_after.is_some();
                    let check_label = if p.checked_in { "Undo check-in" } else { "Check in" };
                    let drop_label = if dropped { "Reinstate" } else { "Drop" };
                    let (slug_check, slug_drop) = (slug_rows.clone(), slug_rows.clone());
                    let check_aria = format!("{check_label}: {}", p.name);
                    let drop_aria = format!("{drop_label}: {}", p.name);
                    let row_status = status(&p);
                    let edit = format!("/events/{slug_rows}/players/{}", p.id);
                    let edit_aria = format!("Edit: {}", p.name);
                    view! {
                        <tr>
                            <th scope="row">{p.name}" "<a href=edit aria-label=edit_aria class="edit-link">"Edit"</a></th>
                            <td>{p.club}</td>
                            <td>{p.email}</td>
                            <td>{row_status}</td>
                            <td>
                                {(!dropped).then(|| view! {
                                    <PostForm action=CheckIn::url() class="inline">
                                        <input type="hidden" name="slug" value=slug_check/>
                                        <input type="hidden" name="player_id" value=p.id.to_string()/>
                                        <input type="hidden" name="version" value=p.version/>
                                        <input type="hidden" name="checked_in" value=(!p.checked_in).to_string()/>
                                        <button type="submit" class="small" aria-label=check_aria>{check_label}</button>
                                    </PostForm>
                                })}
                            </td>
                            <td>
                                <PostForm action=SetDropped::url() class="inline">
                                    <input type="hidden" name="slug" value=slug_drop/>
                                    <input type="hidden" name="player_id" value=p.id.to_string()/>
                                    <input type="hidden" name="version" value=p.version/>
                                    <input type="hidden" name="dropped" value=(!dropped).to_string()/>
                                    <button type="submit" class="small secondary" aria-label=drop_aria>{drop_label}</button>
                                </PostForm>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <FormError error=list_error/>
        </div>
    }
}

/// Links a player to their account, so they can confirm their own reports (4.01.07) on a phone.
#[component]
fn LinkForm(rows: Vec<PlayerRow>, slug: String) -> impl IntoView {
    let state = form_state(LinkAccount::url());
    let error = state.error;
    let options = rows
        .iter()
        .filter(|p| !p.alternate)
        .map(|p| {
            let label = format!("{}{}", p.name, if p.linked { " (linked)" } else { "" });
            view! { <option value=format!("{}:{}", p.id, p.version)>{label}</option> }
        })
        .collect_view();
    view! {
        <section aria-labelledby="link-account">
            <h2 id="link-account">"Link a player to their account"</h2>
            <p class="hint">"A linked player confirms their own game reports on their phone. The account must exist (mentat user add); it gets the player role in this event. Leave the user name empty to unlink."</p>
            <PostForm action=LinkAccount::url() class="narrow">
                <input type="hidden" name="slug" value=slug/>
                <div class="field">
                    <label for="field-player">"Player"</label>
                    <select id="field-player" name="player">{options}</select>
                    <p class="field-error" role="alert" data-error-for="player" data-control="field-player"
                        hidden=error.get_untracked().and_then(|e| e.message_for("player")).is_none()>
                        {error.get_untracked().and_then(|e| e.message_for("player"))}
                    </p>
                </div>
                <Field label="Account user name" name="username" autocomplete="off" error=error/>
                <FormError error=error/>
                <button type="submit">"Link"</button>
            </PostForm>
            <DoneNote done=state.done/>
        </section>
    }
}
