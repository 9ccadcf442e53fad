//! The event's players for the head judge: add one, import many from CSV (with a line-by-line
//! report of what was refused), check in, drop and reinstate. Every action is a plain form the
//! server answers by rendering the list anew (`crate::forms`), so a check-in volunteer's phone
//! works before the wasm arrives.

use leptos::{prelude::*, server_fn::ServerFn};

use crate::{
    components::{
        field::{Field, FormError, TextArea},
        title::EventTitle,
    },
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
    // the list. Without JavaScript it is a plain GET form the server answers (`?q=`); with it,
    // `public/player-filter.js` filters the rows as one types, by the same rule.
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
    let everyone = move || format!("/events/{}/players", slug.get());
    view! {
        <EventTitle page="Players" slug=slug/>
        <main class="page players-page">
            <RunNav slug=slug/>
            <h1>"Players"</h1>
            <DoneNote done=deleted/>
            <form method="get" class="player-search" role="search" data-player-filter="">
                <label for="player-q" class="search-label">"Find a player"</label>
                <p class="hint search-hint" id="player-q-hint">"Any part of the name; accents and capitals do not matter."</p>
                <div class="field">
                    <input id="player-q" name="q" type="search" autocomplete="off" spellcheck="false"
                        aria-describedby="player-q-hint" aria-controls="player-list"
                        value=q.get_untracked()/>
                </div>
                <button type="submit" class="secondary">"Search"</button>
                {(!q.get_untracked().trim().is_empty()).then(|| view! {
                    <a class="button-link show-all" href=everyone>"Show everyone"</a>
                })}
            </form>
            <Suspense fallback=|| view! { <p>"Loading players…"</p> }>
                {move || Suspend::new(async move {
                    let shown = shown.await;
                    match players.await {
                        Ok(rows) => {
                            let any = !rows.is_empty();
                            let waiting = rows
                                .iter()
                                .filter(|p| !p.checked_in && !p.alternate && p.dropped_after.is_none())
                                .count();
                            view! {
                                <PlayerList rows=rows.clone() shown=shown slug=slug.get_untracked()/>
                                {any.then(|| view! { <CheckInEveryone slug=slug.get_untracked() waiting=waiting/> })}
                                <AddForm slug=slug.get_untracked()/>
                                <ImportForm slug=slug.get_untracked() any_players=any/>
                                <LinkForm rows=rows slug=slug.get_untracked()/>
                            }.into_any()
                        }
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            // Filter-as-you-type (after the content: the list reads whole first).
            <script src="/player-filter.js" defer></script>
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

/// The import's report comes back from the server with the page, scrolled to it: how many were
/// imported, how the text was read, which column became which field, and each refused line
/// with its number, its text and the reason. The text (pasted or a file) goes to the import
/// route (`server/src/http/organise.rs`), which shows a preview with a choice of field per
/// column first when a column's meaning is unclear.
///
/// Once the event has players, the import is folded away under "Import more players" (the door
/// needs the list, not the import); it is open for a new event, and after an import so its
/// report shows.
#[component]
fn ImportForm(slug: String, any_players: bool) -> impl IntoView {
    let state = form_state(ImportPlayers::url());
    let error = state.error;
    let action = crate::pages::organise::import_path(&slug);
    let file_action = action.clone();
    let open = !any_players || state.done.is_some() || error.get_untracked().is_some();
    let title = if any_players {
        "Import more players"
    } else {
        "Import players from CSV"
    };
    view! {
        <details class="panel import" open=open>
            <summary><h2 id="import" class="inline-heading">{title}</h2></summary>
            // A plain form: the import route answers with the preview when a column is unclear.
            <form method="post" action=action enctype="multipart/form-data">
                <TextArea label="CSV lines" name="csv" rows=8 required=true
                    hint="One player per line: name, then optional email and club, separated by commas, semicolons or tabs (a paste from a spreadsheet or a sign-up form's export works). A first line such as name,email,club names the columns, in any order, headed as forms head them (\"E-mail address\", \"Club / team\"). When a column's meaning is unclear you choose its field on a preview of the first rows, before anything is saved. Good lines are imported; every refused line is listed with its reason."
                    error=error/>
                <FormError error=error/>
                <button type="submit">"Import players"</button>
            </form>
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
                <div class="import-report" role="status" id=crate::forms::DONE_ANCHOR tabindex="-1">
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
        </details>
    }
}

/// The row's state in words (colour is never the only cue): its mark for the styles, its tag,
/// and what follows the tag.
fn status(p: &PlayerRow) -> (&'static str, String, String) {
    let (state, tag) = match (p.dropped_after, p.checked_in) {
        (Some(round), _) => ("dropped", format!("Dropped after round {round}")),
        (None, true) => ("in", "Checked in".to_owned()),
        (None, false) => ("out", "Not checked in".to_owned()),
    };
    let mut more = Vec::new();
    if p.alternate {
        more.push("alternate".to_owned());
    }
    if let Some(round) = p.late_after {
        more.push(format!("late entry after round {round}"));
    }
    let more = if more.is_empty() {
        String::new()
    } else {
        format!(", {}", more.join(", "))
    };
    (state, tag, more)
}

/// What the search says it found (the filter script says the same as one types).
fn found_text(found: usize) -> String {
    match found {
        0 => "Nobody of that name. Check the spelling; any part of the name will do.".to_owned(),
        1 => "1 player found.".to_owned(),
        n => format!("{n} players found."),
    }
}

/// Every player is on the page; a search hides (`hidden`) those it does not find and puts the
/// ones it finds first, best first. The script filters the same rows as one types: each row
/// carries its folded name (`data-name`).
#[component]
fn PlayerList(
    rows: Vec<PlayerRow>,
    /// The players a search found, best first; `None` when there is no search.
    shown: Option<Vec<tournament::ids::PlayerId>>,
    slug: String,
) -> impl IntoView {
    let registered = rows.iter().filter(|p| !p.alternate).count();
    let checked = rows
        .iter()
        .filter(|p| p.checked_in && p.dropped_after.is_none() && !p.alternate)
        .count();
    let dropped = rows.iter().filter(|p| p.dropped_after.is_some()).count();
    let slug_rows = slug;
    let (found, rows): (Option<usize>, Vec<(PlayerRow, bool)>) = match &shown {
        None => (None, rows.into_iter().map(|r| (r, true)).collect()),
        Some(ids) => {
            let mut ordered: Vec<(PlayerRow, bool)> = ids
                .iter()
                .filter_map(|id| rows.iter().find(|r| r.id == *id).cloned())
                .map(|r| (r, true))
                .collect();
            ordered.extend(
                rows.into_iter()
                    .filter(|r| !ids.contains(&r.id))
                    .map(|r| (r, false)),
            );
            (Some(ids.len()), ordered)
        }
    };
    // The row forms' refusals (a stale row, for one) are said under the list.
    let list_error = Signal::stored(
        [CheckIn::url(), SetDropped::url()]
            .into_iter()
            .find_map(|action| form_state(action).error.get_untracked()),
    );
    view! {
        <div data-form-errors="">
        <p role="status" data-testid="search-result" data-filter-status="">{found.map(found_text)}</p>
        <p class="lead" data-testid="player-summary">{format!(
            "{registered} registered · {checked} checked in · {dropped} dropped"
        )}</p>
        <table class="players" id="player-list" tabindex="0">
            <caption>"Registered players"</caption>
            <thead><tr>
                <th scope="col">"Name"</th><th scope="col">"Status"</th><th scope="col">"Check-in"</th>
                <th scope="col">"Club"</th><th scope="col">"Email"</th><th scope="col">"Drop"</th>
            </tr></thead>
            <tbody>
                {rows.into_iter().map(|(p, visible)| {
                    let dropped = p.dropped_after.is_some();
                    let check_label = if p.checked_in { "Undo check-in" } else { "Check in" };
                    let check_class = if p.checked_in { "small secondary undo" } else { "check-in" };
                    let drop_label = if dropped { "Reinstate" } else { "Drop" };
                    let (slug_check, slug_drop) = (slug_rows.clone(), slug_rows.clone());
                    let check_aria = format!("{check_label}: {}", p.name);
                    let drop_aria = format!("{drop_label}: {}", p.name);
                    let (state, tag, more) = status(&p);
                    let edit = format!("/events/{slug_rows}/players/{}", p.id);
                    let edit_aria = format!("Edit: {}", p.name);
                    view! {
                        <tr data-player=p.id.to_string() data-name=p.search_name data-state=state hidden=!visible>
                            <th scope="row" class="who">{p.name}" "<a href=edit aria-label=edit_aria class="edit-link">"Edit"</a></th>
                            <td class="state"><span class="state-tag">{tag}</span>{more}</td>
                            <td class="check">
                                {(!dropped).then(|| view! {
                                    <PostForm action=CheckIn::url() class="inline">
                                        <input type="hidden" name="slug" value=slug_check/>
                                        <input type="hidden" name="player_id" value=p.id.to_string()/>
                                        <input type="hidden" name="version" value=p.version/>
                                        <input type="hidden" name="checked_in" value=(!p.checked_in).to_string()/>
                                        <button type="submit" class=check_class aria-label=check_aria>{check_label}</button>
                                    </PostForm>
                                })}
                            </td>
                            <td class="club">{p.club}</td>
                            <td class="email">{p.email}</td>
                            <td class="drop">
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

/// Everyone at once, away from the rows a thumb taps at the door, and only with a tick: the
/// server refuses it without.
#[component]
fn CheckInEveryone(slug: String, waiting: usize) -> impl IntoView {
    let state = form_state(CheckInAll::url());
    let error = state.error;
    let message = Memo::new(move |_| error.get().and_then(|e| e.message_for("confirm")));
    view! {
        <section aria-labelledby="check-in-all" class="check-in-all">
            <h2 id="check-in-all">"Check in everyone"</h2>
            {if waiting == 0 {
                view! { <p>"Everyone registered is checked in (or has dropped)."</p> }.into_any()
            } else {
                view! {
                    <PostForm action=CheckInAll::url()>
                        <input type="hidden" name="slug" value=slug/>
                        <div class="choice">
                            <input type="checkbox" id="confirm-check-in-all" name="confirm" value="true"
                                aria-describedby="confirm-check-in-all-error"
                                aria-invalid=move || message.get().is_some().then_some("true")/>
                            <label for="confirm-check-in-all">{format!(
                                "Yes, check in all {waiting} player{} not checked in yet",
                                if waiting == 1 { "" } else { "s" }
                            )}</label>
                        </div>
                        <p class="field-error" id="confirm-check-in-all-error" role="alert" hidden=move || message.get().is_none()
                            data-error-for="confirm" data-control="confirm-check-in-all">{move || message.get()}</p>
                        <FormError error=error/>
                        <button type="submit" class="secondary">"Check in everyone"</button>
                    </PostForm>
                }.into_any()
            }}
            <DoneNote done=state.done/>
        </section>
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
            <p class="hint">"A linked player confirms their own game reports on their phone. Players link themselves: the claim code on their table slip (or a claim link) makes their account and links it. Here you can link an account that already exists; it gets the player role in this event. Leave the user name empty to unlink."</p>
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
