//! Statistics (`/events/{slug}/statistics`, and `/statistics` across every event): factions
//! played and won, win types, the adjudication rate, game length, seat effects and each
//! faction's best showing. Charts are SVG drawn on the server, each with its numbers in a
//! table beside it, so the page needs no JavaScript and a screen reader reads the table.

#[cfg(feature = "ssr")]
pub use render::*;

#[cfg(feature = "ssr")]
mod render {
    use leptos::prelude::*;
    use tournament::statistics::{Share, Statistics};

    use crate::pages::plain::{Look, document};

    /// One bar: its label, its length against the longest, and the words at its end.
    struct Bar {
        label: String,
        value: usize,
        text: String,
    }

    // Drawn at 480 units wide with 18-unit text: on a 360 px phone the text is still 12 px.
    const WIDTH: usize = 480;
    const LABEL: usize = 150;
    const ROW: usize = 32;

    /// A horizontal bar chart. The figure's caption says what it shows; the table after it
    /// holds the same numbers for reading and for screen readers.
    fn chart(id: &str, caption: &str, bars: Vec<Bar>, max: usize) -> impl IntoView + use<> {
        let height = bars.len().max(1) * ROW + 8;
        let span = WIDTH - LABEL - 100;
        let rows = bars
            .into_iter()
            .enumerate()
            .map(|(i, bar)| {
                let y = i * ROW + 4;
                let length = (bar.value * span).checked_div(max).unwrap_or(0);
                view! {
                    <g>
                        <text x=(LABEL - 8).to_string() y=(y + 19).to_string() text-anchor="end" font-size="18" fill="#1b1b1b">{bar.label}</text>
                        <rect x=LABEL.to_string() y=(y + 4).to_string() width=length.max(1).to_string() height=(ROW - 10).to_string() fill="#9a3d00"></rect>
                        <text x=(LABEL + length + 8).to_string() y=(y + 19).to_string() font-size="16" fill="#55524b">{bar.text}</text>
                    </g>
                }
            })
            .collect_view();
        let title_id = format!("{id}-title");
        let labelled_by = title_id.clone();
        view! {
            <figure class="chart">
                <svg viewBox=format!("0 0 {WIDTH} {height}") width="100%" role="img" aria-labelledby=labelled_by xmlns="http://www.w3.org/2000/svg">
                    <title id=title_id>{caption.to_owned()}</title>
                    {rows}
                </svg>
                <figcaption>{caption.to_owned()}</figcaption>
            </figure>
        }
    }

    fn share_text(share: Share) -> String {
        format!("{} of {} ({}%)", share.count, share.of, share.percent())
    }

    fn tenths(value: u32) -> String {
        format!("{}.{}", value / 10, value % 10)
    }

    /// The page. `scope` is the event's (slug, name), or `None` across every event, with
    /// `events` the number of events counted.
    pub fn document_for(scope: Option<(&str, &str)>, events: usize, s: &Statistics) -> String {
        let (title, heading, lead) = match scope {
            Some((_, name)) => (
                "Statistics".to_owned(),
                "Statistics".to_owned(),
                format!(
                    "{name}: {} games with a final report, {} seats.",
                    s.games, s.seats
                ),
            ),
            None => (
                "Statistics across events".to_owned(),
                "Statistics across events".to_owned(),
                format!(
                    "{events} event{}: {} games with a final report, {} seats.",
                    if events == 1 { "" } else { "s" },
                    s.games,
                    s.seats
                ),
            ),
        };
        let back = match scope {
            Some((slug, _)) => view! { <p><a href=format!("/events/{slug}")>"← Back to the event"</a>" · "<a href="/statistics">"All events"</a></p> }.into_any(),
            None => view! { <p><a href="/events">"← Events"</a></p> }.into_any(),
        };
        let body = if s.games == 0 {
            view! { <p>"No game has a final report yet: the statistics fill in as reports become final."</p> }.into_any()
        } else {
            sections(s).into_any()
        };
        let main = view! {
            {back}
            <h1>{heading}</h1>
            <p class="lead">{lead}</p>
            {body}
        };
        document(&title, scope, Look::Screen, main)
    }

    fn sections(s: &Statistics) -> impl IntoView + use<> {
        let most_played = s.factions.iter().map(|f| f.played).max().unwrap_or(0);
        let faction_bars = s
            .factions
            .iter()
            .map(|f| Bar {
                label: f.faction.name().to_owned(),
                value: f.wins().count,
                text: format!("{} of {}", f.wins().count, f.played),
            })
            .collect();
        let faction_rows = s
            .factions
            .iter()
            .map(|f| {
                view! {
                    <tr>
                        <th scope="row">{f.faction.name()}</th>
                        <td class="num">{f.played}</td>
                        <td class="num">{f.solo_wins}</td>
                        <td class="num">{f.allied_wins}</td>
                        <td class="num">{format!("{}%", f.wins().percent())}</td>
                    </tr>
                }
            })
            .collect_view();
        let most_wins = s.win_types.iter().map(|w| w.1).max().unwrap_or(0);
        let win_bars = s
            .win_types
            .iter()
            .map(|(w, n)| Bar {
                label: w.code().to_owned(),
                value: *n,
                text: n.to_string(),
            })
            .chain((s.no_winner > 0).then(|| Bar {
                label: "No winner".to_owned(),
                value: s.no_winner,
                text: format!(
                    "{} game{}",
                    s.no_winner,
                    if s.no_winner == 1 { "" } else { "s" }
                ),
            }))
            .collect();
        let win_rows = s
            .win_types
            .iter()
            .map(|(w, n)| {
                view! { <tr><th scope="row">{format!("{} ({})", w.name(), w.code())}</th><td class="num">{*n}</td></tr> }
            })
            .collect_view();
        let longest = s.length.iter().map(|l| l.1).max().unwrap_or(0);
        let length_bars = s
            .length
            .iter()
            .map(|(turn, n)| Bar {
                label: format!("Turn {turn}"),
                value: *n,
                text: n.to_string(),
            })
            .collect();
        let length_rows = s
            .length
            .iter()
            .map(|(turn, n)| view! { <tr><th scope="row">{format!("Turn {turn}")}</th><td class="num">{*n}</td></tr> })
            .collect_view();
        let seat_bars = s
            .by_seat
            .iter()
            .map(|l| Bar {
                label: format!("Seat {}", l.seat),
                value: Share {
                    count: l.wins,
                    of: l.played,
                }
                .percent() as usize,
                text: format!(
                    "{}% ({} of {})",
                    Share {
                        count: l.wins,
                        of: l.played
                    }
                    .percent(),
                    l.wins,
                    l.played
                ),
            })
            .collect();
        let seat_rows = s
            .by_seat
            .iter()
            .map(|l| {
                view! {
                    <tr>
                        <th scope="row">{format!("Seat {}", l.seat)}</th>
                        <td class="num">{l.played}</td>
                        <td class="num">{l.wins}</td>
                        <td class="num">{format!("{}%", Share { count: l.wins, of: l.played }.percent())}</td>
                    </tr>
                }
            })
            .collect_view();
        let best_rows = s
            .best
            .iter()
            .map(|b| {
                let held = if b.strongholds_by_turn.is_empty() {
                    "not recorded".to_owned()
                } else {
                    b.strongholds_by_turn
                        .iter()
                        .map(|(turn, n)| format!("turn {turn}: {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                view! {
                    <tr>
                        <th scope="row">{b.faction.name()}</th>
                        <td data-label="Player">{b.player.clone()}</td>
                        <td data-label="Game">{b.game.clone()}</td>
                        <td data-label="Result">{b.result.map_or_else(|| "no win".to_owned(), |w| w.name().to_owned())}</td>
                        <td class="score" data-label="Score">{b.score.clone()}</td>
                        <td data-label="Strongholds held">{held}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section aria-labelledby="summary">
                <h2 id="summary">"Games"</h2>
                <dl class="stats">
                    <div><dt>"Ended by a win"</dt><dd>{s.ended_by_win}</dd></div>
                    <div><dt>"Ended by the clock"</dt><dd>{s.ended_by_time}</dd></div>
                    <div><dt>"Played to turn 10"</dt><dd>{s.ended_by_turns}</dd></div>
                    <div><dt>"Adjudicated (4.01.09)"</dt><dd>{share_text(s.adjudicated)}</dd></div>
                    <div><dt>"Average length"</dt><dd>{format!("{} turns", tenths(s.average_length_tenths))}</dd></div>
                </dl>
            </section>
            <section aria-labelledby="factions">
                <h2 id="factions">"Factions played and won"</h2>
                <div class="chart-pair">
                    {chart("factions-chart", "Wins by faction, of the games it was played (solo and in alliance together)", faction_bars, most_played)}
                    <table tabindex="0" class="compact">
                        <caption>"Factions: games, wins solo and in alliance, win rate"</caption>
                        <thead><tr><th scope="col">"Faction"</th><th scope="col" class="num">"Played"</th><th scope="col" class="num">"Solo wins"</th><th scope="col" class="num">"Allied wins"</th><th scope="col" class="num">"Win rate"</th></tr></thead>
                        <tbody>{faction_rows}</tbody>
                    </table>
                </div>
            </section>
            <section aria-labelledby="win-types">
                <h2 id="win-types">"Win types"</h2>
                <div class="chart-pair">
                    {chart("win-chart", "Games by win type, by code (an alliance's win counts once)", win_bars, most_wins.max(s.no_winner))}
                    <table tabindex="0" class="compact">
                        <caption>"Games won by each type"</caption>
                        <thead><tr><th scope="col">"Win type"</th><th scope="col" class="num">"Games"</th></tr></thead>
                        <tbody>{win_rows}<tr><th scope="row">"No winner"</th><td class="num">{s.no_winner}</td></tr></tbody>
                    </table>
                </div>
            </section>
            <section aria-labelledby="length">
                <h2 id="length">"Game length"</h2>
                <p>{format!("On average a game lasts {} turns.", tenths(s.average_length_tenths))}</p>
                <div class="chart-pair">
                    {chart("length-chart", "Games by the last turn played", length_bars, longest)}
                    <table tabindex="0" class="compact">
                        <caption>"Games by last turn"</caption>
                        <thead><tr><th scope="col">"Last turn"</th><th scope="col" class="num">"Games"</th></tr></thead>
                        <tbody>{length_rows}</tbody>
                    </table>
                </div>
            </section>
            <section aria-labelledby="seats">
                <h2 id="seats">"Seats and the first player"</h2>
                <p>"Seat 1 sits at the player circle next to Tuek's Sietch, each next seat to its right (0.07). Who is first player follows the storm (0.16, 1.01.01), which game reports do not record, so the seat is the measure here."</p>
                <div class="chart-pair">
                    {chart("seat-chart", "Win rate by seat, in percent", seat_bars, 100)}
                    <table tabindex="0" class="compact">
                        <caption>"Seats: games, wins, win rate"</caption>
                        <thead><tr><th scope="col">"Seat"</th><th scope="col" class="num">"Games"</th><th scope="col" class="num">"Wins"</th><th scope="col" class="num">"Win rate"</th></tr></thead>
                        <tbody>{seat_rows}</tbody>
                    </table>
                </div>
            </section>
            <section aria-labelledby="best">
                <h2 id="best">"Best faction showing"</h2>
                <p>"As the WBC awards it: each faction's best game by its score (points, then the tiebreakers of 4.01.11), with the strongholds its player held at each Battle phase where a win attempt recorded them."</p>
                <table tabindex="0" class="compact stack">
                    <caption>"Each faction's best game"</caption>
                    <thead><tr><th scope="col">"Faction"</th><th scope="col">"Player"</th><th scope="col">"Game"</th><th scope="col">"Result"</th><th scope="col">"Score"</th><th scope="col">"Strongholds held"</th></tr></thead>
                    <tbody>{best_rows}</tbody>
                </table>
                <p class="legend">{format!("Score: {}.", tournament::standings::SCORE_LEGEND)}</p>
            </section>
        }
    }
}
