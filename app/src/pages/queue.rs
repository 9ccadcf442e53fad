//! The judges' queue on the dashboard: disputes first (a judge takes one, the others see who has
//! it, and resolves it with a note), then tables past their time with no report, then reports
//! waiting for the players' confirmations. Plain forms; the section follows the event's `table`
//! news (`public/live-parts.js`), so a dispute raised on a phone shows here within a second.

use leptos::{prelude::*, server_fn::ServerFn};

use crate::{
    disputes::{QueueEntry, QueueView, ResolveDispute, TakeDispute, get_queue},
    forms::{DoneNote, PostForm, form_state},
};

#[component]
pub fn JudgesQueue(slug: Memo<String>) -> impl IntoView {
    let queue = Resource::new(move || slug.get(), get_queue);
    view! {
        <section id="judges-queue" class="queue" data-live="table"
            data-live-source=move || format!("/events/{}/live", slug.get())
            aria-labelledby="queue-heading" data-form-errors="">
            <Suspense fallback=|| view! { <h2 id="queue-heading">"Needs a judge"</h2><p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match queue.await {
                        Ok(q) => view! { <Queue q=q slug=slug.get_untracked()/> }.into_any(),
                        Err(e) => view! {
                            <h2 id="queue-heading">"Needs a judge"</h2>
                            <p role="alert">{e.to_string()}</p>
                        }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// Any refusal of the queue's forms, whatever its kind: the forms have no field slots of their
/// own (one dispute's note field among many), so the message is said once, above the list.
#[component]
fn QueueError() -> impl IntoView {
    let message = [TakeDispute::url(), ResolveDispute::url()]
        .into_iter()
        .find_map(|action| form_state(action).error.get_untracked())
        .map(|e| e.to_string());
    let hidden = message.is_none();
    view! {
        <div class="form-error" role="alert" data-form-error="" hidden=hidden>
            {message.map(|m| view! { <p>{m}</p> })}
        </div>
    }
}

#[component]
fn Queue(q: QueueView, slug: String) -> impl IntoView {
    let disputes = q
        .entries
        .iter()
        .filter(|e| matches!(e, QueueEntry::Dispute { .. }))
        .count();
    let heading = match (disputes, q.entries.len()) {
        (_, 0) => "Needs a judge: nothing".to_owned(),
        (0, n) => format!("Needs a judge: {n}"),
        (d, n) => format!(
            "Needs a judge: {d} dispute{}{}",
            if d == 1 { "" } else { "s" },
            if n > d {
                format!(", {} more", n - d)
            } else {
                String::new()
            }
        ),
    };
    let resolved = form_state(ResolveDispute::url()).done;
    view! {
        <h2 id="queue-heading" data-testid="queue-heading">{heading}</h2>
        <QueueError/>
        <DoneNote done=resolved/>
        {q.entries.is_empty().then(|| view! {
            <p>"No dispute, no report waiting, no table over time."</p>
        })}
        <ul class="queue-list">
            {q.entries.into_iter().map(|entry| {
                let table_path = entry.table_path(&slug);
                match entry {
                    QueueEntry::Dispute { round, table, revision, player_id, player, note, at, taken_by } => {
                        let mine = taken_by.as_deref() == Some(q.me.as_str());
                        let may_resolve = taken_by.is_none() || mine || q.can_override;
                        let who = match &taken_by {
                            None => "Nobody has taken it yet.".to_owned(),
                            Some(_) if mine => "You have it.".to_owned(),
                            Some(by) => format!("{by} has it."),
                        };
                        let hidden = {
                            let slug = slug.clone();
                            move || view! {
                                <input type="hidden" name="slug" value=slug.clone()/>
                                <input type="hidden" name="round" value=round.to_string()/>
                                <input type="hidden" name="table" value=table.to_string()/>
                                <input type="hidden" name="revision" value=revision.to_string()/>
                                <input type="hidden" name="player_id" value=player_id.to_string()/>
                            }
                        };
                        let note_id = format!("resolution-{round}-{table}-{player_id}");
                        let finalise_id = format!("{note_id}-final");
                        let label = format!("Dispute at round {round}, table {table}: {player}");
                        let item_label = label.clone();
                        let (take_label, resolve_label) = (format!("Take: {label}"), format!("Resolve: {label}"));
                        view! {
                            <li class="queue-item dispute" aria-label=item_label>
                                <p class="queue-what"><strong>"Dispute"</strong>
                                    {format!(" · Round {round}, table {table} · {player} · {at}")}</p>
                                <blockquote class="dispute-note">{note}</blockquote>
                                <p class="queue-who" data-testid="taken-by">{who}</p>
                                <p><a href=table_path>{format!("Table {table}'s report")}</a></p>
                                {taken_by.is_none().then(|| {
                                    let fields = hidden();
                                    view! {
                                        <PostForm action=TakeDispute::url() class="inline">
                                            {fields}
                                            <button type="submit" aria-label=take_label>"Take this dispute"</button>
                                        </PostForm>
                                    }
                                })}
                                {may_resolve.then(|| {
                                    let fields = hidden();
                                    view! {
                                        <PostForm action=ResolveDispute::url() class="resolve">
                                            {fields}
                                            <div class="field">
                                                <label for=note_id.clone()>"What was decided"</label>
                                                <textarea id=note_id.clone() name="resolution" rows="2" required=true></textarea>
                                            </div>
                                            {q.can_override.then(|| view! {
                                                <div class="choice">
                                                    <input type="checkbox" id=finalise_id.clone() name="finalise" value="true"/>
                                                    <label for=finalise_id.clone()>"The report stands: make it final (4.01.05)"</label>
                                                </div>
                                            })}
                                            <button type="submit" aria-label=resolve_label>"Resolve"</button>
                                        </PostForm>
                                    }
                                })}
                            </li>
                        }.into_any()
                    }
                    QueueEntry::OverTime { round, table, over_minutes, finishing } => view! {
                        <li class="queue-item over-time">
                            <p class="queue-what"><strong>"Over time"</strong>
                                {format!(" · Round {round}, table {table} · {over_minutes} min past the limit")}</p>
                            <p>{if finishing {
                                "Finishing the turn being played (4.01.08); no report yet."
                            } else {
                                "The 30 minutes to finish are gone: play stops, the game is adjudicated (4.01.09)."
                            }}</p>
                            <p><a href=table_path>{format!("Table {table}'s report")}</a></p>
                        </li>
                    }.into_any(),
                    QueueEntry::Awaiting { round, table, waiting_for, confirmed, seated } => view! {
                        <li class="queue-item confirming">
                            <p class="queue-what"><strong>"Awaiting confirmation"</strong>
                                {format!(" · Round {round}, table {table} · {confirmed} of {seated} confirmed")}</p>
                            {(!waiting_for.is_empty()).then(|| view! {
                                <p>{format!("Waiting for {}.", waiting_for.join(", "))}</p>
                            })}
                            <p><a href=table_path>{format!("Table {table}'s report")}</a></p>
                        </li>
                    }.into_any(),
                }
            }).collect_view()}
        </ul>
    }
}
