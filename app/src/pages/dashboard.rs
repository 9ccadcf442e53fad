//! The head judge's dashboard: players checked in, rounds, tables in play, reports missing, the
//! form that starts the next round (with ruling 1's options when the count has no split), and
//! the QR codes of "find my seat" and the public standings for the players' phones.

use leptos::{prelude::*, server_fn::ServerFn};
use leptos_meta::Title;

use crate::{
    components::field::{Field, FormError, PartError, TextArea},
    error::AppError,
    forms::{PostForm, form_state},
    pages::{params::slug_param, queue::JudgesQueue, standings},
    qr::{HallCodes, QrLink, get_hall_codes},
    rounds::{DashboardView, NextRound, StartRound, TablePlan, get_dashboard},
};

/// Links between the head judge's pages of one event. The standings are served outside the
/// app (a plain server-rendered page), hence `rel="external"`: the client router must let the
/// browser load them. The page shown is marked (`aria-current="page"`; a page inside a section,
/// such as one player's, marks its section with `"true"`). On a phone the links make one row
/// that scrolls sideways, so the page's own content starts in the first screen. Each role sees
/// only the pages it may open: a judge keeping score gets no dashboard, players or settings.
#[component]
pub fn RunNav(slug: Memo<String>) -> impl IntoView {
    let reach = Resource::new(move || slug.get(), crate::events::staff_reach);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let reach = reach.await.unwrap_or_default();
                view! { <RunLinks slug=slug.get_untracked() reach=reach/> }
            })}
        </Suspense>
    }
}

/// Who may open a link of [`RunNav`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    Nobody,
    Record,
    Run,
}

#[component]
fn RunLinks(slug: String, reach: crate::events::Reach) -> impl IntoView {
    let here = leptos_router::hooks::use_location()
        .pathname
        .get_untracked();
    let event = format!("/events/{slug}");
    let links = [
        (event.clone(), "Event page", false, Needs::Nobody),
        (format!("{event}/run"), "Dashboard", false, Needs::Run),
        (format!("{event}/players"), "Players", false, Needs::Run),
        (format!("{event}/settings"), "Settings", false, Needs::Run),
        (format!("{event}/clocks"), "Projector", false, Needs::Nobody),
        (standings::path(&slug), "Standings", true, Needs::Nobody),
        (format!("{event}/finals"), "Finals", false, Needs::Nobody),
        (
            crate::pages::organise::path(&slug),
            "Organise: exports, print, backup",
            true,
            Needs::Record,
        ),
        (format!("{event}/logs"), "Game logs", false, Needs::Record),
    ];
    let items = links
        .into_iter()
        .filter(|(_, _, _, needs)| match needs {
            Needs::Nobody => true,
            Needs::Record => reach.record,
            Needs::Run => reach.run,
        })
        .map(|(href, label, external, _)| {
            let current = current_mark(&here, &href, &event);
            view! {
                <li><a href=href rel=external.then_some("external") aria-current=current>{label}</a></li>
            }
        })
        .collect_view();
    view! {
        <nav class="run-nav" aria-label="Running the event">
            <ul>{items}</ul>
        </nav>
    }
}

/// How the link to `href` is marked on the page at `here`: `"page"` when it is that page,
/// `"true"` when the page lies inside it (one player of the players' list), else nothing. The
/// event page holds every other page, so only itself marks it.
fn current_mark(here: &str, href: &str, event: &str) -> Option<&'static str> {
    let here = here.trim_end_matches('/');
    if here == href {
        Some("page")
    } else if href != event
        && here
            .strip_prefix(href)
            .is_some_and(|rest| rest.starts_with('/'))
    {
        Some("true")
    } else {
        None
    }
}

pub fn sizes_text(sizes: &[u8]) -> String {
    sizes
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

#[component]
pub fn DashboardPage() -> impl IntoView {
    let slug = slug_param();
    let dashboard = Resource::new(move || slug.get(), get_dashboard);
    let link = Resource::new(move || slug.get(), get_hall_codes);
    view! {
        <main class="page">
            <RunNav slug=slug/>
            <Suspense fallback=|| view! { <p>"Loading the dashboard…"</p> }>
                {move || Suspend::new(async move {
                    let link = link.await.ok();
                    match dashboard.await {
                        Ok(d) => view! { <Title text=format!("Dashboard · {}", d.name)/><Dashboard d=d link=link slug=slug/> }.into_any(),
                        Err(e) => view! { <Title text="Dashboard"/><h1>"Dashboard"</h1><p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

#[component]
fn Dashboard(d: DashboardView, link: Option<HallCodes>, slug: Memo<String>) -> impl IntoView {
    let base = format!("/events/{}", d.slug);
    let current = d.rounds.last().cloned();
    view! {
        <h1>{d.name.clone()}</h1>
        <p class="lead">"Head judge's dashboard"</p>
        <crate::pages::checklist::SetupChecklist slug=slug/>
        <dl class="stats">
            <div><dt>"Players checked in"</dt><dd data-testid="checked-in">{d.checked_in}" of "{d.registered}</dd></div>
            <div><dt>"Dropped"</dt><dd>{d.dropped}</dd></div>
            <div><dt>"Rounds drawn"</dt><dd>{d.rounds.len()}" of "{d.qualifying_rounds}</dd></div>
            {current.clone().map(|r| view! {
                <div><dt>{format!("Round {}: tables in play", r.number)}</dt><dd>{r.in_play}" of "{r.tables}</dd></div>
                <div><dt>{format!("Round {}: reports missing", r.number)}</dt><dd>{r.reports_missing}</dd></div>
            })}
        </dl>
        <JudgesQueue slug=slug/>
        {(!d.rounds.is_empty()).then(|| view! {
            <table tabindex="0" class="stack rounds">
                <caption>"Rounds"</caption>
                <thead><tr>
                    <th scope="col">"Round"</th><th scope="col">"State"</th><th scope="col">"Tables"</th>
                    <th scope="col">"Seated"</th><th scope="col">"Byes"</th><th scope="col">"In play"</th>
                    <th scope="col">"Reports missing"</th>
                </tr></thead>
                <tbody>
                    {d.rounds.iter().map(|r| view! {
                        <tr>
                            <th scope="row"><a href=format!("{base}/rounds/{}", r.number)>{if r.final_table {
                                format!("Final table (round {})", r.number)
                            } else {
                                format!("Round {}", r.number)
                            }}</a></th>
                            <td data-label="State">{match (r.begun, r.reports_missing) {
                                (false, _) => "Drawn, seats may change",
                                (true, 0) => "Complete: every report final",
                                (true, _) => "In play",
                            }}</td>
                            <td data-label="Tables">{r.tables}</td><td data-label="Seated">{r.seated}</td>
                            <td data-label="Byes">{r.byes}</td>
                            <td data-label="In play">{r.in_play}</td><td data-label="Reports missing">{r.reports_missing}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        })}
        {match d.next.clone() {
            Some(next) => view! { <StartForm slug=d.slug.clone() next=next/> }.into_any(),
            None if d.qualifying_closed => view! {
                <p class="notice">{if d.rounds.iter().any(|r| r.final_table) {
                    "Qualifying is closed and the final table is seated; its state and the placings are on the "
                } else {
                    "Qualifying is closed: seat the final table on the "
                }}<a href=format!("{base}/finals")>"finals page"</a>"."</p>
            }.into_any(),
            None => view! {
                <p class="notice">"All qualifying rounds are drawn. To add one, raise the number of rounds in the "
                    <a href=format!("{base}/settings")>"settings"</a>"."</p>
            }.into_any(),
        }}
        {link.map(|codes| view! { <HallQr codes=codes slug=d.slug.clone()/> })}
        // The judges' queue follows the table news (after the content: the page reads whole first).
        <script src="/live-parts.js" defer></script>
    }
}

/// The players' QR codes (find my seat, the live standings) with their plain addresses, a
/// warning when a phone cannot open them (and where to set the address), and the printable page.
#[component]
fn HallQr(codes: HallCodes, slug: String) -> impl IntoView {
    let settings = format!("/events/{slug}/settings#field-public_url");
    view! {
        <section aria-labelledby="hall-qr">
            <h2 id="hall-qr">"QR codes for the players' phones"</h2>
            {codes.warning.clone().map(|text| view! {
                <div class="notice qr-warning" role="alert" data-testid="qr-warning">
                    <p>{text}</p>
                    <p><a href=settings.clone()>"Set the public address in the event's settings"</a></p>
                </div>
            })}
            <div class="hall-qr">
                <QrFigure link=codes.find.clone() what="find their table and seat"/>
                <QrFigure link=codes.standings.clone() what="follow the live standings"/>
            </div>
            <p class="hint">{format!("Address from {}.", codes.source)}</p>
            <p><a href=crate::qr::print_path(&slug) rel="external">"Print the QR codes (one per half page)"</a></p>
        </section>
    }
}

/// One QR code and its plain link, to show on the projector or read out.
#[component]
fn QrFigure(link: QrLink, what: &'static str) -> impl IntoView {
    let label = format!("QR code: {}, {}", link.title, link.url);
    view! {
        <figure class="standings-qr">
            <div class="qr" role="img" aria-label=label inner_html=link.svg></div>
            <figcaption>
                <strong>{link.title.clone()}</strong>": players scan this to "{what}": "
                <a href=link.url.clone() rel="external">{link.url.clone()}</a>
            </figcaption>
        </figure>
    }
}

/// A started round opens its page (the server's redirect); a refused start says why at the
/// field (with the browser half, the form keeps what was typed).
#[component]
fn StartForm(slug: String, next: NextRound) -> impl IntoView {
    let error = form_state(StartRound::url()).error;
    let number = next.number;
    let no_players = next.plan == TablePlan::NoPlayers;
    let unreported = next.unreported.clone();
    view! {
        <section aria-labelledby="next-round">
            <h2 id="next-round">{format!("Start round {number}")}</h2>
            <p>{format!("{} players checked in and not dropped.", next.entrants)}</p>
            <PostForm action=StartRound::url()>
                <input type="hidden" name="slug" value=slug/>
                <input type="hidden" name="number" value=number.to_string()/>
                {match next.plan.clone() {
                    TablePlan::Tables(sizes) => view! {
                        <p class="plan">{format!("{} tables: {} (4.01.01).", sizes.len(), sizes_text(&sizes))}</p>
                    }.into_any(),
                    TablePlan::NoPlayers => view! {
                        <p class="notice">"Check players in on the Players page first."</p>
                    }.into_any(),
                    TablePlan::Choose { alternates, four_player_tables, byes, entrants } => view! {
                        <Ruling1 players=next.entrants alternates=alternates four=four_player_tables byes=byes entrants=entrants error=error/>
                    }.into_any(),
                }}
                {(!unreported.is_empty()).then(|| {
                    let tables = unreported.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
                    view! {
                        <div class="notice">
                            <p>{format!(
                                "Round {} still has games without a final report ({} {tables}). Wait for them, or give the reason for starting anyway; it is kept in the audit log.",
                                next.previous.map(|r| r.to_string()).unwrap_or_default(),
                                if unreported.len() == 1 { "table" } else { "tables" },
                            )}</p>
                            <TextArea label="Reason for starting without those reports" name="override_reason" rows=2 error=error/>
                        </div>
                    }
                })}
                <Field label="Seed (optional)" name="seed" kind="text"
                    hint="Leave empty for a random seed. Typing the seed of an earlier draw repeats it exactly."
                    error=error/>
                <FormError error=error/>
                <button type="submit" disabled=no_players>
                    {format!("Start round {number}")}
                </button>
            </PostForm>
        </section>
    }
}

/// Ruling 1's three ways out, each worked out for this count; nothing is chosen for the judge.
#[component]
fn Ruling1(
    players: usize,
    alternates: (usize, Vec<u8>),
    four: Option<Vec<u8>>,
    byes: Option<(usize, Vec<u8>)>,
    entrants: Vec<(tournament::ids::PlayerId, String)>,
    error: Signal<Option<AppError>>,
) -> impl IntoView {
    let (add, alt_sizes) = alternates;
    view! {
        <fieldset class="ruling-1" aria-describedby="field-fallback-error">
            <legend>{format!(
                "{players} players cannot be split into tables of 6 and 5 (4.01.01). Choose how to seat them:"
            )}</legend>
            <div class="choice">
                <input type="radio" id="fallback-alternates" name="fallback" value="alternates"/>
                <label for="fallback-alternates">{format!(
                    "Seat {add} alternate{}: tables {}", if add == 1 { "" } else { "s" }, sizes_text(&alt_sizes)
                )}</label>
            </div>
            <TextArea label="Alternates' names, one per line" name="alternates" rows=3 error=error/>
            <div class="choice">
                {match four.clone() {
                    Some(sizes) => view! {
                        <input type="radio" id="fallback-four" name="fallback" value="four_player_tables"/>
                        <label for="fallback-four">{format!("4-player tables: tables {}", sizes_text(&sizes))}</label>
                    }.into_any(),
                    None => view! {
                        <input type="radio" id="fallback-four" name="fallback" value="four_player_tables" disabled=true/>
                        <label for="fallback-four">{format!("4-player tables: impossible for {players} players")}</label>
                    }.into_any(),
                }}
            </div>
            <div class="choice">
                {match byes.clone() {
                    Some((count, sizes)) => view! {
                        <input type="radio" id="fallback-byes" name="fallback" value="byes"/>
                        <label for="fallback-byes">{format!(
                            "Byes for {count} player{} you pick (0 points, no game): tables {}",
                            if count == 1 { "" } else { "s" }, sizes_text(&sizes)
                        )}</label>
                    }.into_any(),
                    None => view! {
                        <input type="radio" id="fallback-byes" name="fallback" value="byes" disabled=true/>
                        <label for="fallback-byes">"Byes: impossible, fewer than 5 players would be left"</label>
                    }.into_any(),
                }}
            </div>
            <PartError name="fallback" error=error/>
            {byes.is_some().then(|| view! {
                <fieldset class="byes">
                    <legend>"Players given a bye"</legend>
                    {entrants.iter().map(|(id, name)| {
                        let input_id = format!("bye-{id}");
                        view! {
                            <div class="choice">
                                <input type="checkbox" id=input_id.clone() name="byes[]" value=id.to_string()/>
                                <label for=input_id>{name.clone()}</label>
                            </div>
                        }
                    }).collect_view()}
                    <PartError name="byes" error=error/>
                </fieldset>
            })}
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::current_mark;

    const EVENT: &str = "/events/spring";

    #[test]
    fn the_page_shown_is_marked_and_its_section_too() {
        let mark = |here: &str, href: &str| current_mark(here, href, EVENT);
        assert_eq!(
            mark("/events/spring/players", "/events/spring/players"),
            Some("page")
        );
        assert_eq!(
            mark("/events/spring/players/", "/events/spring/players"),
            Some("page")
        );
        assert_eq!(
            mark("/events/spring/players/7", "/events/spring/players"),
            Some("true")
        );
        assert_eq!(mark("/events/spring/run", "/events/spring/players"), None);
        // Not a prefix of another word, and the event page marks only itself.
        assert_eq!(
            mark("/events/spring/playersx", "/events/spring/players"),
            None
        );
        assert_eq!(mark("/events/spring/run", EVENT), None);
        assert_eq!(mark(EVENT, EVENT), Some("page"));
    }
}
