//! "Find me": a player searches their name on a phone and sees their table, seat, player
//! circle, faction and clock. Readable without JavaScript; live with it.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};
use tournament::ids::PlayerId;

use crate::{
    components::clock::TickingClock,
    components::refresh::KeepCurrent,
    components::rule_link::RuleLink,
    pages::{awaiting::AwaitingConfirmation, params::slug_param},
    rounds::{CardPlace, PlayerCard, find_players, get_player_card},
};

#[component]
pub fn FindPage() -> impl IntoView {
    let slug = slug_param();
    let query = use_query_map();
    let q = Memo::new(move |_| query.read().get("q").unwrap_or_default());
    let results = Resource::new(
        move || (slug.get(), q.get()),
        |(slug, q)| find_players(slug, q),
    );
    view! {
        <main class="page narrow">
            <p><a href=move || format!("/events/{}", slug.get())>"← The event"</a></p>
            <h1>"Find me"</h1>
            <FindForm value=q.get_untracked()/>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let searched = !q.get_untracked().trim().is_empty();
                    let results = results.await;
                    let title = match &results {
                        Ok(found) => format!("Find me · {}", found.event_name),
                        Err(_) => "Find me".to_owned(),
                    };
                    let title = view! { <Title text=title/> };
                    let found = match results {
                        Ok(found) if !searched => view! { <p class="hint">{found.event_name}</p> }.into_any(),
                        Ok(found) if found.matches.is_empty() => view! {
                            <p role="status">"Nobody of that name is registered. Check the spelling, or ask a judge."</p>
                        }.into_any(),
                        Ok(found) => view! {
                            <ul class="found" aria-label="Players found">
                                {found.matches.into_iter().map(|m| view! {
                                    <li>
                                        <a href=format!("/events/{}/find/{}", slug.get_untracked(), m.id)>{m.name}</a>
                                        {(!m.club.is_empty()).then(|| view! { <span class="club">{m.club}</span> })}
                                    </li>
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    };
                    view! { {title}{found} }
                })}
            </Suspense>
        </main>
    }
}

/// A plain GET form: it works the same with or without JavaScript.
#[component]
pub fn FindForm(
    #[prop(optional, into)] value: String,
    /// Where to search from; the current page when absent.
    #[prop(optional, into)]
    action: Option<String>,
) -> impl IntoView {
    view! {
        <form method="get" action=action class="find" role="search">
            <div class="field">
                <label for="find-q">"Your name"</label>
                <input id="find-q" name="q" type="search" autocomplete="name" value=value required=true/>
            </div>
            <button type="submit">"Find me"</button>
        </form>
    }
}

#[component]
pub fn PlayerCardPage() -> impl IntoView {
    let slug = slug_param();
    let params = use_params_map();
    let player = Memo::new(move |_| {
        params
            .read()
            .get("player")
            .and_then(|p| p.parse::<PlayerId>().ok())
            // No player has id 0: the server answers "no such player".
            .unwrap_or(PlayerId(0))
    });
    let card = Resource::new(
        move || (slug.get(), player.get()),
        |(slug, player)| get_player_card(slug, player),
    );
    let can_claim = Resource::new(move || slug.get(), crate::claims::can_make_claims);
    let new_claim = Resource::new(
        move || (slug.get(), player.get()),
        |(slug, player)| crate::claims::take_new_claim(slug, player),
    );
    view! {
        <main class="page narrow player-card">
            // The card follows the table: a redraw, a seat swap, a judge pausing the clock.
            <KeepCurrent seconds=20 without_js=60/>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match card.await {
                        Ok(c) => view! {
                            <Title text=format!("{} · {}", c.name, c.event_name)/>
                            <Card c=c slug=slug.get_untracked() player_id=player.get_untracked()/>
                        }.into_any(),
                        Err(e) => view! { <Title text="Find me"/><h1>"Find me"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let fresh = new_claim.await.ok().flatten();
                    (can_claim.await == Ok(true)).then(|| view! {
                        <ClaimCode slug=slug.get_untracked() player=player.get_untracked() fresh=fresh/>
                    })
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Card(c: PlayerCard, slug: String, player_id: PlayerId) -> impl IntoView {
    let round = c.round;
    let status = match (&c.place, round) {
        _ if c.dropped => "You have dropped from the event.".to_owned(),
        (_, None) => "No round has been drawn yet.".to_owned(),
        (CardPlace::NotSeated, Some(n)) => format!(
            "You are not seated in round {n}.{}",
            if c.checked_in {
                ""
            } else {
                " Check in with a judge."
            }
        ),
        (CardPlace::Bye, Some(n)) => format!("You have a bye in round {n}: no game, 0 points."),
        (CardPlace::Seated { .. }, Some(n)) if !c.round_begun => {
            format!("Round {n} is drawn; seats may still change until play begins.")
        }
        (CardPlace::Seated { .. }, Some(n)) => format!("Round {n} is in play."),
    };
    let status = c.final_note().unwrap_or(status);
    view! {
        <p class="event-name"><a href=format!("/events/{slug}")>{c.event_name.clone()}</a></p>
        <h1>{c.name.clone()}</h1>
        <p class="lead" role="status">{status}</p>
        // A report waiting for this player's answer comes first, with its buttons.
        <AwaitingConfirmation slug=slug.clone() player_id=player_id/>
        {match c.place {
            CardPlace::Seated { table, seat, clock, reported, table_seats } => {
                let full = c.ruleset == "full";
                view! {
                    <dl class="place">
                        <div><dt>"Table"</dt><dd data-testid="table">{table.get()}</dd></div>
                        <div><dt>"Seat"</dt><dd data-testid="seat">{seat.seat}</dd></div>
                        <div><dt>"Place at the board"</dt><dd data-testid="circle">{seat.circle}</dd></div>
                        <div class="faction"><dt>{if full { "Cards offered" } else { "Faction" }}</dt>
                            <dd data-testid="faction">{seat.faction_text()}</dd></div>
                    </dl>
                    <p class="hint">"Places at the board are counted 0 to 5 counterclockwise from the storm start; seat 1 sits next to Tuek's Sietch ("<RuleLink number="0.07"/>")."</p>
                    {reported.then(|| view! { <p class="ok">"Your table's report is final."</p> })}
                    <p><a class="button-link" href=format!("/events/{slug}/rounds/{}/tables/{table}", round.map_or(1, |r| r.get()))>
                        "Win attempts and game report"</a></p>
                    <TickingClock clock=clock server_now=c.now_ms label=format!("Table {table} clock")/>
                    <table tabindex="0" class="tablemates">
                        <caption>{format!("Table {table}")}</caption>
                        <thead><tr><th scope="col">"Seat"</th><th scope="col">"Player"</th><th scope="col">{if full { "Cards" } else { "Faction" }}</th></tr></thead>
                        <tbody>
                            {table_seats.into_iter().map(|s| view! {
                                <tr class:me={s.player_id == seat.player_id}>
                                    <td>{s.seat}</td>
                                    <th scope="row">{s.player.clone()}</th>
                                    <td>{s.faction_text()}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            }
            _ => ().into_any(),
        }}
        <p><a href=format!("/events/{slug}/standings") rel="external">"Standings"</a></p>
        <p><a href=format!("/events/{slug}/find")>"Not you? Search again"</a></p>
        // Follows the table's news for the report awaiting confirmation (after the content, so
        // the card reads whole before any script).
        <script src="/live-parts.js" defer></script>
    }
}

/// For the head judge: a one-use code that ties this registration to the player's own account.
#[component]
fn ClaimCode(
    slug: String,
    player: PlayerId,
    fresh: Option<crate::claims::NewClaim>,
) -> impl IntoView {
    use crate::{
        claims::MakeClaimCode,
        components::field::FormError,
        forms::{PostForm, form_state},
    };
    use leptos::server_fn::ServerFn;
    let error = form_state(MakeClaimCode::url()).error;
    view! {
        <section aria-labelledby="claim-code" class="staff-only">
            <h2 id="claim-code">"Claim code (staff)"</h2>
            <p>"Give the player a code to type at /claim on her phone: her account is then tied to this registration, and the event's page opens on her table. Each code works once; a new one does not cancel an older one. The table slips you print carry a code for every player not claimed yet."</p>
            {fresh.map(|c| view! {
                <div class="done" role="status">
                    <p class="ok">{format!("Claim code made; it works once, until {}. Shown only now:", c.expires)}</p>
                    <p>"Code: "<strong class="claim-code" data-testid="claim-code">{c.code}</strong></p>
                    <p>"Or the link: "<a href=c.link.clone()>{c.link.clone()}</a></p>
                    {c.warning.map(|text| view! { <p class="notice qr-warning" role="alert" data-testid="link-warning">{text}</p> })}
                </div>
            })}
            <PostForm action=MakeClaimCode::url()>
                <input type="hidden" name="slug" value=slug/>
                <input type="hidden" name="player_id" value=player.to_string()/>
                <FormError error=error/>
                <button type="submit">"Make a claim code"</button>
            </PostForm>
        </section>
    }
}
