//! The rules at hand: `/rules` (search both rulebooks by number, words or the full rulebook's
//! names, and either book's whole index) and one rule: `/rules/<number>` (the GenCon rule when
//! the GenCon rulebook has it, the full rulebook's otherwise), `/rules/<book>/<number>` and
//! `/rules/full/<number>/original` (the first-printed version of a rule the full rulebook prints
//! twice), `/rules/<name>` (the full rulebook's name for a rule, redirected to its number). A
//! judge called to a table taps "Rules", types the number or a word, and is there. Plain
//! server-rendered HTML and GET forms: they work without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::rules::{RuleLine, RulePage as RuleData, get_rule, rules_overview};

/// The search box, on the index and on every rule page.
#[component]
fn RuleSearch(#[prop(into)] value: String, #[prop(into)] scope: String) -> impl IntoView {
    let option = move |value: &'static str, label: &'static str| {
        let selected = scope == value;
        view! { <option value=value selected=selected>{label}</option> }
    };
    view! {
        <form method="get" action="/rules" class="find rule-search" role="search">
            <div class="field">
                <label for="rule-q">"Rule number or words"</label>
                <input id="rule-q" name="q" type="search" value=value inputmode="search"
                    placeholder="1.06.03.05 or occupancy" autocomplete="off" autocapitalize="none"/>
            </div>
            <div class="field field-narrow">
                <label for="rule-scope">"Look in"</label>
                <select id="rule-scope" name="scope">
                    {option("", "Both rulebooks")}
                    {option("gencon", "GenCon rulebook")}
                    {option("full", "Full rulebook")}
                </select>
            </div>
            <button type="submit">"Find the rule"</button>
        </form>
    }
}

#[component]
fn RuleList(
    rules: Vec<RuleLine>,
    #[prop(optional)] summaries: bool,
    #[prop(optional)] books: bool,
) -> impl IntoView {
    view! {
        <ul class="rule-list">
            {rules.into_iter().map(|r| view! {
                <li>
                    <a href=r.href.clone()><span class="rule-number">{r.number.clone()}</span>" "{r.heading.clone()}</a>
                    {books.then(|| view! { <span class="badge book">{r.book.clone()}</span> })}
                    {r.checked.then(|| view! { <span class="badge" title="The engine checks this rule">"checked"</span> })}
                    {summaries.then(|| view! { <p class="hint">{r.summary.clone()}</p> })}
                </li>
            }).collect_view()}
        </ul>
    }
}

/// What a number means, and why the two books sometimes disagree.
#[component]
fn TwoRulebooks() -> impl IntoView {
    view! {
        // Folded, so that on a phone the search and the index stay near the top.
        <details class="two-books">
            <summary><h2 id="books">"Two rulebooks: which one a number means"</h2></summary>
            <p>"Mentat knows the "<strong>"GenCon tournament rulebook 2.13.3"</strong>" (the six classic factions; ruleset "<code>"gc-2.13.3"</code>") and the "<strong>"full rulebook 2.10.9"</strong>" (thirteen factions and ten variants; ruleset "<code>"full"</code>"). Most numbers mean the same rule in both."</p>
            <ul>
                <li>"A number alone, as in "<a href="/rules/1.06.03.05">"/rules/1.06.03.05"</a>", is the GenCon rule when the GenCon rulebook has one, and the full rulebook's otherwise, as in "<a href="/rules/2.07.02">"/rules/2.07.02"</a>". "<code>"/rules/gencon/…"</code>" and "<code>"/rules/full/…"</code>" name the book."</li>
                <li>"Where the books number a rule differently, each page says so and links to the other: the full rulebook has no “one force shipment” item, so its Shipment and Movement rules are one lower from 1.06.02 on; its 1.14.07 is the Ixians' Karama power where GenCon's is the Free Traders'; its stronghold cards are 4.04, GenCon's 4.03; it splits End Game Victory into Solo and Allied."</li>
                <li>"The ruleset of a game decides which number the engine cites: a violation in a GenCon game gives GenCon's number, in a full-rulebook game the full rulebook's."</li>
                <li>"The full rulebook prints two versions of some rules (CHOAM's abilities twice over; items of the Ixians, Richese, Ecaz and Moritani). Mentat plays the revised, second-printed text unless the event chooses the original (ruling 28), and those pages say which version they show."</li>
                <li>"The full rulebook cites its rules by name, such as "<code>"faction_ixians_setupspice"</code>": type the name in the search box, or open "<code>"/rules/<name>"</code>"."</li>
            </ul>
        </details>
    }
}

#[component]
pub fn RulesPage() -> impl IntoView {
    let query = use_query_map();
    let q = Memo::new(move |_| query.read().get("q").unwrap_or_default());
    let scope = Memo::new(move |_| query.read().get("scope").unwrap_or_default());
    let book = Memo::new(move |_| query.read().get("book").unwrap_or_default());
    let data = Resource::new(
        move || (q.get(), scope.get(), book.get()),
        |(q, scope, book)| rules_overview(q, scope, book),
    );
    view! {
        <Title text="Rules"/>
        <main class="page narrow rules-page">
            <h1>"Rules"</h1>
            <p class="hint">"The GenCon tournament rulebook and the full rulebook, rule by rule, in Mentat's own words. The rulebooks themselves are what count."</p>
            <RuleSearch value=q.get_untracked() scope=scope.get_untracked()/>
            <Suspense fallback=|| view! { <p>"Loading the rules…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                        Ok(d) => {
                            let searched = !d.query.trim().is_empty();
                            // A number (or a full-rulebook name) typed whole opens that rule
                            // right here: two taps from the header to the rule.
                            let exact = d.exact.clone();
                            let other_book = if d.book == "full" { ("gencon", "the GenCon rulebook") } else { ("full", "the full rulebook") };
                            view! {
                                {exact.clone().map(|href| view! { <RuleAt href=href/> })}
                                {(searched && exact.is_none()).then(|| view! {
                                    <section aria-labelledby="hits">
                                        <h2 id="hits">{format!("{} rule{} found for “{}”", d.hits.len(), if d.hits.len() == 1 { "" } else { "s" }, d.query.trim())}</h2>
                                        {if d.hits.is_empty() {
                                            view! { <p role="status">"No rule matches. Try fewer words, or the start of a word (\"ornith\")."</p> }.into_any()
                                        } else {
                                            view! { <RuleList rules=d.hits.clone() summaries=true books=true/> }.into_any()
                                        }}
                                    </section>
                                })}
                                <TwoRulebooks/>
                                <section aria-labelledby="index">
                                    <h2 id="index">{format!("All rules of the {}", d.book_title)}</h2>
                                    <p class="hint">
                                        {format!("{} rule numbers; the engine checks {} of them. ", d.total, d.checked)}
                                        <a href=format!("/rules?book={}#index", other_book.0)>{format!("The index of {}", other_book.1)}</a>
                                    </p>
                                    {d.chapters.into_iter().map(|(chapter, sections)| view! {
                                        <h3>{chapter}</h3>
                                        {sections.into_iter().map(|s| view! {
                                            <details class="rule-section">
                                                <summary>{if s.number == "0" { s.heading.clone() } else { format!("{} {}", s.number, s.heading) }}</summary>
                                                <RuleList rules=s.rules/>
                                            </details>
                                        }).collect_view()}
                                    }).collect_view()}
                                </section>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </main>
    }
}

/// The parts of a rule page's address: `/rules/2.07.02`, `/rules/full/1.06.02`,
/// `/rules/full/2.09.05/original`, `/rules/faction_ixians_setupspice`.
fn address(href: &str) -> (String, String, String) {
    let parts: Vec<&str> = href
        .trim_start_matches("/rules/")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    match parts.as_slice() {
        [number] => ((*number).to_owned(), String::new(), String::new()),
        [book, number] => ((*number).to_owned(), (*book).to_owned(), String::new()),
        [book, number, edition, ..] => (
            (*number).to_owned(),
            (*book).to_owned(),
            (*edition).to_owned(),
        ),
        [] => (String::new(), String::new(), String::new()),
    }
}

#[component]
fn RuleAt(href: String) -> impl IntoView {
    let (number, book, edition) = address(&href);
    view! { <RuleBody number=number book=book edition=edition/> }
}

#[component]
pub fn RulePage() -> impl IntoView {
    let params = use_params_map();
    // `/rules/<number>`, `/rules/<book>/<number>`, `/rules/<book>/<number>/<edition>`.
    let key = Memo::new(move |_| {
        let p = params.read();
        let get = |k: &str| p.get(k).unwrap_or_default();
        (get("number"), get("book"), get("edition"))
    });
    view! {
        <main class="page narrow rule-page">
            <RuleSearch value=String::new() scope=String::new()/>
            {move || {
                let (number, book, edition) = key.get();
                view! { <RuleBody number=number book=book edition=edition/> }
            }}
        </main>
    }
}

#[component]
fn RuleBody(number: String, book: String, edition: String) -> impl IntoView {
    let data = Resource::new(
        move || (number.clone(), book.clone(), edition.clone()),
        |(n, b, e)| get_rule(n, b, e),
    );
    view! {
        <Suspense fallback=|| view! { <p>"Loading the rule…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(r) => view! { <Rule r=r/> }.into_any(),
                    Err(e) => view! {
                        <Title text="No such rule · Rules"/>
                        <h1>"No such rule"</h1>
                        <p role="alert">{e.to_string()}</p>
                        <p><a href="/rules">"All rules"</a></p>
                    }.into_any(),
                }
            })}
        </Suspense>
    }
}

fn rule_link(r: &RuleLine) -> impl IntoView + use<> {
    view! { <a href=r.href.clone()><span class="rule-number">{r.number.clone()}</span>" "{r.heading.clone()}</a> }
}

#[component]
fn Rule(r: RuleData) -> impl IntoView {
    let title = format!("{} {}", r.number, r.heading);
    let full = r.book == "full";
    let other_title = if full {
        "GenCon tournament rulebook"
    } else {
        "full rulebook"
    };
    let crumbs = r
        .parents
        .iter()
        .map(|p| view! { <li><a href=p.href.clone()>{format!("{} {}", p.number, p.heading)}</a></li> })
        .collect_view();
    let checked = if r.engine.is_empty() {
        view! { <p data-testid="engine-checks">"Mentat's engine does not check this rule (yet): a judge rules on it at the table."</p> }.into_any()
    } else {
        let total: u32 = r.engine.iter().map(|c| c.count).sum();
        view! {
            <p data-testid="engine-checks">{format!("Yes: the engine cites this rule {total} time{} when it replays a log, in:", if total == 1 { "" } else { "s" })}</p>
            <ul>{r.engine.iter().map(|c| view! { <li><code>{c.file.clone()}</code>{format!(" ({}×)", c.count)}</li> }).collect_view()}</ul>
        }.into_any()
    };
    let examples = if r.examples.is_empty() {
        view! { <p>"No example log breaks this rule yet."</p> }.into_any()
    } else {
        r.examples.into_iter().map(|ex| {
            let reported = ex.reported.clone();
            let lines = ex.text.lines().enumerate().map(|(i, l)| {
                let n = (i + 1) as u32;
                let hit = reported.as_ref().is_some_and(|p| p.line == n);
                view! { <span class="log-line" class:bad=hit><span class="ln" aria-hidden="true">{n}</span>{l.to_owned()}"\n"</span> }
            }).collect_view();
            view! {
                <figure class="example">
                    <figcaption><code>{ex.file.clone()}</code></figcaption>
                    <pre tabindex="0" class="log">{lines}</pre>
                    {reported.map(|p| view! {
                        <p class="problem">{format!("Mentat reports line {}, column {}: {}", p.line, p.col, p.message)}</p>
                    })}
                </figure>
            }
        }).collect_view().into_any()
    };
    // Which of the full rulebook's two printed versions this page shows.
    let edition = r.edition.clone().map(|ed| {
        let other = r.other.other_edition.clone();
        let text = match (ed.as_str(), other.is_some()) {
            ("revised", true) => "The full rulebook prints two versions of this rule. This page shows the revised text, the one Mentat plays by default (ruling 28); the original text is an option an event may choose:",
            ("revised", false) => "Only the revised version of this rule has it; Mentat plays the revised text by default (ruling 28).",
            (_, true) => "The full rulebook prints two versions of this rule. This page shows the original text, an option an event may choose; Mentat plays the revised text by default (ruling 28):",
            (_, false) => "Only the original version of this rule has it, an option an event may choose; Mentat plays the revised text by default (ruling 28), where this rule does not apply.",
        };
        view! {
            <p class="notice" data-testid="rule-edition">
                {text}
                {other.map(|o| view! { " "{rule_link(&o)} })}
            </p>
        }
    });
    let other = r.other.clone();
    let counterpart = if other.same.is_empty()
        && other.same_number.is_none()
        && other.cited_by_gencon.is_empty()
    {
        if r.in_rulebook {
            view! { <p>{format!("The {other_title} has no such rule.")}</p> }.into_any()
        } else {
            view! { <p>"The full rulebook has no rule by this number either."</p> }.into_any()
        }
    } else {
        view! {
            {(!other.same.is_empty()).then(|| view! {
                <p>{if r.in_rulebook { format!("The same rule in the {other_title}:") } else { "The full rulebook's rule it cites:".to_owned() }}</p>
                <ul class="rule-list">{other.same.iter().map(|s| view! { <li>{rule_link(s)}</li> }).collect_view()}</ul>
            })}
            {other.same_number.clone().map(|s| view! {
                <p data-testid="same-number">{format!("The {other_title}'s {} is another rule: ", s.number)}{rule_link(&s)}"."</p>
            })}
            {(!other.cited_by_gencon.is_empty()).then(|| view! {
                <p>{format!("The GenCon rulebook cites this rule as {} without printing it.", other.cited_by_gencon.join(", "))}</p>
            })}
        }.into_any()
    };
    view! {
        <Title text=format!("{title} · Rules")/>
        <nav aria-label="Where this rule sits">
            <ol class="crumbs">
                <li><a href="/rules">"Rules"</a></li>
                <li><a href=format!("/rules?book={}#index", r.book)>{if full { "Full rulebook" } else { "GenCon rulebook" }}</a></li>
                <li>{r.chapter.clone()}</li>
                {crumbs}
            </ol>
        </nav>
        <h1 data-testid="rule-title">{title}</h1>
        <p class="book-line" data-testid="rule-book">{format!("In the {}", r.book_title)}</p>
        {edition}
        {(!r.in_rulebook).then(|| view! { <p class="notice">"This number is cited by the GenCon rulebook but is not part of it."</p> })}
        <section aria-labelledby="summary">
            <h2 id="summary">"In short"</h2>
            <p class="rule-summary">{r.summary.clone()}</p>
            <p class="hint">"Mentat's summary, not the rulebook's wording: the rulebook decides."</p>
            {(!r.anchors.is_empty()).then(|| view! {
                <p class="hint" data-testid="rule-anchors">"The full rulebook cites it as "
                    {r.anchors.iter().enumerate().map(|(i, a)| view! { {(i > 0).then_some(", ")}<code>{a.clone()}</code> }).collect_view()}
                    "."
                </p>
            })}
        </section>
        <section aria-labelledby="other-book">
            <h2 id="other-book">{format!("In the {other_title}")}</h2>
            {counterpart}
        </section>
        {(!r.children.is_empty()).then(|| view! {
            <section aria-labelledby="children">
                <h2 id="children">"Rules under it"</h2>
                <RuleList rules=r.children.clone()/>
            </section>
        })}
        <section aria-labelledby="rulings">
            <h2 id="rulings">"Rulings"</h2>
            {if r.rulings.is_empty() {
                view! { <p>"No ruling of Mentat's touches this rule."</p> }.into_any()
            } else {
                view! { <ul class="rulings">{r.rulings.iter().map(|g| view! {
                    <li><strong>{format!("Ruling {}: {}.", g.number, g.title)}</strong>" "{g.text.clone()}</li>
                }).collect_view()}</ul> }.into_any()
            }}
        </section>
        <section aria-labelledby="engine">
            <h2 id="engine">"Does the engine check it?"</h2>
            {checked}
        </section>
        <section aria-labelledby="examples">
            <h2 id="examples">"Example log that breaks it"</h2>
            {examples}
        </section>
        <nav aria-label="Neighbouring rules" class="prev-next">
            {r.previous.map(|p| view! { <a rel="prev" href=p.href.clone()>{format!("← {} {}", p.number, p.heading)}</a> })}
            {r.next.map(|n| view! { <a rel="next" href=n.href.clone()>{format!("{} {} →", n.number, n.heading)}</a> })}
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::address;

    #[test]
    fn addresses_split_into_number_book_and_edition() {
        let s = |a: &str, b: &str, c: &str| (a.to_owned(), b.to_owned(), c.to_owned());
        assert_eq!(address("/rules/2.07.02"), s("2.07.02", "", ""));
        assert_eq!(address("/rules/full/1.06.02"), s("1.06.02", "full", ""));
        assert_eq!(
            address("/rules/full/2.09.05/original"),
            s("2.09.05", "full", "original")
        );
    }
}
