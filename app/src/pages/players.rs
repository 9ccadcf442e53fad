//! The event's players for the head judge: add one, import many from CSV (with a line-by-line
//! report of what was refused), check in, drop and reinstate.

use leptos::prelude::*;

use crate::{
    components::field::{Field, FormError, TextArea, count_successes, last_error},
    pages::{dashboard::RunNav, params::slug_param},
    players::{
        AddPlayer, CheckIn, CheckInAll, ImportPlayers, LinkAccount, PlayerRow, SetDropped,
        list_players,
    },
    registration::search_registered,
};

#[component]
pub fn PlayersPage() -> impl IntoView {
    let slug = slug_param();
    let add = ServerAction::<AddPlayer>::new();
    let import = ServerAction::<ImportPlayers>::new();
    let check_in = ServerAction::<CheckIn>::new();
    let check_in_all = ServerAction::<CheckInAll>::new();
    let set_dropped = ServerAction::<SetDropped>::new();
    let link = ServerAction::<LinkAccount>::new();
    let changes = RwSignal::new(0);
    count_successes(link.value(), changes);
    count_successes(add.value(), changes);
    count_successes(import.value(), changes);
    count_successes(check_in.value(), changes);
    count_successes(check_in_all.value(), changes);
    count_successes(set_dropped.value(), changes);
    let players = Resource::new(
        move || (slug.get(), changes.get()),
        |(slug, _)| list_players(slug),
    );
    // Check-in at the door: the forgiving search (case, accents, any part of the name) narrows
    // the list; a plain GET form, so it works before the wasm arrives.
    let query = leptos_router::hooks::use_query_map();
    let q = Memo::new(move |_| query.read().get("q").unwrap_or_default());
    let shown = Resource::new(
        move || (slug.get(), q.get(), changes.get()),
        |(slug, q, _)| async move {
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
    let add_error = last_error(add.value());
    let import_error = last_error(import.value());
    let list_error = Signal::derive(move || {
        [
            check_in.value().get(),
            set_dropped.value().get(),
            check_in_all.value().get().map(|r| r.map(|_| ())),
        ]
        .into_iter()
        .flatten()
        .find_map(Result::err)
    });
    view! {
        <main class="page">
            <RunNav slug=slug/>
            <h1>"Players"</h1>
            <form method="get" class="player-search" role="search">
                <div class="field">
                    <label for="player-q">"Find a player"</label>
                    <input id="player-q" name="q" type="search" value=q.get_untracked()/>
                </div>
                <button type="submit" class="secondary">"Search"</button>
            </form>
            <Transition fallback=|| view! { <p>"Loading players…"</p> }>
                {move || Suspend::new(async move {
                    let shown = shown.await;
                    match players.await {
                        Ok(rows) => view! {
                            <PlayerList rows=rows.clone() shown=shown slug=slug.get_untracked() check_in=check_in set_dropped=set_dropped check_in_all=check_in_all/>
                            <LinkForm rows=rows slug=slug.get_untracked() link=link/>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
            <FormError error=list_error/>
            <section aria-labelledby="add-player">
                <h2 id="add-player">"Add a player"</h2>
                <p class="hint">"After the first round is drawn, a new player is a late entry and plays from the next round."</p>
                <ActionForm action=add attr:class="narrow">
                    <input type="hidden" name="slug" value=move || slug.get()/>
                    <Field label="Name" name="name" required=true error=add_error/>
                    <Field label="Email (optional)" name="email" kind="email" error=add_error/>
                    <Field label="Club (optional)" name="club" error=add_error/>
                    <FormError error=add_error/>
                    <button type="submit" disabled=move || add.pending().get()>"Add player"</button>
                </ActionForm>
                <p class="ok" role="status">{move || match add.value().get() {
                    Some(Ok(name)) => Some(format!("{name} added.")),
                    _ => None,
                }}</p>
            </section>
            <section aria-labelledby="import">
                <h2 id="import">"Import from CSV"</h2>
                <ActionForm action=import>
                    <input type="hidden" name="slug" value=move || slug.get()/>
                    <TextArea label="CSV lines" name="csv" rows=8 required=true
                        hint="One player per line: name, then optional email and club, separated by commas, semicolons or tabs (a paste from a spreadsheet works). A first line such as name,email,club names the columns, in any order; other columns are ignored. Good lines are imported; every refused line is listed with its reason."
                        error=import_error/>
                    <FormError error=import_error/>
                    <button type="submit" disabled=move || import.pending().get()>"Import players"</button>
                </ActionForm>
                // A file goes to a plain form the server answers with the same report, so it
                // works without the browser reading the file.
                <form method="post" enctype="multipart/form-data"
                    action=move || crate::pages::organise::import_path(&slug.get())>
                    <div class="field">
                        <label for="field-csv-file">"Or choose a CSV file"</label>
                        <input id="field-csv-file" type="file" name="file" accept=".csv,.tsv,.txt,text/csv,text/plain" required/>
                    </div>
                    <button type="submit">"Import the file"</button>
                </form>
                {move || import.value().get().and_then(Result::ok).map(|outcome| view! {
                    <div class="import-report" role="status">
                        // Nothing imported is never shown as a success.
                        <p class=if outcome.added == 0 { "field-error" } else { "ok" }>{match outcome.added {
                            0 => "Nothing was imported.".to_owned(),
                            n => format!("Imported {n} player{}.", if n == 1 { "" } else { "s" }),
                        }}</p>
                        <p>{format!("Read as {}.", outcome.read_as)}</p>
                        {(!outcome.ignored_columns.is_empty()).then(|| view! {
                            <p>{format!("Columns ignored: {}.", outcome.ignored_columns.join(", "))}</p>
                        })}
                        {(!outcome.refused.is_empty()).then(|| view! {
                            <p class="field-error">{format!(
                                "{} line{} refused:", outcome.refused.len(), if outcome.refused.len() == 1 { "" } else { "s" }
                            )}</p>
                            <ul class="refused">
                                {outcome.refused.iter().map(|r| view! {
                                    <li>
                                        <strong>{format!("Line {}", r.line)}</strong>" "
                                        <code>{r.text.clone()}</code>": "{r.reason.clone()}
                                    </li>
                                }).collect_view()}
                            </ul>
                        })}
                    </div>
                })}
            </section>
        </main>
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
    check_in: ServerAction<CheckIn>,
    set_dropped: ServerAction<SetDropped>,
    check_in_all: ServerAction<CheckInAll>,
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
    view! {
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
        <ActionForm action=check_in_all attr:class="inline">
            <input type="hidden" name="slug" value=slug/>
            <button type="submit">"Check in everyone"</button>
        </ActionForm>
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
                                    <ActionForm action=check_in attr:class="inline">
                                        <input type="hidden" name="slug" value=slug_check/>
                                        <input type="hidden" name="player_id" value=p.id.to_string()/>
                                        <input type="hidden" name="version" value=p.version/>
                                        <input type="hidden" name="checked_in" value=(!p.checked_in).to_string()/>
                                        <button type="submit" class="small" aria-label=check_aria>{check_label}</button>
                                    </ActionForm>
                                })}
                            </td>
                            <td>
                                <ActionForm action=set_dropped attr:class="inline">
                                    <input type="hidden" name="slug" value=slug_drop/>
                                    <input type="hidden" name="player_id" value=p.id.to_string()/>
                                    <input type="hidden" name="version" value=p.version/>
                                    <input type="hidden" name="dropped" value=(!dropped).to_string()/>
                                    <button type="submit" class="small secondary" aria-label=drop_aria>{drop_label}</button>
                                </ActionForm>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// Links a player to their account, so they can confirm their own reports (4.01.07) on a phone.
#[component]
fn LinkForm(rows: Vec<PlayerRow>, slug: String, link: ServerAction<LinkAccount>) -> impl IntoView {
    let error = last_error(link.value());
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
            <ActionForm action=link attr:class="narrow">
                <input type="hidden" name="slug" value=slug/>
                <div class="field">
                    <label for="field-player">"Player"</label>
                    <select id="field-player" name="player">{options}</select>
                </div>
                <Field label="Account user name" name="username" autocomplete="off" error=error/>
                <FormError error=error/>
                <button type="submit">"Link"</button>
            </ActionForm>
            <p class="ok" role="status">{move || link.value().get().and_then(Result::ok)}</p>
        </section>
    }
}
