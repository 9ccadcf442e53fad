//! The rules at hand: `/rules` (search by number or words, and the whole index) and
//! `/rules/<number>` (one rule: heading, Mentat's summary, rulings, where the engine checks it,
//! an example log that breaks it). A judge called to a table taps "Rules", types the number or a
//! word, and is there. Plain server-rendered HTML and GET forms: they work without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::rules::{RuleLine, RulePage as RuleData, get_rule, rules_overview};

fn rule_href(number: &str) -> String {
    format!("/rules/{number}")
}

/// The search box, on the index and on every rule page.
#[component]
fn RuleSearch(#[prop(into)] value: String) -> impl IntoView {
    view! {
        <form method="get" action="/rules" class="find rule-search" role="search">
            <div class="field">
                <label for="rule-q">"Rule number or words"</label>
                <input id="rule-q" name="q" type="search" value=value inputmode="search"
                    placeholder="1.06.03.05 or occupancy" autocomplete="off" autocapitalize="none"/>
            </div>
            <button type="submit">"Find the rule"</button>
        </form>
    }
}

#[component]
fn RuleList(rules: Vec<RuleLine>, #[prop(optional)] summaries: bool) -> impl IntoView {
    view! {
        <ul class="rule-list">
            {rules.into_iter().map(|r| view! {
                <li>
                    <a href=rule_href(&r.number)><span class="rule-number">{r.number.clone()}</span>" "{r.heading.clone()}</a>
                    {r.checked.then(|| view! { <span class="badge" title="The engine checks this rule">"checked"</span> })}
                    {summaries.then(|| view! { <p class="hint">{r.summary.clone()}</p> })}
                </li>
            }).collect_view()}
        </ul>
    }
}

#[component]
pub fn RulesPage() -> impl IntoView {
    let query = use_query_map();
    let q = Memo::new(move |_| query.read().get("q").unwrap_or_default());
    let data = Resource::new(move || q.get(), rules_overview);
    view! {
        <Title text="Rules"/>
        <main class="page narrow rules-page">
            <h1>"Rules"</h1>
            <p class="hint">"The GenCon tournament rulebook (version 2.13.3), rule by rule, in Mentat's own words. The rulebook itself is what counts."</p>
            <RuleSearch value=q.get_untracked()/>
            <Suspense fallback=|| view! { <p>"Loading the rules…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                        Ok(d) => {
                            let searched = !d.query.trim().is_empty();
                            // A number typed whole opens that rule right here: two taps from
                            // the header to the rule.
                            let exact = d.hits.first().filter(|h| {
                                searched && !d.hits.is_empty() && normalised(&d.query) == h.number
                            }).map(|h| h.number.clone());
                            view! {
                                {exact.clone().map(|n| view! { <RuleBody number=n/> })}
                                {(searched && exact.is_none()).then(|| view! {
                                    <section aria-labelledby="hits">
                                        <h2 id="hits">{format!("{} rule{} found for “{}”", d.hits.len(), if d.hits.len() == 1 { "" } else { "s" }, d.query.trim())}</h2>
                                        {if d.hits.is_empty() {
                                            view! { <p role="status">"No rule matches. Try fewer words, or the start of a word (\"ornith\")."</p> }.into_any()
                                        } else {
                                            view! { <RuleList rules=d.hits.clone() summaries=true/> }.into_any()
                                        }}
                                    </section>
                                })}
                                <section aria-labelledby="index">
                                    <h2 id="index">"All rules"</h2>
                                    <p class="hint">{format!("{} rule numbers; the engine checks {} of them.", d.total, d.checked)}</p>
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

/// A number as typed ("1.6.3.5") in the rulebook's form ("1.06.03.05").
fn normalised(q: &str) -> String {
    let parts: Vec<&str> = q
        .trim()
        .split(['.', ' ', ','])
        .filter(|p| !p.is_empty())
        .collect();
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push('.');
            if p.len() == 1 {
                out.push('0');
            }
        }
        out.push_str(p);
    }
    out
}

#[component]
pub fn RulePage() -> impl IntoView {
    let params = use_params_map();
    let number = Memo::new(move |_| params.read().get("number").unwrap_or_default());
    view! {
        <main class="page narrow rule-page">
            <RuleSearch value=String::new()/>
            {move || view! { <RuleBody number=number.get()/> }}
        </main>
    }
}

#[component]
fn RuleBody(number: String) -> impl IntoView {
    let data = Resource::new(move || number.clone(), get_rule);
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

#[component]
fn Rule(r: RuleData) -> impl IntoView {
    let title = format!("{} {}", r.number, r.heading);
    let crumbs = r
        .parents
        .iter()
        .map(|p| view! { <li><a href=rule_href(&p.number)>{format!("{} {}", p.number, p.heading)}</a></li> })
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
    view! {
        <Title text=format!("{title} · Rules")/>
        <nav aria-label="Where this rule sits">
            <ol class="crumbs">
                <li><a href="/rules">"Rules"</a></li>
                <li>{r.chapter.clone()}</li>
                {crumbs}
            </ol>
        </nav>
        <h1 data-testid="rule-title">{title}</h1>
        {(!r.in_rulebook).then(|| view! { <p class="notice">"This number is cited by the GenCon rulebook but is not part of it."</p> })}
        <section aria-labelledby="summary">
            <h2 id="summary">"In short"</h2>
            <p class="rule-summary">{r.summary.clone()}</p>
            <p class="hint">"Mentat's summary, not the rulebook's wording: the rulebook decides."</p>
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
            {r.previous.map(|p| view! { <a rel="prev" href=rule_href(&p.number)>{format!("← {} {}", p.number, p.heading)}</a> })}
            {r.next.map(|n| view! { <a rel="next" href=rule_href(&n.number)>{format!("{} {} →", n.number, n.heading)}</a> })}
        </nav>
    }
}
