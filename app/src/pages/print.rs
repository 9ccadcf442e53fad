//! Pages for paper: a round's table slips, game-report forms and wall pairings, the standings
//! with the finals line, and the players' QR codes (find my seat, the standings). Rendered on
//! the server (`server/src/http/print.rs`) with the print stylesheet (`public/print.css`): one
//! table per sheet where it applies, each sheet fitting both A4 and Letter (the smaller of the
//! two: 186 × 255 mm inside 12 mm margins). A bar of screen-only controls offers the paper size
//! and the browser's Print; it is not printed.

/// Whether a round's slips, printed by the head judge, carry claim codes: yes unless the
/// address says `claims=no`.
pub fn wants_claim_codes(query: Option<&str>) -> bool {
    !query
        .unwrap_or_default()
        .split('&')
        .any(|p| p == "claims=no")
}

/// What a round's print page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundSheet {
    Slips,
    Reports,
    Pairings,
}

impl RoundSheet {
    pub fn parse(text: &str) -> Option<RoundSheet> {
        match text {
            "slips" => Some(RoundSheet::Slips),
            "reports" => Some(RoundSheet::Reports),
            "pairings" => Some(RoundSheet::Pairings),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RoundSheet::Slips => "slips",
            RoundSheet::Reports => "reports",
            RoundSheet::Pairings => "pairings",
        }
    }
}

/// The paper the sheets are laid out on; `Any` leaves it to the printer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    #[default]
    Any,
    A4,
    Letter,
}

impl Paper {
    pub fn parse(query: Option<&str>) -> Paper {
        match query
            .unwrap_or_default()
            .split('&')
            .find_map(|p| p.strip_prefix("paper="))
        {
            Some("a4") => Paper::A4,
            Some("letter") => Paper::Letter,
            _ => Paper::Any,
        }
    }

    // Read by the server's renderer only (the print pages are never hydrated).
    #[cfg_attr(not(feature = "ssr"), allow(dead_code))]
    fn class(self) -> &'static str {
        match self {
            Paper::Any => "paper-any",
            Paper::A4 => "paper-a4",
            Paper::Letter => "paper-letter",
        }
    }
}

/// The order of the wall's list by name: each name as the player wrote it, sorted by its sort
/// key (the organiser's, else the name) folded as the search folds it (accents, capitals and
/// punctuation ignored; other scripts transliterated), then by the name itself so the order is
/// the same on every print. Names are never turned round: "Zoë Zhang (张)", "Nguyễn Thị Hoa"
/// and "A. B. Carter Jr." are printed as written.
#[cfg(feature = "ssr")]
pub fn wall_order<T>(entries: &mut [T], key: impl Fn(&T) -> (String, Option<String>)) {
    use db::players::search::fold;
    entries.sort_by_cached_key(|e| {
        let (name, sort_as) = key(e);
        (fold(sort_as.as_deref().unwrap_or(&name)), name)
    });
}

#[cfg(feature = "ssr")]
pub use render::*;

#[cfg(feature = "ssr")]
mod render {
    use db::results::standings::EventStandings;
    use std::collections::BTreeMap;

    use db::rounds::{RoundDetail, TableInfo};
    use dune::Faction;
    use leptos::prelude::*;
    use tournament::ids::PlayerId;
    use tournament::report::MAX_TURNS;

    use super::{Paper, RoundSheet, wall_order};
    use crate::pages::plain::{Look, document};

    /// The screen-only bar: paper size, print, back.
    fn controls(here: &str, back: &str, paper: Paper) -> impl IntoView + use<> {
        let choice = |value: &'static str, label: &'static str, on: bool| {
            let href = format!("{here}?paper={value}");
            view! { <a href=href aria-current=on.then_some("true")>{label}</a> }
        };
        view! {
            <nav class="screen-only print-bar" aria-label="Printing">
                <a href=back.to_owned()>"← Back"</a>
                <span>"Paper: "
                    {choice("any", "printer's", paper == Paper::Any)}" · "
                    {choice("a4", "A4", paper == Paper::A4)}" · "
                    {choice("letter", "Letter", paper == Paper::Letter)}
                </span>
                <span>"Print with the browser's Print command (Ctrl+P)."</span>
            </nav>
        }
    }

    fn faction_name(faction: Option<Faction>) -> String {
        faction.map_or_else(|| "not dealt yet".to_owned(), |f| f.name().to_owned())
    }

    fn hours(ms: i64) -> String {
        let minutes = ms / 60_000;
        match (minutes / 60, minutes % 60) {
            (h, 0) => format!("{h} h"),
            (h, m) => format!("{h} h {m:02} min"),
        }
    }

    /// A claim code on a table slip: the code and the QR code of the link that fills it in.
    pub struct SlipClaim {
        pub code: String,
        pub svg: String,
    }

    /// Claim codes on the slips the head judge prints, for the players whose registration is
    /// tied to no account yet.
    pub enum SlipClaims {
        /// Not the head judge's print: no codes, no word of them.
        NotOffered,
        /// The head judge asked for slips without codes.
        Left,
        /// The codes made for this print, by player, and where a player types hers.
        Made {
            codes: BTreeMap<PlayerId, SlipClaim>,
            claim_page: String,
            days: i64,
        },
    }

    /// Everything a round's print page needs.
    pub struct RoundPrint<'a> {
        pub slug: &'a str,
        pub event_name: &'a str,
        pub round: &'a RoundDetail,
        pub sheet: RoundSheet,
        pub paper: Paper,
        pub claims: SlipClaims,
        /// The players' sort keys, where an organiser set one (`players.sort_as`).
        pub sort_keys: &'a BTreeMap<PlayerId, String>,
    }

    pub fn round_document(p: &RoundPrint) -> String {
        let number = p.round.round.number;
        let here = format!(
            "/events/{}/rounds/{number}/print/{}",
            p.slug,
            p.sheet.as_str()
        );
        let back = format!("/events/{}/rounds/{number}", p.slug);
        let title = match p.sheet {
            RoundSheet::Slips => format!("Round {number} table slips"),
            RoundSheet::Reports => format!("Round {number} game-report forms"),
            RoundSheet::Pairings => format!("Round {number} pairings"),
        };
        let sheets = match p.sheet {
            RoundSheet::Slips => p
                .round
                .tables
                .iter()
                .map(|t| slip(p.event_name, number.get(), t, &p.claims).into_any())
                .collect_view()
                .into_any(),
            RoundSheet::Reports => p
                .round
                .tables
                .iter()
                .map(|t| report_form(p.event_name, number.get(), t).into_any())
                .collect_view()
                .into_any(),
            RoundSheet::Pairings => pairings(p.event_name, p.round, p.sort_keys).into_any(),
        };
        let empty = p
            .round
            .tables
            .is_empty()
            .then(|| view! { <p>"This round has no tables."</p> });
        let claims_note = match (&p.sheet, &p.claims) {
            (RoundSheet::Slips, SlipClaims::Made { codes, days, .. }) => Some(view! {
                <p class="screen-only print-note">
                    {if codes.is_empty() {
                        "Every player of this round has claimed her registration: no claim codes needed. ".to_owned()
                    } else {
                        format!(
                            "Each player who has not claimed her registration yet has a new claim code on a strip below her table's slip: cut it off and hand it to her. The codes were made as this page opened, work once, for {days} days; codes printed before stay good. "
                        )
                    }}
                    <a href=format!("{here}?claims=no")>"Slips without claim codes"</a>
                </p>
            }.into_any()),
            (RoundSheet::Slips, SlipClaims::Left) => Some(view! {
                <p class="screen-only print-note">
                    "These slips carry no claim codes. "
                    <a href=here.clone()>"Slips with claim codes for the players who have not claimed their registration"</a>
                </p>
            }.into_any()),
            _ => None,
        };
        let main = view! {
            {controls(&here, &back, p.paper)}
            {claims_note}
            <div class=format!("sheets {}", p.paper.class())>{sheets}{empty}</div>
        };
        document(&title, Some((p.slug, p.event_name)), Look::Print, main)
    }

    /// A table slip: where everyone sits and what they play, and the clock's limit; below it,
    /// on the head judge's print, a strip to cut off per player with her claim code.
    fn slip(event: &str, round: i32, t: &TableInfo, claims: &SlipClaims) -> impl IntoView + use<> {
        let limit = t.clock.limit_ms();
        let extension = t.clock.extension_ms;
        let rows = t
            .seats
            .iter()
            .map(|s| {
                view! {
                    <tr>
                        <td class="num">{s.seat}</td>
                        <td class="num">{s.circle}</td>
                        <th scope="row">{s.player.clone()}</th>
                        <td>{faction_name(s.faction)}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section class="sheet slip" aria-labelledby=format!("slip-{}", t.number)>
                <p class="sheet-event">{format!("{event} · Round {round}")}</p>
                <h1 id=format!("slip-{}", t.number)>{format!("Table {}", t.number)}</h1>
                <table class="print-table">
                    <thead><tr>
                        <th scope="col" class="num">"Seat"</th>
                        <th scope="col" class="num"><abbr title="Place at the board, 0 to 5 counterclockwise from the storm start">"Place"</abbr></th>
                        <th scope="col">"Player"</th>
                        <th scope="col">"Faction"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
                <p class="clock-limit">{format!(
                    "Clock limit: {}{} (one hour per seated player, 4.01.08), then finish the turn being played within 30 minutes.",
                    hours(limit),
                    if extension > 0 { format!(", with {} added by the head judge", hours(extension)) } else { String::new() }
                )}</p>
                <p class="small">"Seat 1 sits next to Tuek's Sietch; each next seat to its right (0.07)."</p>
                {claim_strips(t, claims)}
            </section>
        }
    }

    /// One strip per seated player holding a claim code: her name, the code, its QR code (the
    /// link that fills it in) and where to type it.
    fn claim_strips(t: &TableInfo, claims: &SlipClaims) -> Option<AnyView> {
        let SlipClaims::Made {
            codes, claim_page, ..
        } = claims
        else {
            return None;
        };
        let strips = t
            .seats
            .iter()
            .filter_map(|s| codes.get(&s.player_id).map(|c| (s, c)))
            .map(|(s, c)| {
                let label = format!("QR code: the claim link for {}", s.player);
                view! {
                    <li class="claim-strip">
                        <div class="qr-small" role="img" aria-label=label inner_html=c.svg.clone()></div>
                        <div>
                            <p class="claim-who">{s.player.clone()}</p>
                            <p class="claim-line">"Claim code "<strong class="claim-code" data-testid="slip-claim-code">{c.code.clone()}</strong></p>
                            <p class="small">{format!("Scan, or type the code at {claim_page}: your phone then opens on your table.")}</p>
                        </div>
                    </li>
                }
            })
            .collect::<Vec<_>>();
        (!strips.is_empty()).then(|| {
            view! {
                <h2 class="claim-head">"Claim codes: cut along the lines, one strip per player"</h2>
                <ul class="claim-strips">{strips}</ul>
            }
            .into_any()
        })
    }

    /// A blank Game Report for one table: seats and factions filled in, boxes for the win
    /// attempts per turn (4.01.04) and the end values (4.01.11).
    fn report_form(event: &str, round: i32, t: &TableInfo) -> impl IntoView + use<> {
        let turns = 1..=MAX_TURNS;
        let attempt_rows = t
            .seats
            .iter()
            .map(|s| {
                let boxes = turns
                    .clone()
                    .map(|_| view! { <td class="box"></td> })
                    .collect_view();
                view! {
                    <tr>
                        <th scope="row">{format!("{} · {}", s.seat, s.player)}</th>
                        {boxes}
                    </tr>
                }
            })
            .collect_view();
        let turn_heads = turns
            .clone()
            .map(|n| view! { <th scope="col" class="num">{n}</th> })
            .collect_view();
        let end_rows = t
            .seats
            .iter()
            .map(|s| {
                view! {
                    <tr>
                        <td class="num">{s.seat}</td>
                        <th scope="row">{s.player.clone()}</th>
                        <td>{faction_name(s.faction)}</td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                        <td class="box"></td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section class="sheet report-form" aria-labelledby=format!("form-{}", t.number)>
                <p class="sheet-event">{format!("{event} · Round {round}")}</p>
                <h1 id=format!("form-{}", t.number)>{format!("Game Report · Table {}", t.number)}</h1>
                <p class="ending">"Game ended by: ☐ a win   ☐ the clock (adjudicate, 4.01.09)   ☐ the end of turn 10      Last turn played: ____"</p>
                <h2>"Win attempts (4.01.04)"</h2>
                <p class="small">"At each Battle phase, tick the players who made a win attempt; note the strongholds held (ARK CAR TUK TAB HAB SW)."</p>
                <table class="print-table attempts">
                    <colgroup><col class="who"/></colgroup>
                    <thead><tr><th scope="col">"Seat · player"</th>{turn_heads}</tr></thead>
                    <tbody>{attempt_rows}</tbody>
                </table>
                <h2>"End of the game (4.01.07, 4.01.11)"</h2>
                <table class="print-table end-values">
                    <colgroup>
                        <col class="seat"/><col class="player"/><col class="faction"/>
                        <col class="value"/><col class="value"/><col class="value"/><col class="value"/>
                        <col class="value"/><col class="value"/><col class="value"/><col class="initials"/>
                    </colgroup>
                    <thead><tr>
                        <th scope="col" class="num">"Seat"</th>
                        <th scope="col">"Player"</th>
                        <th scope="col">"Faction"</th>
                        <th scope="col">"Ally"</th>
                        <th scope="col">"Result"</th>
                        <th scope="col">"Strong­holds"</th>
                        <th scope="col">"Forces"</th>
                        <th scope="col">"Spice"</th>
                        <th scope="col">"Cards"</th>
                        <th scope="col">"Leaders"</th>
                        <th scope="col">"Agrees (initials)"</th>
                    </tr></thead>
                    <tbody>{end_rows}</tbody>
                </table>
                <p class="small">"Result: SSH solo stronghold · ASH allied stronghold · BGP Bene Gesserit prediction · SFS / AFS Fremen special · EG end game · SDV / ADV default; leave empty for no win. Values count at the end of the game: strongholds controlled, forces on the board, spice behind the shield, treachery cards in hand, active leaders."</p>
                <p class="signature">"Judge: ____________________   Time: ________"</p>
            </section>
        }
    }

    /// Pairings for the wall: by name (as written, in the wall's order), then by table.
    fn pairings(
        event: &str,
        round: &RoundDetail,
        sort_keys: &BTreeMap<PlayerId, String>,
    ) -> impl IntoView + use<> {
        let number = round.round.number;
        let mut by_name: Vec<(PlayerId, String, String)> = round
            .tables
            .iter()
            .flat_map(|t| {
                t.seats.iter().map(move |s| {
                    (
                        s.player_id,
                        s.player.clone(),
                        format!(
                            "Table {} · seat {} · {}",
                            t.number,
                            s.seat,
                            faction_name(s.faction)
                        ),
                    )
                })
            })
            .chain(
                round
                    .byes
                    .iter()
                    .map(|(id, name)| (*id, name.clone(), "Bye (no game this round)".to_owned())),
            )
            .collect();
        wall_order(&mut by_name, |(id, name, _)| {
            (name.clone(), sort_keys.get(id).cloned())
        });
        let name_rows = by_name
            .into_iter()
            .map(|(_, name, place)| {
                view! { <tr><th scope="row">{name}</th><td>{place}</td></tr> }
            })
            .collect_view();
        let tables = round
            .tables
            .iter()
            .map(|t| {
                let seats = t
                    .seats
                    .iter()
                    .map(|s| {
                        view! { <li>{format!("{}. {} · {}", s.seat, s.player, faction_name(s.faction))}</li> }
                    })
                    .collect_view();
                view! {
                    <div class="table-block">
                        <h2>{format!("Table {}", t.number)}</h2>
                        <ol class="plain">{seats}</ol>
                    </div>
                }
            })
            .collect_view();
        view! {
            <section class="sheet pairings" aria-labelledby="by-name">
                <p class="sheet-event">{format!("{event} · Round {number}")}</p>
                <h1 id="by-name">{format!("Round {number}: find your table")}</h1>
                <table class="print-table wall">
                    <caption>"By name, A to Z (accents and capitals ignored)"</caption>
                    <thead><tr><th scope="col">"Player"</th><th scope="col">"Table · seat · faction"</th></tr></thead>
                    <tbody>{name_rows}</tbody>
                </table>
            </section>
            <section class="sheet pairings" aria-labelledby="by-table">
                <p class="sheet-event">{format!("{event} · Round {number}")}</p>
                <h1 id="by-table">{format!("Round {number}: tables")}</h1>
                <div class="table-blocks">{tables}</div>
            </section>
        }
    }

    /// The players' QR codes on paper, one per half page: the event's name, what the code
    /// opens, the code large, and the address in plain letters for those who type it.
    pub fn qr_document(
        slug: &str,
        event_name: &str,
        codes: &crate::qr::HallCodes,
        paper: Paper,
    ) -> String {
        let here = crate::qr::print_path(slug);
        let back = format!("/events/{slug}/run");
        let sheet = |link: &crate::qr::QrLink, id: &'static str, what: &'static str| {
            let label = format!("QR code: {}, {}", link.title, link.url);
            view! {
                <section class="qr-sheet" aria-labelledby=id>
                    <p class="sheet-event">{event_name.to_owned()}</p>
                    <h1 id=id>{link.title.clone()}</h1>
                    <div class="qr-big" role="img" aria-label=label inner_html=link.svg.clone()></div>
                    <p class="qr-address">{link.url.clone()}</p>
                    <p class="qr-how">{format!("Scan with your phone's camera, or type the address, to {what}.")}</p>
                </section>
            }
        };
        let warning = codes.warning.clone().map(|text| {
            view! { <p class="screen-only qr-print-warning" role="alert">{text}</p> }
        });
        let main = view! {
            {controls(&here, &back, paper)}
            {warning}
            <div class=format!("sheets {}", paper.class())>
                <div class="qr-page">
                    {sheet(&codes.find, "qr-find", "find your table and seat")}
                    {sheet(&codes.standings, "qr-standings", "follow the live standings")}
                </div>
            </div>
        };
        document("QR codes", Some((slug, event_name)), Look::Print, main)
    }

    /// The standings on paper, with the finals line. Once the final table is reported, the
    /// event's placings come first, as the screen shows them (the winner at the top of the
    /// sheet on the wall), and the qualifying standings follow for reference.
    pub fn standings_document(
        slug: &str,
        event_name: &str,
        standings: &EventStandings,
        paper: Paper,
    ) -> String {
        use tournament::standings::SCORE_LEGEND;
        let here = format!("/events/{slug}/print/standings");
        let back = format!("/events/{slug}/standings");
        let counted = standings.rows.iter().any(|r| !r.games.is_empty());
        let last_in = standings
            .rows
            .iter()
            .rposition(|r| r.finalist != Some(false));
        let rows = standings
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let wins = r
                    .wins
                    .iter()
                    .map(|(code, n)| format!("{code}\u{a0}{n}"))
                    .collect::<Vec<_>>()
                    .join(" · ");
                let mark = match (r.dropped, r.alternate, r.finalist) {
                    (true, _, _) => " (dropped)",
                    (_, true, _) => " (alternate)",
                    (_, _, None) => " (tied across the cut)",
                    _ => "",
                };
                let cut = (counted
                    && standings.finals_seats > 0
                    && last_in == Some(i)
                    && i + 1 < standings.rows.len())
                .then(|| {
                    view! {
                        <tr class="cut"><th colspan="5" scope="rowgroup">{format!("Finals line: top {}", standings.finals_seats)}</th></tr>
                    }
                });
                view! {
                    <tr>
                        <td class="num">{r.rank}</td>
                        <th scope="row">{format!("{}{mark}", r.player)}</th>
                        <td class="num">{r.points.clone()}</td>
                        <td>{wins}</td>
                        <td class="score">{r.best.map(|b| b.short()).unwrap_or_default()}</td>
                    </tr>
                    {cut}
                }
            })
            .collect_view();
        let placings = standings
            .final_table
            .as_ref()
            .filter(|t| t.reported && !t.placings.is_empty())
            .map(|t| {
                let view_of: crate::final_table::FinalTableView = t.into();
                let rows = view_of
                    .placings
                    .iter()
                    .map(|p| {
                        view! {
                            <tr class:winner=p.result.is_some() class:finalist=p.at_final>
                                <td class="num">{crate::final_table::ordinal(p.place)}</td>
                                <th scope="row">{p.player.clone()}</th>
                                <td>{p.basis()}</td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <h2 id="placings-title">"Final placings"</h2>
                    <p class="small">"The final game decides the places at the final table; qualifying decides the rest (ruling 13)."</p>
                    <table class="print-table placings-print" aria-labelledby="placings-title">
                        <thead><tr>
                            <th scope="col" class="num">"Place"</th>
                            <th scope="col">"Player"</th>
                            <th scope="col">"Placed by"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
            });
        let reported = placings.is_some();
        let progress = if standings.rounds == 0 {
            "No round has been played yet.".to_owned()
        } else if reported {
            format!(
                "Final: the final table is reported. Qualifying standings after round {}.",
                standings.rounds
            )
        } else {
            format!(
                "After round {}: {} of {} reports final.",
                standings.rounds, standings.tables_final, standings.tables
            )
        };
        let (title, qualifying_title) = if reported {
            ("Final standings", Some("Qualifying standings"))
        } else {
            ("Standings", None)
        };
        let main = view! {
            {controls(&here, &back, paper)}
            <div class=format!("sheets {}", paper.class())>
                <section class="standings-sheet" aria-labelledby="standings-title">
                    <p class="sheet-event">{event_name.to_owned()}</p>
                    <h1 id="standings-title">{title}</h1>
                    <p>{progress}</p>
                    {placings}
                    {qualifying_title.map(|t| view! { <h2 id="qualifying-title">{t}</h2> })}
                    <table class="print-table standings-print">
                        <caption class="sr-only">{qualifying_title.unwrap_or("Standings")}</caption>
                        <thead><tr>
                            <th scope="col" class="num">"#"</th>
                            <th scope="col">"Player"</th>
                            <th scope="col" class="num">"Points"</th>
                            <th scope="col">"Wins"</th>
                            <th scope="col">"Best game"</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                    <p class="small">"Points, then wins by type, then each game's score, best first: its points, then win attempts, strongholds, forces, spice, cards, leaders (4.01.10-11). Best game: "{SCORE_LEGEND}"."</p>
                </section>
            </div>
        };
        document(
            "Printed standings",
            Some((slug, event_name)),
            Look::Print,
            main,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_carry_claim_codes_unless_asked_not_to() {
        assert!(wants_claim_codes(None));
        assert!(wants_claim_codes(Some("paper=a4")));
        assert!(!wants_claim_codes(Some("paper=a4&claims=no")));
        assert!(!wants_claim_codes(Some("claims=no")));
    }

    #[cfg(feature = "ssr")]
    #[test]
    fn the_wall_prints_names_as_written_in_a_folded_order() {
        let mut names = vec![
            ("Zoë Zhang (张)", None),
            ("Piter De Vries", None),
            ("A. B. Carter Jr.", None),
            ("Nguyễn Thị Hoa", None),
            ("émile Ørsted", None),
            ("Anna van Dijk", Some("Dijk, Anna van")),
            ("Ölund, Hanna", None),
        ];
        wall_order(&mut names, |(name, key)| {
            ((*name).to_owned(), key.map(str::to_owned))
        });
        let order: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            order,
            [
                "A. B. Carter Jr.",
                "Anna van Dijk",
                "émile Ørsted",
                "Nguyễn Thị Hoa",
                "Ölund, Hanna",
                "Piter De Vries",
                "Zoë Zhang (张)",
            ]
        );
    }

    #[test]
    fn paper_comes_from_the_query() {
        assert_eq!(Paper::parse(Some("paper=a4")), Paper::A4);
        assert_eq!(Paper::parse(Some("x=1&paper=letter")), Paper::Letter);
        assert_eq!(Paper::parse(Some("paper=tabloid")), Paper::Any);
        assert_eq!(Paper::parse(None), Paper::Any);
    }
}
