//! An event's public page: when and where, the current round, "find me" and the projector, with
//! links to what the viewer's role lets them do.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::{
    events::get_event,
    pages::{find::FindForm, params::slug_param},
};

#[component]
pub fn EventPage() -> impl IntoView {
    let slug = slug_param();
    let overview = Resource::new(move || slug.get(), get_event);
    view! {
        <main class="page">
            <Suspense fallback=|| view! { <p>"Loading the event…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Ok(e) => {
                            let base = format!("/events/{}", e.slug);
                            // A player who claimed her registration sees her table first.
                            let mine = match e.my_player {
                                Some(id) => crate::rounds::get_player_card(e.slug.clone(), id)
                                    .await
                                    .ok()
                                    .map(|card| (id, card)),
                                None => None,
                            };
                            let when_where = [e.dates.clone(), e.venue.clone()]
                                .into_iter()
                                .filter(|s| !s.is_empty())
                                .collect::<Vec<_>>()
                                .join(" · ");
                            view! {
                                <Title text=e.name.clone()/>
                                <h1>{e.name.clone()}</h1>
                                {mine.map(|(id, card)| view! { <YourGame base=base.clone() player=id card=card/> })}
                                {(!when_where.is_empty()).then(|| view! { <p class="lead">{when_where}</p> })}
                                <p>{format!("Ruleset {} · {} qualifying rounds", e.ruleset, e.qualifying_rounds)}</p>
                                {e.role.clone().map(|r| view! { <p class="role">"Your role: "<strong>{r}</strong></p> })}
                                <section aria-labelledby="players-corner">
                                    <h2 id="players-corner">"Players"</h2>
                                    <FindForm action=format!("{base}/find")/>
                                    {e.my_player.is_none().then(|| view! {
                                        <p><a href="/claim">"Have a claim code on your slip? Claim your registration"</a></p>
                                    })}
                                    <ul>
                                        {e.current_round.map(|n| view! {
                                            <li><a href=format!("{base}/rounds/{n}")>{format!("Round {n}: tables, seats and factions")}</a></li>
                                        })}
                                        <li><a href=format!("{base}/standings") rel="external">"Standings and the finals line"</a></li>
                                        <li><a href=format!("{base}/finals")>"Finals"</a></li>
                                        <li><a href=format!("{base}/clocks")>"Table clocks (projector)"</a></li>
                                        <li><a href=format!("{base}/statistics") rel="external">"Statistics: factions, win types, game length"</a></li>
                                    </ul>
                                </section>
                                {(e.can_record_results || e.can_invite_staff || e.can_run_event).then(|| view! {
                                    <section aria-labelledby="staff-tools">
                                        <h2 id="staff-tools">"Staff tools"</h2>
                                        <ul>
                                            {e.can_run_event.then(|| view! {
                                                <li><a href=format!("{base}/run")>"Dashboard: start rounds"</a></li>
                                                <li><a href=format!("{base}/players")>"Players: register, import, check in"</a></li>
                                                <li><a href=format!("{base}/settings")>"Event settings"</a></li>
                                            })}
                                            {e.can_record_results.then(|| view! {
                                                <li>{match e.current_round {
                                                    Some(n) => view! { <a href=format!("{base}/rounds/{n}")>"Judge tools: open a table of the current round for its win attempts and game report"</a> }.into_any(),
                                                    None => view! { "Judge tools: win attempts and game reports open from each table once a round is drawn." }.into_any(),
                                                }}</li>
                                            })}
                                            {e.can_record_results.then(|| view! {
                                                <li><a href=format!("{base}/organise") rel="external">"Organiser's desk: exports, print, backup, API tokens"</a></li>
                                            })}
                                            {e.can_invite_staff.then(|| view! {
                                                <li><a href=format!("{base}/staff")>"Staff and roles"</a></li>
                                            })}
                                            {e.can_view_audit.then(|| view! {
                                                <li><a href=format!("{base}/audit")>"Audit log"</a></li>
                                            })}
                                        </ul>
                                    </section>
                                })}
                            }.into_any()
                        }
                        Err(e) => view! { <Title text="Event"/><h1>"Event"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// The signed-in player's own table, at the top of the event page.
#[component]
fn YourGame(
    base: String,
    player: tournament::ids::PlayerId,
    card: crate::rounds::PlayerCard,
) -> impl IntoView {
    use crate::rounds::CardPlace;
    let place = match (&card.place, card.round) {
        _ if card.dropped => "You have dropped from the event.".to_owned(),
        (_, None) => "No round has been drawn yet.".to_owned(),
        (CardPlace::Seated { table, seat, .. }, Some(n)) => {
            format!("Round {n}: table {table}, seat {}.", seat.seat)
        }
        (CardPlace::Bye, Some(n)) => format!("Round {n}: you have a bye."),
        (CardPlace::NotSeated, Some(n)) => format!("You are not seated in round {n}."),
    };
    let place = card.final_note().unwrap_or(place);
    view! {
        <section aria-labelledby="your-game" class="your-game">
            <h2 id="your-game">{format!("Your game, {}", card.name)}</h2>
            <p class="lead" data-testid="your-place">{place}</p>
            <p><a class="button-link" href=format!("{base}/find/{player}")>"Open your card: table, seat, clock"</a></p>
        </section>
    }
}
