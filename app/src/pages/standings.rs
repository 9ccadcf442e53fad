//! The public standings (`/events/{slug}/standings`): one server-rendered page for phones in
//! the hall, without the wasm bundle. It is not a route of the Leptos app: the server answers
//! it with a plain handler that calls [`document`], so links to it from the app carry
//! `rel="external"` (the client router would otherwise look for it among its own routes).
//!
//! A few lines of inline script follow the event's news (`/events/{slug}/live`) and swap the
//! `<main>` content when the standings move; without JavaScript the page is complete and a
//! "Refresh" link reloads it.

/// Where the public standings of an event live.
pub fn path(slug: &str) -> String {
    format!("/events/{slug}/standings")
}

#[cfg(feature = "ssr")]
pub use render::*;

#[cfg(feature = "ssr")]
mod render {
    use db::results::standings::{EventStandings, GameLine, Row};
    use leptos::{prelude::*, tachys::view::RenderHtml};
    use tournament::Faction;

    /// How the server is reached from outside, for absolute addresses (the QR code): the first
    /// configured public origin (`MENTAT_PUBLIC_URL`), else the request's own host.
    #[derive(Debug, Clone, Default)]
    pub struct PublicSite {
        pub origin: Option<String>,
        /// Without a configured origin: whether the site is served over HTTPS (secure cookies).
        pub https: bool,
        /// Behind a proxy Mentat is told to trust (`MENTAT_TRUST_PROXY`): its
        /// `Forwarded` / `X-Forwarded-Proto` / `X-Forwarded-Host` say how people reach it.
        /// Otherwise those headers are ignored: a client must not choose the QR code's host.
        pub trust_proxy: bool,
    }

    /// Where an origin came from, strongest first.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum OriginSource {
        /// `MENTAT_PUBLIC_URL`.
        Configured,
        /// The trusted proxy's forwarded headers.
        Proxy,
        /// The request's Host header.
        Request,
    }

    impl PublicSite {
        /// The origin people reach this server at, and where it came from: the configured one,
        /// else (behind a trusted proxy) the forwarded one, else the request's Host header.
        pub fn origin_of(&self, headers: &http::HeaderMap) -> Option<(String, OriginSource)> {
            if let Some(origin) = &self.origin {
                return Some((origin.clone(), OriginSource::Configured));
            }
            let scheme = if self.https { "https" } else { "http" };
            let header = |name: &str| headers.get(name).and_then(|h| h.to_str().ok());
            let host = header("host").filter(|h| is_host(h));
            if self.trust_proxy {
                let (proto, forwarded_host) = match header("forwarded") {
                    Some(f) => forwarded(f),
                    None => (
                        header("x-forwarded-proto").and_then(first_value),
                        header("x-forwarded-host").and_then(first_value),
                    ),
                };
                let proto = proto
                    .map(str::to_ascii_lowercase)
                    .filter(|p| p == "http" || p == "https");
                let forwarded_host = forwarded_host.filter(|h| is_host(h));
                if proto.is_some() || forwarded_host.is_some() {
                    let proto = proto.unwrap_or_else(|| scheme.to_owned());
                    if let Some(host) = forwarded_host.or(host) {
                        return Some((format!("{proto}://{host}"), OriginSource::Proxy));
                    }
                }
            }
            host.map(|host| (format!("{scheme}://{host}"), OriginSource::Request))
        }
    }

    /// The first of a comma-separated list of values, trimmed (a chain of proxies appends).
    fn first_value(value: &str) -> Option<&str> {
        value
            .split(',')
            .next()
            .map(str::trim)
            .filter(|v| !v.is_empty())
    }

    /// `proto` and `host` of the first element of a `Forwarded` header (RFC 7239).
    fn forwarded(value: &str) -> (Option<&str>, Option<&str>) {
        let (mut proto, mut host) = (None, None);
        for pair in value.split(',').next().unwrap_or_default().split(';') {
            if let Some((key, v)) = pair.split_once('=') {
                let v = v.trim().trim_matches('"');
                match key.trim().to_ascii_lowercase().as_str() {
                    "proto" => proto = Some(v),
                    "host" => host = Some(v),
                    _ => {}
                }
            }
        }
        (proto, host)
    }

    impl PublicSite {
        /// `path` as an absolute address; `host` is the request's Host header.
        pub fn absolute(&self, host: Option<&str>, path: &str) -> Option<String> {
            match (&self.origin, host) {
                (Some(origin), _) => Some(format!("{origin}{path}")),
                (None, Some(host)) if is_host(host) => Some(format!(
                    "{}://{host}{path}",
                    if self.https { "https" } else { "http" }
                )),
                _ => None,
            }
        }
    }

    /// A Host header worth repeating: a name or address with an optional port, nothing else.
    fn is_host(host: &str) -> bool {
        !host.is_empty()
            && host.len() <= 255
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
    }

    /// Everything the page shows.
    pub struct Page<'a> {
        pub slug: &'a str,
        pub name: &'a str,
        pub standings: &'a EventStandings,
        /// The player whose reasons and games are open (`?p=`).
        pub focus: Option<i64>,
    }

    /// The whole HTML document.
    pub fn document(page: &Page) -> String {
        let Page {
            slug,
            name,
            standings,
            focus,
        } = *page;
        let title = format!("Standings · {name} · Mentat");
        let refresh = match focus {
            Some(id) => format!("{}?p={id}#p{id}", super::path(slug)),
            None => super::path(slug),
        };
        let main = main_content(slug, name, standings, focus);
        let html = view! {
            <!DOCTYPE html>
            <html lang="en">
                <head>
                    <meta charset="utf-8"/>
                    <meta name="viewport" content="width=device-width, initial-scale=1"/>
                    <meta name="color-scheme" content="light"/>
                    <title>{title}</title>
                    <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                    <link rel="stylesheet" href=crate::assets::stylesheet()/>
                </head>
                <body>
                    <header class="site-header">
                        <nav aria-label="Site">
                            <a class="brand" href="/">"Mentat"</a>
                            <a href=format!("/events/{slug}")>"Event page"</a>
                            <a href=format!("/events/{slug}/print/standings")>"Print"</a>
                        </nav>
                    </header>
                    <main class="page standings">
                        <p class="live-bar"><a href=refresh>"Refresh"</a>" "<span id="updated" role="status"></span></p>
                        {main}
                    </main>
                    // Live updates: public/live-standings.js, cached by the phone after the
                    // first visit rather than repeated in every page.
                    <script src="/live-standings.js" defer></script>
                </body>
            </html>
        };
        html.to_html()
    }

    /// A short page for an address with no event behind it (answered with 404).
    pub fn not_found() -> String {
        message_page(
            "Page not found",
            "No event lives at this address. Check the address, or find the event on Mentat's home page.",
        )
    }

    /// A short page for a failure the server has logged (answered with 500).
    pub fn failed() -> String {
        message_page(
            "Standings unavailable",
            "The standings could not be loaded just now. Try again in a moment.",
        )
    }

    fn message_page(heading: &'static str, text: &'static str) -> String {
        view! {
            <!DOCTYPE html>
            <html lang="en">
                <head>
                    <meta charset="utf-8"/>
                    <meta name="viewport" content="width=device-width, initial-scale=1"/>
                    <title>{heading}</title>
                    <link rel="stylesheet" href=crate::assets::stylesheet()/>
                </head>
                <body>
                    <main class="page">
                        <h1>{heading}</h1>
                        <p>{text}" "<a href="/">"Mentat's home page"</a></p>
                    </main>
                </body>
            </html>
        }
        .to_html()
    }

    fn progress(s: &EventStandings) -> String {
        if s.rounds == 0 {
            return "No round has been played yet.".to_owned();
        }
        let reported = s.final_table.as_ref().is_some_and(|t| t.reported);
        if reported {
            return format!(
                "Final: the final table is reported. Qualifying after round {}.",
                s.rounds
            );
        }
        format!(
            "After round {}: {} of {} reports final.",
            s.rounds, s.tables_final, s.tables
        )
    }

    fn main_content(
        slug: &str,
        name: &str,
        s: &EventStandings,
        focus: Option<i64>,
    ) -> impl IntoView + use<> {
        let problems = (!s.problems.is_empty()).then(|| {
            let n = s.problems.len();
            view! {
                <p class="notice">{format!(
                    "{n} final report{} left out until the head judge corrects {}.",
                    if n == 1 { " is" } else { "s are" },
                    if n == 1 { "it" } else { "them" },
                )}</p>
            }
        });
        let wins = s
            .ruleset
            .win_types()
            .iter()
            .map(|w| format!("{} {}", w.code(), w.name()))
            .collect::<Vec<_>>()
            .join(" · ");
        let legend = format!(
            "Wins: {wins}. Best game, each game's score: {}.",
            tournament::standings::SCORE_LEGEND
        );
        view! {
            <h1>{name.to_owned()}</h1>
            <p class="lead">{progress(s)}</p>
            {problems}
            {s.final_table.as_ref().map(|t| final_section(slug, t))}
            {s.closed.as_ref().map(finals_section)}
            <div class="scroll">
                <table tabindex="0" class="standings-table">
                    <caption>"Standings (4.01.10): points, then wins by type, then each game's score. Tap a name to see why."</caption>
                    <thead>
                        <tr>
                            <th scope="col"><abbr title="Rank">"#"</abbr></th>
                            <th scope="col">"Player"</th>
                            <th scope="col"><abbr title="Points">"Pts"</abbr></th>
                            <th scope="col">"Wins"</th>
                            <th scope="col">"Best game"</th>
                        </tr>
                    </thead>
                    {body(s, focus)}
                </table>
            </div>
            <p class="legend">{legend}</p>
        }
    }

    /// The final table: being played, or the event's placings once its report is final. The
    /// qualifying standings below stay as they were.
    fn final_section(
        slug: &str,
        table: &db::results::standings::FinalTable,
    ) -> impl IntoView + use<> {
        let view_of: crate::final_table::FinalTableView = table.into();
        let href = format!("/events/{slug}/rounds/{}", table.round);
        let placings = (!view_of.placings.is_empty())
            .then(|| view! { <crate::pages::finals::Placings table=view_of.clone()/> });
        let (heading, state) = if table.reported {
            (
                "Final placings",
                "The final game decides the places at the final table; qualifying, the rest.",
            )
        } else if table.begun {
            ("Final table", "The final game is being played.")
        } else {
            (
                "Final table",
                "The finalists are seated; the final game starts soon.",
            )
        };
        view! {
            <section class="final-placings" aria-labelledby="final-placings">
                <h2 id="final-placings">{heading}</h2>
                <p>{state}" "<a href=href>"The final table"</a></p>
                {placings}
            </section>
        }
    }

    /// Qualifying is closed: the finalists, and the cut draw if there was a tie.
    fn finals_section(closed: &db::results::qualifying::Closed) -> impl IntoView + use<> {
        let tie = (!closed.tied.is_empty()).then(|| {
            let seats = closed.open_seats;
            let tied = closed.tied.join(", ");
            let drawn = match &closed.draw {
                Some(draw) => format!("Drawn with seed {}: {}.", draw.seed, draw.picked.join(", ")),
                None => "The head judge has not drawn yet.".to_owned(),
            };
            view! {
                <p>{format!(
                    "Tied across the cut line for {seats} seat{}: {tied}. ",
                    if seats == 1 { "" } else { "s" }
                )}<strong>{drawn}</strong></p>
            }
        });
        view! {
            <section class="finalists" aria-labelledby="finalists">
                <h2 id="finalists">"Finalists"</h2>
                <p>{format!("Qualifying closed {} UTC.", closed.closed_at.format("%Y-%m-%d %H:%M"))}</p>
                <ol>{closed.finalists.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ol>
                {tie}
            </section>
        }
    }

    /// The table's rows, with the finals line drawn where the eligible top `finals_seats` end.
    ///
    /// Hundreds of rows make this page, so the plain rows are written as HTML text with the end
    /// tags HTML lets a table row leave out (`</td>`, `</th>`, `</tr>`): a third less than the
    /// same rows from `view!`. They go into `<tbody>` runs; the open row, with its reasons and
    /// games, is a `view!` of its own between two runs.
    fn body(s: &EventStandings, focus: Option<i64>) -> impl IntoView + use<> {
        // Before any game counts everyone is tied at 0: a cut line would say nothing yet.
        let counted = s.rows.iter().any(|r| !r.games.is_empty());
        let show_cut = counted && s.finals_seats > 0;
        let last_in = s.rows.iter().rposition(|r| r.finalist != Some(false));
        let first_tied = s.rows.iter().position(|r| r.finalist.is_none());
        let mut out = Vec::new();
        let mut run = String::with_capacity(s.rows.len() * 100);
        let flush = |run: &mut String, out: &mut Vec<AnyView>| {
            if !run.is_empty() {
                let html = std::mem::take(run);
                out.push(view! { <tbody inner_html=html></tbody> }.into_any());
            }
        };
        for (i, row) in s.rows.iter().enumerate() {
            if show_cut
                && first_tied == Some(i)
                && let Some((players, seats)) = &s.cut_tie
            {
                label_row(
                    &mut run,
                    "cut tie",
                    &format!(
                        "Tied across the cut: {} players for {seats} seat{}; the head judge draws",
                        players.len(),
                        if *seats == 1 { "" } else { "s" }
                    ),
                );
            }
            if focus == Some(row.player_id.get()) {
                flush(&mut run, &mut out);
                let above = i.checked_sub(1).and_then(|j| s.rows.get(j));
                let open = row_html(row, true);
                let id = format!("p{}", row.player_id);
                let details = details(row, above, s.rows.get(i + 1));
                out.push(
                    view! { <tbody class="open"><tr id=id inner_html=open></tr>{details}</tbody> }
                        .into_any(),
                );
            } else {
                run.push_str("<tr");
                run.push_str(&row_html(row, false));
            }
            if show_cut && last_in == Some(i) && i + 1 < s.rows.len() {
                label_row(
                    &mut run,
                    "cut",
                    &format!("Finals line: top {}", s.finals_seats),
                );
            }
        }
        flush(&mut run, &mut out);
        out
    }

    fn label_row(run: &mut String, class: &str, text: &str) {
        run.push_str(&format!(
            "<tr class=\"{class}\"><th colspan=5 scope=rowgroup>{}",
            escape(text)
        ));
    }

    /// Text for HTML: names are typed by people.
    fn escape(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                c => out.push(c),
            }
        }
        out
    }

    /// One player's row: for a run, the rest after `<tr` (` id=p7><td>1<th>…`); for the open
    /// row, its cells. The open row's link closes it; any other opens that player's reasons.
    fn row_html(row: &Row, open: bool) -> String {
        let id = row.player_id;
        let href = if open {
            format!("standings#p{id}")
        } else {
            format!("?p={id}#p{id}")
        };
        let mark = mark(row)
            .map(|m| format!("<small>{m}</small>"))
            .unwrap_or_default();
        let cells = format!(
            "<td>{}<th><a href=\"{href}\">{}</a>{mark}<td>{}<td>{}<td>{}",
            row.rank,
            escape(&row.player),
            escape(&row.points),
            escape(&wins_text(row)),
            escape(&row.best.map(|b| b.short()).unwrap_or_default()),
        );
        if open {
            cells
        } else {
            format!(" id=p{id}>{cells}")
        }
    }

    fn wins_text(row: &Row) -> String {
        row.wins
            .iter()
            // A code and its count never part at a line break.
            .map(|(code, n)| format!("{code}\u{a0}{n}"))
            .collect::<Vec<_>>()
            .join("\u{a0}· ")
    }

    fn mark(row: &Row) -> Option<&'static str> {
        match (row.dropped, row.alternate) {
            (true, _) => Some("dropped: not eligible for finals"),
            (_, true) => Some("alternate: not eligible for finals"),
            _ => None,
        }
    }

    fn faction_name(code: &str) -> String {
        Faction::from_code(code).map_or_else(|| code.to_owned(), |f| f.name().to_owned())
    }

    fn game_row(g: &GameLine) -> impl IntoView + use<> {
        view! {
            <tr>
                <th scope="row">{format!("Round {}, table {}", g.round, g.table)}</th>
                <td data-label="Faction">{faction_name(g.faction)}</td>
                <td data-label="Result">{g.result.unwrap_or("no win")}</td>
                <td data-label="Score">{g.score.short()}</td>
            </tr>
        }
    }

    /// Under the open row: why the player is where they are, and their games.
    fn details(row: &Row, above: Option<&Row>, below: Option<&Row>) -> impl IntoView + use<> {
        let player = row.player.clone();
        // Both read downwards, "upper is above lower: why", as the reasons are worded.
        let lower = below.and_then(|b| {
            let reason = row.reason.clone()?;
            Some(view! { <p>{format!("{} is above {}: {reason}.", row.player, b.player)}</p> })
        });
        let higher = above.and_then(|a| {
            let reason = a.reason.clone()?;
            Some(view! { <p>{format!("{} is above {}: {reason}.", a.player, row.player)}</p> })
        });
        let mark = mark(row).map(|m| view! { <p>{format!("{}.", capitalise(m))}</p> });
        let games = if row.games.is_empty() {
            view! { <p>"No game counted yet."</p> }.into_any()
        } else {
            view! {
                <table tabindex="0" class="games stack">
                    <caption>{format!("Games of {player}, best first")}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Game"</th>
                            <th scope="col">"Faction"</th>
                            <th scope="col">"Result"</th>
                            <th scope="col">"Score"</th>
                        </tr>
                    </thead>
                    <tbody>{row.games.iter().map(game_row).collect_view()}</tbody>
                </table>
            }
            .into_any()
        };
        let close = format!("standings#p{}", row.player_id);
        view! {
            <tr class="why">
                <td colspan="5">
                    {higher}
                    {lower}
                    {mark}
                    {games}
                    <p><a href=close>"Close"</a></p>
                </td>
            </tr>
        }
    }

    fn capitalise(text: &str) -> String {
        let mut chars = text.chars();
        match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => String::new(),
        }
    }
}
