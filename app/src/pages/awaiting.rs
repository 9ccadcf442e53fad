//! "Your table's report awaits your confirmation", on a player's card: the values in words that
//! fit a 360 px phone, the buttons in the first screen, and what became of a dispute. It shows
//! only to the player (their linked account) and the judges; it follows the table's news.

use leptos::prelude::*;
use tournament::EndValues;
use tournament::ids::PlayerId;
use tournament::report::Ending;

use leptos::server_fn::ServerFn;
use tournament::ids::{Revision, RoundNumber, TableNumber};

use crate::{
    disputes::{AwaitingView, LineView, MyAnswer, my_reports},
    forms::{PostForm, form_state},
    results::AnswerReport,
};

#[component]
pub fn AwaitingConfirmation(slug: String, player_id: PlayerId) -> impl IntoView {
    let source = format!("/events/{slug}/live");
    let for_forms = slug.clone();
    let reports = Resource::new(move || (slug.clone(), player_id), |(s, p)| my_reports(s, p));
    view! {
        <div id="awaiting-confirmation" data-live="table" data-live-source=source>
            <Suspense fallback=|| ()>
                {move || {
                    let slug = for_forms.clone();
                    Suspend::new(async move {
                    reports.await.ok().map(|list| {
                        list.into_iter().map(|r| view! { <Awaiting r=r player_id=player_id slug=slug.clone()/> }).collect_view()
                    })
                })}}
            </Suspense>
        </div>
    }
}

fn ended_text(ended: Ending, last_turn: u32) -> String {
    match ended {
        Ending::Win => format!("ended by a win in turn {last_turn}"),
        Ending::Time => format!("stopped by the clock in turn {last_turn} (4.01.09)"),
        Ending::Turns => "played to the end of turn 10".to_owned(),
    }
}

/// "3 strongholds · 10 forces · 5 spice · 2 cards · 4 leaders · 1 win attempt": words, not a
/// row of bare numbers.
fn values_in_words(end: &EndValues, win_attempts: u32) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    [
        plural(end.strongholds, "stronghold", "strongholds"),
        plural(end.forces, "force on the board", "forces on the board"),
        format!("{} spice", end.spice),
        plural(end.cards, "card", "cards"),
        plural(end.leaders, "leader", "leaders"),
        plural(win_attempts, "win attempt", "win attempts"),
    ]
    .join(" · ")
}

#[component]
fn Line(line: LineView) -> impl IntoView {
    let result = line
        .result
        .map_or_else(|| "no win".to_owned(), |w| w.name().to_owned());
    view! {
        <li class:me=line.mine>
            <strong>{line.player.clone()}</strong>
            {format!(" · {}{} · {result}", line.faction.name(), line.ally.map(|a| format!(" (allied with {})", a.name())).unwrap_or_default())}
            <br/>
            <span class="values">{values_in_words(&line.end, line.win_attempts)}</span>
        </li>
    }
}

#[component]
fn Awaiting(r: AwaitingView, player_id: PlayerId, slug: String) -> impl IntoView {
    let winner: Vec<String> = r
        .lines
        .iter()
        .filter_map(|l| l.result.map(|w| format!("{} ({})", l.player, w.name())))
        .collect();
    let summary = format!(
        "Round {}, table {}: {}{}.",
        r.round,
        r.table,
        ended_text(r.ended, r.last_turn),
        if winner.is_empty() {
            String::new()
        } else {
            format!("; {}", winner.join(", "))
        }
    );
    let (mine, others): (Vec<LineView>, Vec<LineView>) = r.lines.into_iter().partition(|l| l.mine);
    let state = match &r.answer {
        MyAnswer::Awaited => None,
        MyAnswer::Agreed => {
            Some("You confirmed this report; it is final once everyone has.".to_owned())
        }
        MyAnswer::Disputed {
            resolution: Some(note),
            ..
        } => Some(format!("You disputed it. The judge decided: {note}")),
        MyAnswer::Disputed {
            taken_by: Some(by), ..
        } => Some(format!("You disputed it; {by} is on it.")),
        MyAnswer::Disputed { .. } => Some("You disputed it; a judge is called.".to_owned()),
    };
    let ask = matches!(r.answer, MyAnswer::Awaited);
    view! {
        <section class="awaiting" aria-labelledby=format!("awaiting-{}-{}", r.round, r.table)>
            <h2 id=format!("awaiting-{}-{}", r.round, r.table)>
                {if ask { "Your table's report awaits your confirmation" } else { "Your table's report" }}
            </h2>
            <p>{summary}</p>
            {r.settled.map(|note| view! { <p role="status">{format!("Your dispute of the earlier report: {note}")}</p> })}
            {state.map(|s| view! { <p role="status">{s}</p> })}
            // The buttons come before the values, so they are in a phone's first screen; the
            // values follow in words, one player a line.
            {ask.then(|| view! {
                <Answer slug=slug round=r.round table=r.table revision=r.revision player_id=player_id/>
            })}
            <ul class="report-lines" aria-label="Your values">{mine.into_iter().map(|line| view! { <Line line=line/> }).collect_view()}</ul>
            <details open=true>
                <summary>"Everyone's values"</summary>
                <ul class="report-lines">{others.into_iter().map(|line| view! { <Line line=line/> }).collect_view()}</ul>
            </details>
        </section>
    }
}

/// The player's two answers: the report is right, or it is not (with what is wrong, for the
/// judge). Plain forms; a refusal (a note left empty) comes back to this card.
#[component]
fn Answer(
    slug: String,
    round: RoundNumber,
    table: TableNumber,
    revision: Revision,
    player_id: PlayerId,
) -> impl IntoView {
    let hidden = move || {
        view! {
            <input type="hidden" name="slug" value=slug.clone()/>
            <input type="hidden" name="round" value=round.to_string()/>
            <input type="hidden" name="table" value=table.to_string()/>
            <input type="hidden" name="revision" value=revision.to_string()/>
            <input type="hidden" name="player_id" value=player_id.to_string()/>
        }
    };
    let (agree, dispute) = (hidden(), hidden());
    let message = form_state(AnswerReport::url())
        .error
        .get_untracked()
        .map(|e| e.to_string());
    let refused = message.is_some();
    view! {
        <div class="confirm-box" role="group" aria-label="Is this report right?">
            <PostForm action=AnswerReport::url() class="inline">
                {agree}
                <input type="hidden" name="agrees" value="true"/>
                <button type="submit">"The report is right"</button>
            </PostForm>
            <div class="form-error" role="alert" data-form-error="" hidden=!refused>
                {message.map(|m| view! { <p>{m}</p> })}
            </div>
            <details open=refused>
                <summary>"Something is wrong"</summary>
                <PostForm action=AnswerReport::url()>
                    {dispute}
                    <input type="hidden" name="agrees" value="false"/>
                    <div class="field">
                        <label for="card-note">"What is wrong?"</label>
                        <input id="card-note" type="text" name="note" required=true/>
                    </div>
                    <button type="submit" class="secondary">"Dispute: call the head judge"</button>
                </PostForm>
            </details>
        </div>
    }
}
