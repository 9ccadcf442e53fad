//! The board after a turn, drawn as SVG from the engine's summary: sectors and the storm,
//! territories with each faction's tokens (colour, code and count; starred tokens, advisors and
//! the Free Traders' Smugglers told apart; Richese's No-Field tokens face down, their number only
//! when audited), Ecaz's ambassadors and Moritani's terror tokens where they lie (face down unless
//! the page audits the log), spice on the map, stronghold control; then the same as tables (for screen readers,
//! print and exact counts) and what each faction holds. Hidden information (the cards themselves)
//! appears only when the page audits the log.
//!
//! The turn slider is a GET form (`?turn=N`, N the game's turn as the page shows it, 0 the
//! setup), so it works without JavaScript; with it, moving the slider shows at once the board of
//! that turn, already on the page (see [`TurnBoard`]). A turn the log does not have is answered
//! with the nearest one and a sentence saying so ([`pick_turn`]).

use dune::Faction;
use leptos::prelude::*;

use crate::replay::map::{Area, AreaKind};
use crate::replay::{BoardTurn, Tokens, faction_colours, map::BoardMap, map::annulus_path};

/// The slider and the board of the chosen turn; below the slider, the phases of that turn
/// (when the engine kept them) to step through it, as links.
///
/// Rendered on the server only. The board at the end of every turn is on the page too, each in
/// an inert `<template data-turn>`: with the browser half, moving the slider puts that turn's
/// board in place at once (`crate::hydration`), with no board drawing code in the wasm.
/// Consecutive boards differ little, so they cost little on the wire once compressed.
#[component]
pub fn TurnBoard(
    map: BoardMap,
    turns: Vec<BoardTurn>,
    /// The board at the end of every phase, all turns; may be empty.
    phases: Vec<BoardTurn>,
    /// The board shown first, an index into `turns` ([`pick_turn`]).
    initial: usize,
    /// A phase of the initial turn to show instead of its end (an index into its phases).
    initial_phase: Option<usize>,
    /// Why the board shown is not the turn the address asked for.
    note: Option<String>,
) -> impl IntoView {
    use leptos::tachys::view::RenderHtml;
    let last = turns.len().saturating_sub(1);
    if turns.is_empty() {
        return view! { <p>"The log has no turn to draw yet."</p> }.into_any();
    }
    let chosen = initial.min(last);
    // The phases of turn `i`, in order.
    let of_turn = |i: usize| -> Vec<BoardTurn> {
        let number = turns.get(i).map(|b| b.turn);
        phases
            .iter()
            .filter(|b| Some(b.turn) == number)
            .cloned()
            .collect()
    };
    let phase_nav = |i: usize, current: Option<usize>| {
        let list = of_turn(i);
        (list.len() > 1).then(|| {
            let items = list
                .iter()
                .enumerate()
                .map(|(k, b)| {
                    view! {
                        <li><a href=format!("?turn={}&phase={k}#board", turns[i].turn)
                            aria-current=(current == Some(k)).then_some("step")>{b.phase.clone()}</a></li>
                    }
                })
                .collect_view();
            view! { <nav aria-label="Phases of this turn" class="phases"><ul>{items}</ul></nav> }
                .into_any()
        })
    };
    let shown = initial_phase
        .and_then(|k| of_turn(chosen).get(k).cloned())
        .or_else(|| turns.get(chosen).cloned());
    let label = shown.as_ref().map(turn_label).unwrap_or_default();
    let board = |turn: BoardTurn| {
        view! { <BoardSvg map=map.clone() turn=turn.clone()/> <BoardTables turn=turn/> }.into_any()
    };
    let templates = turns
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let html = view! { {phase_nav(i, None)} {board(t.clone())} }.to_html();
            view! { <template data-turn=t.turn data-label=turn_label(t) inner_html=html></template> }
                .into_any()
        })
        .collect_view();
    // The slider counts the game's turns, as the page names them (0 is the setup).
    let (first_turn, last_turn, chosen_turn) =
        (turns[0].turn, turns[last].turn, turns[chosen].turn);
    let note = note
        .map(|text| view! { <p class="notice" role="status" data-testid="turn-note">{text}</p> });
    view! {
        {note}
        <form method="get" action="#board" class="turn-slider">
            <label for="turn">"Turn"</label>
            <input id="turn" name="turn" type="range" min=first_turn.to_string() max=last_turn.to_string() step="1"
                value=chosen_turn.to_string() aria-valuetext=label.clone() data-turn-slider=""/>
            <output for="turn" data-testid="turn-shown">{label}</output>
            <noscript><button type="submit">"Show"</button></noscript>
        </form>
        <div data-board-shown="">
            {phase_nav(chosen, initial_phase)}
            {shown.map(board)}
        </div>
        {templates.into_any()}
    }
    .into_any()
}

/// The board `?turn=` asks for, as an index into the log's turns (their game turn numbers, in
/// order, 0 the setup), and a sentence when the address names no turn of the log: nothing asked
/// shows the last turn; a number past either end, the nearest end; a turn the log skipped, the
/// one before it; anything else, the last turn.
pub fn pick_turn(turns: &[u32], asked: Option<&str>) -> (usize, Option<String>) {
    let last = turns.len().saturating_sub(1);
    let (Some(&first_turn), Some(&last_turn)) = (turns.first(), turns.last()) else {
        return (0, None);
    };
    let name = |n: u32| {
        if n == 0 {
            "the setup".to_owned()
        } else {
            format!("turn {n}")
        }
    };
    let Some(asked) = asked.map(str::trim) else {
        return (last, None);
    };
    let Ok(n) = asked.parse::<u32>() else {
        return (
            last,
            Some(format!(
                "\"{asked}\" is not a turn number (0 for the setup, then 1, 2, …); showing {}, the last in the log.",
                name(last_turn)
            )),
        );
    };
    if let Some(i) = turns.iter().position(|&t| t == n) {
        return (i, None);
    }
    if n > last_turn {
        return (
            last,
            Some(format!(
                "The log has no turn {n}: it ends at {}, shown here.",
                name(last_turn)
            )),
        );
    }
    if n < first_turn {
        return (
            0,
            Some(format!(
                "The log has no turn {n}: it starts at {}, shown here.",
                name(first_turn)
            )),
        );
    }
    let before = turns.iter().rposition(|&t| t < n).unwrap_or(0);
    (
        before,
        Some(format!(
            "The log has no turn {n}; showing {}, the one before it.",
            name(turns[before])
        )),
    )
}

fn turn_label(b: &BoardTurn) -> String {
    if b.turn == 0 {
        format!("Setup ({})", b.phase)
    } else {
        format!("Turn {} ({})", b.turn, b.phase)
    }
}

fn chip_text(f: Faction, t: Tokens) -> String {
    let suffix = crate::replay::json::flipped_side(f).2;
    let mut s = String::new();
    if t.fighting > 0 {
        s.push_str(&t.fighting.to_string());
        if t.starred > 0 {
            s.push_str(&format!("({}★)", t.starred));
        }
    }
    if t.advisors > 0 {
        if !s.is_empty() {
            s.push('+');
        }
        s.push_str(&format!("{}{suffix}", t.advisors));
    }
    s
}

/// The Hidden Mobile Stronghold as an area of the drawn map, where it stands this turn: a
/// hexagon in the sector of the territory its token points at (000 2.07.17).
fn hms_area(turn: &BoardTurn) -> Option<Area> {
    let h = turn.hms.as_ref()?;
    let (x, y) = crate::replay::map::hms_point(&h.code, h.sector)?;
    Some(Area {
        code: "HMS".into(),
        name: format!(
            "Hidden Mobile Stronghold (in {}, sector {})",
            h.name, h.sector
        ),
        kind: AreaKind::Stronghold,
        path: crate::replay::map::hexagon(x, y, 5.5),
        x,
        y,
    })
}

#[component]
fn BoardSvg(map: BoardMap, turn: BoardTurn) -> impl IntoView {
    // The printed territories, and the one whose place is the game's (the Hidden Mobile
    // Stronghold), drawn last, over the territory it stands in.
    let areas_all: Vec<Area> = map.areas.iter().cloned().chain(hms_area(&turn)).collect();
    let storm = turn.storm;
    let desc = match storm {
        Some(s) => format!("The storm is in sector {s}."),
        None => "The storm has not been placed yet.".to_owned(),
    };
    let areas = areas_all
        .iter()
        .map(|a| {
            let controller = turn
                .places
                .iter()
                .find(|p| p.code == a.code)
                .and_then(|p| p.controller);
            let (stroke, width) = controller.map_or(("#5d4a2e", "0.4"), |f| (faction_colours(f).0, "1.6"));
            let hms = if a.code == "HMS" { " hms" } else { "" };
            let area = view! {
                <path d=a.path.clone() class=format!("area {}{hms}", a.kind.class()) stroke=stroke stroke-width=width data-area=a.code.clone()>
                    <title>{format!("{} ({})", a.name, a.code)}</title>
                </path>
            };
            // On a phone the map's labels are too small to read: a tap on a territory with
            // tokens or spice opens its line of the list under the board. Keyboards and screen
            // readers have that list itself.
            let listed = turn
                .places
                .iter()
                .any(|p| p.code == a.code && (!p.tokens.is_empty() || p.spice > 0));
            if listed {
                view! {
                    <a href=format!("#where-{}", a.code) tabindex="-1" aria-label=format!("{}: its line in the list below", a.name)>{area}</a>
                }
                .into_any()
            } else {
                area.into_any()
            }
        })
        .collect_view();
    let sectors = map
        .sectors
        .iter()
        .map(|s| {
            view! {
                <path d=s.wedge.clone() class="sector"/>
                <text x=format!("{:.1}", s.x) y=format!("{:.1}", s.y) class="sector-number">{s.number}</text>
            }
        })
        .collect_view();
    let storm_view = storm.map(|s| {
        let u = f64::from(s.saturating_sub(1));
        let (x, y) = crate::replay::map::point(u + 0.5, crate::replay::map::EDGE + 10.5);
        view! {
            <path d=annulus_path(u, u + 1.0, 1.0, 5.25) class="storm"/>
            <text x=format!("{x:.1}") y=format!("{y:.1}") class="storm-label">"STORM"</text>
        }
    });
    let labels = areas_all
        .iter()
        .filter(|a| a.code != "PS")
        .map(|a| view! { <text x=format!("{:.1}", a.x) y=format!("{:.1}", a.y - 2.5) class="area-code">{a.code.clone()}</text> })
        .collect_view();
    let tokens = turn
        .places
        .iter()
        .filter_map(|p| {
            let area = areas_all.iter().find(|a| a.code == p.code)?;
            // Each chip as wide as its text, the row centred under the territory's code.
            let texts: Vec<String> = p.tokens.iter().map(|(f, t)| chip_text(*f, *t)).collect();
            let widths: Vec<f64> = texts
                .iter()
                .map(|t| (t.chars().count() as f64 * 3.4 + 3.6).max(9.0))
                .collect();
            let total: f64 = widths.iter().sum();
            let mut left = area.x - total / 2.0;
            let chips = p
                .tokens
                .iter()
                .zip(texts)
                .zip(widths)
                .map(|(((f, t), text), width)| {
                    let (fill, ink) = faction_colours(*f);
                    let x = left;
                    left += width;
                    // Under the Hidden Mobile Stronghold's hexagon, its tokens.
                    let y = area.y + match area.code.as_str() {
                        "PS" => -4.0,
                        "HMS" => 6.0,
                        _ => 0.5,
                    };
                    let only_advisors = t.fighting == 0;
                    let label = format!("{}: {} {}", area.name, f.code(), t.describe_as(*f, turn.kinds_of(*f)));
                    view! {
                        <g class="chip" role="listitem" aria-label=label data-territory=area.code.clone() data-faction=f.code()>
                            <rect x=format!("{:.1}", x + 0.4) y=format!("{y:.1}") width=format!("{:.1}", width - 0.8) height="8" rx="1.5"
                                fill=if only_advisors { "#fff" } else { fill } stroke=fill stroke-width="0.8"/>
                            <text x=format!("{:.1}", x + width / 2.0) y=format!("{:.1}", y + 6.0) class="chip-text"
                                fill=if only_advisors { fill } else { ink }>{text}</text>
                        </g>
                    }
                })
                .collect_view();
            // Richese's No-Field tokens: face down, dashed, their number only when audited.
            let (fill, _) = faction_colours(Faction::Richese);
            let no_fields = p
                .no_fields
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let width = 12.0;
                    let x = area.x - width / 2.0 + (width + 1.0) * i as f64;
                    let y = area.y + if area.code == "PS" { 5.0 } else { 9.5 };
                    let (text, label) = match v {
                        Some(n) => (format!("NF{n}"), format!("{}: a Richese No-Field token ({n})", area.name)),
                        None => ("NF".to_owned(), format!("{}: a Richese No-Field token, face down", area.name)),
                    };
                    view! {
                        <g class="chip no-field" role="listitem" aria-label=label data-territory=area.code.clone() data-faction="RI">
                            <rect x=format!("{x:.1}") y=format!("{y:.1}") width=format!("{width:.1}") height="7" rx="3.5"
                                fill="#fff" stroke=fill stroke-width="0.8" stroke-dasharray="1.2 0.8"/>
                            <text x=format!("{:.1}", x + width / 2.0) y=format!("{:.1}", y + 5.2) class="chip-text" fill=fill>{text}</text>
                        </g>
                    }
                })
                .collect_view();
            let spice = (p.spice > 0).then(|| {
                view! {
                    <g class="spice" role="listitem" aria-label=format!("{}: {} spice", area.name, p.spice)>
                        <circle cx=format!("{:.1}", area.x + 7.0) cy=format!("{:.1}", area.y - 7.5) r="3.6"/>
                        <text x=format!("{:.1}", area.x + 7.0) y=format!("{:.1}", area.y - 6.2) class="spice-text">{p.spice}</text>
                    </g>
                }
            });
            // Ambassadors and terror tokens, in a row above the territory's code: a diamond for an
            // ambassador, a triangle for a terror token, in the owner's colour; a face-down one is
            // outlined, with `?` unless the page audits the log.
            let markers = p
                .markers
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let (fill, ink) = faction_colours(m.owner);
                    let x = area.x - 7.0 - 8.5 * i as f64;
                    let y = area.y - 8.0;
                    let shape = if m.terror {
                        format!("M{:.1},{:.1} l4.2,7.2 l-8.4,0 z", x, y - 3.6)
                    } else {
                        format!("M{:.1},{:.1} l4,4 l-4,4 l-4,-4 z", x, y - 4.0)
                    };
                    let label = format!("{}: {}", area.name, m.describe());
                    view! {
                        <g class="marker" role="listitem" aria-label=label data-territory=area.code.clone()
                            data-owner=m.owner.code() data-face=if m.face_up { "up" } else { "down" }>
                            <path d=shape fill=if m.face_up { fill } else { "#fff" } stroke=fill stroke-width="0.8"/>
                            <text x=format!("{x:.1}") y=format!("{:.1}", y + 1.6) class="marker-text"
                                fill=if m.face_up { ink } else { fill }>{m.short()}</text>
                        </g>
                    }
                })
                .collect_view();
            Some(view! { {chips}{no_fields}{spice}{markers} })
        })
        .collect_view();
    let title = format!("The board after {}", turn_label(&turn).to_lowercase());
    view! {
        <figure class="game-board">
            <svg viewBox="-110 -110 220 220" role="group" aria-labelledby="board-title board-desc" class="board-svg">
                <title id="board-title">{title.clone()}</title>
                <desc id="board-desc">{desc.clone()}</desc>
                <circle r="95" class="map-edge"/>
                <g class="areas">{areas}</g>
                <g aria-hidden="true">{storm_view}</g>
                <g class="sectors" aria-hidden="true">{sectors}</g>
                <g class="labels" aria-hidden="true">{labels}</g>
                <g class="tokens" role="list" aria-label="Tokens and spice on the map">{tokens}</g>
            </svg>
            <figcaption>
                <span class="board-tap-hint">"The territories' names are left off the map on a small screen: tap a territory to find it in the list below. "</span>
                <span data-testid="storm">{desc}</span>
                {turn.shield_wall_counts.map(|c| if c {
                    " The Shield Wall counts as a stronghold (4.02)."
                } else {
                    " The Shield Wall does not count yet (4.02: after the fourth worm)."
                })}
                {turn.hms.as_ref().map(|h| view! {
                    " "<span data-testid="hms">{format!("The Hidden Mobile Stronghold stands in {}, sector {} (000 2.07.17).", h.name, h.sector)}</span>
                })}
                {format!(" Worms so far: {}.", turn.worms)}
                {(!turn.alliances.is_empty()).then(|| format!(" Alliances: {}.", turn.alliances.iter().map(|(a, b)| format!("{} + {}", a.code(), b.code())).collect::<Vec<_>>().join(", ")))}
                {turn.no_field_front.map(|n| format!(" Richese's No-Field token face up in front of its shield: {n}."))}
            </figcaption>
        </figure>
    }
}

// A class, not an inline style: the Content-Security-Policy allows no inline styles, so a
// `style` attribute would leave the tag grey until the browser half redraws it. The colours in
// style/main.css are `faction_colours`'.
fn faction_cell(f: Faction) -> impl IntoView {
    view! { <span class=format!("faction-tag faction-{}", f.code())>{f.code()}</span> }
}

/// For the Hidden Mobile Stronghold's row: where it stands.
fn where_hms(turn: &BoardTurn, code: &str) -> Option<String> {
    let h = turn.hms.as_ref().filter(|_| code == "HMS")?;
    Some(format!(" (in {}, sector {})", h.name, h.sector))
}

#[component]
fn BoardTables(turn: BoardTurn) -> impl IntoView {
    let rows = turn
        .places
        .iter()
        .filter(|p| {
            !p.tokens.is_empty() || p.spice > 0 || !p.no_fields.is_empty() || !p.markers.is_empty()
        })
        .map(|p| {
            let no_fields = p.no_fields.iter().map(|v| {
                let what = v.map_or("a No-Field token, face down".to_owned(), |n| format!("a No-Field token ({n})"));
                view! { <span class="force no-field">{faction_cell(Faction::Richese)}" "<span data-testid="no-field">{what}</span></span> }
            }).collect_view();
            view! {
                <tr data-territory=p.code.clone() id=format!("where-{}", p.code)>
                    <th scope="row">{p.name.clone()}" "<span class="hint">{p.code.clone()}</span>{where_hms(&turn, &p.code)}</th>
                    <td>{p.tokens.iter().map(|(f, t)| view! { <span class="force">{faction_cell(*f)}" "<span data-testid="force-count">{t.describe_as(*f, turn.kinds_of(*f))}</span></span> }).collect_view()}{no_fields}
                        {p.markers.iter().map(|m| view! { <span class="marker-note" data-testid="marker">{m.describe()}</span> }).collect_view()}</td>
                    <td class="num">{(p.spice > 0).then(|| p.spice.to_string())}</td>
                    <td>{p.controller.map(|f| f.code())}</td>
                </tr>
            }
        })
        .collect_view();
    let holdings = turn
        .holdings
        .iter()
        .map(|h| {
            let cards = match &h.card_names {
                Some(names) => format!("{} ({})", h.cards, names.join(", ")),
                None => h.cards.to_string(),
            };
            view! {
                <tr data-faction=h.faction.code()>
                    <th scope="row">{faction_cell(h.faction)}" "{h.faction.name()}</th>
                    <td class="num">{h.spice}</td>
                    <td>{cards}</td>
                    <td>{h.reserves.describe_as(h.faction, turn.kinds_of(h.faction))}</td>
                    <td>{h.tanks.describe_as(h.faction, turn.kinds_of(h.faction))}</td>
                    <td>{h.leaders.clone().map(|l| l.join(", ")).unwrap_or_else(|| "—".into())}</td>
                </tr>
            }
        })
        .collect_view();
    let attempts = (!turn.win_attempts.is_empty()).then(|| {
        view! {
            <p>{format!("Win attempts this turn (4.01.04): {}.", turn.win_attempts.iter().map(|(f, s)| format!("{} ({})", f.code(), s.join(" "))).collect::<Vec<_>>().join("; "))}</p>
        }
    });
    view! {
        <table tabindex="0" class="compact board-forces">
            <caption>{format!("On the map after {}", turn_label(&turn).to_lowercase())}</caption>
            <thead><tr><th scope="col">"Territory"</th><th scope="col">"Tokens"</th><th scope="col" class="num">"Spice"</th><th scope="col">"Control"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        {attempts}
        <table tabindex="0" class="compact holdings">
            <caption>"Behind and in front of the shields"</caption>
            <thead><tr><th scope="col">"Faction"</th><th scope="col" class="num">"Spice"</th><th scope="col">"Cards"</th><th scope="col">"Reserves"</th><th scope="col">"Tanks"</th><th scope="col">"Leaders"</th></tr></thead>
            <tbody>{holdings}</tbody>
        </table>
    }
}

#[cfg(test)]
mod pick_tests {
    use super::pick_turn;

    #[test]
    fn the_address_names_the_turn_as_the_page_shows_it() {
        let with_setup = [0, 1, 2, 3];
        assert_eq!(pick_turn(&with_setup, None), (3, None));
        assert_eq!(pick_turn(&with_setup, Some("0")), (0, None));
        assert_eq!(pick_turn(&with_setup, Some("2")), (2, None));
        // A log without its setup: turn 1 is the first board, not the second.
        let without = [1, 2, 3];
        assert_eq!(pick_turn(&without, Some("1")), (0, None));
        assert_eq!(pick_turn(&without, Some("3")), (2, None));
    }

    #[test]
    fn a_turn_the_log_lacks_is_answered_with_the_nearest_and_a_sentence() {
        let turns = [1, 2, 4];
        let (i, note) = pick_turn(&turns, Some("9"));
        assert_eq!(i, 2);
        assert!(
            note.unwrap_or_default()
                .contains("no turn 9: it ends at turn 4")
        );
        let (i, note) = pick_turn(&turns, Some("0"));
        assert_eq!(i, 0);
        assert!(note.unwrap_or_default().contains("starts at turn 1"));
        let (i, note) = pick_turn(&turns, Some("3"));
        assert_eq!(i, 1);
        assert!(note.unwrap_or_default().contains("showing turn 2"));
        let (i, note) = pick_turn(&turns, Some("last"));
        assert_eq!(i, 2);
        assert!(
            note.unwrap_or_default()
                .contains("\"last\" is not a turn number")
        );
        assert_eq!(pick_turn(&[], Some("3")), (0, None));
    }
}
