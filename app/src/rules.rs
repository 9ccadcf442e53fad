//! Server functions for the rule pages: the index, search, and one rule with its rulings, the
//! engine's checks and an example log that breaks it. Public: rules are no secret.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::replay::Problem;

/// A rule as a line of a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleLine {
    pub number: String,
    pub heading: String,
    pub summary: String,
    pub checked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSection {
    pub number: String,
    pub heading: String,
    pub rules: Vec<RuleLine>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesIndex {
    pub query: String,
    pub hits: Vec<RuleLine>,
    /// Chapter name → its sections (two-part numbers) with the rules under them.
    pub chapters: Vec<(String, Vec<RuleSection>)>,
    pub total: usize,
    pub checked: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingView {
    pub number: u32,
    pub title: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CitationView {
    pub file: String,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExampleView {
    pub file: String,
    pub text: String,
    /// What the engine reports on it: the violation this example exists for.
    pub reported: Option<Problem>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulePage {
    pub number: String,
    pub heading: String,
    pub summary: String,
    pub in_rulebook: bool,
    pub chapter: String,
    /// From the section down to the direct parent.
    pub parents: Vec<RuleLine>,
    pub children: Vec<RuleLine>,
    pub previous: Option<RuleLine>,
    pub next: Option<RuleLine>,
    pub rulings: Vec<RulingView>,
    pub engine: Vec<CitationView>,
    pub examples: Vec<ExampleView>,
}

#[cfg(feature = "ssr")]
fn line(e: &rulebook::Entry) -> RuleLine {
    RuleLine {
        number: e.number.to_string(),
        heading: e.heading.to_owned(),
        summary: e.summary.to_owned(),
        checked: e.is_checked_by_engine(),
    }
}

#[server]
pub async fn rules_overview(query: String) -> Result<RulesIndex, AppError> {
    let all = rulebook::all();
    let hits = rulebook::search(&query)
        .into_iter()
        .take(60)
        .map(line)
        .collect();
    let mut chapters: Vec<(String, Vec<RuleSection>)> = Vec::new();
    for e in all {
        let chapter = rulebook::chapter_name(e.number);
        if chapters.last().is_none_or(|(c, _)| c != chapter) {
            chapters.push((chapter.to_owned(), Vec::new()));
        }
        let Some((_, sections)) = chapters.last_mut() else {
            continue;
        };
        // A section is a two-part number (1.06); chapter 0's rules are all two-part, and so
        // are the cited-only numbers (2.13): each is its own line under one "section".
        let section_number = {
            let parts = e.number.parts();
            if parts.first() == Some(&0) || parts.len() < 2 {
                "0".to_owned()
            } else {
                format!("{}.{:02}", parts[0], parts[1])
            }
        };
        if sections.last().is_none_or(|s| s.number != section_number) {
            let heading = if section_number == "0" {
                "Setup of the game".to_owned()
            } else {
                dune::Rule::parse(&section_number)
                    .ok()
                    .and_then(rulebook::get)
                    .map_or_else(|| "General".to_owned(), |s| s.heading.to_owned())
            };
            sections.push(RuleSection {
                number: section_number,
                heading,
                rules: Vec::new(),
            });
        }
        if let Some(s) = sections.last_mut() {
            s.rules.push(line(e));
        }
    }
    Ok(RulesIndex {
        query,
        hits,
        chapters,
        total: all.len(),
        checked: all.iter().filter(|e| e.is_checked_by_engine()).count(),
    })
}

#[server]
pub async fn get_rule(number: String) -> Result<RulePage, AppError> {
    use crate::server::fail;
    let rule = match dune::Rule::parse(number.trim()) {
        Ok(r) => r,
        Err(e) => {
            return fail(AppError::NotFound(format!(
                "\"{number}\" is not a rule number: {e}."
            )));
        }
    };
    let Some(entry) = rulebook::get(rule) else {
        return fail(AppError::NotFound(format!(
            "The GenCon rulebook has no rule {rule}. Search for it by words on the rules page."
        )));
    };
    let all = rulebook::all();
    let at = all.iter().position(|e| e.number == rule).unwrap_or(0);
    let mut parents = Vec::new();
    let mut up = rulebook::parent(rule);
    while let Some(p) = up {
        parents.push(line(p));
        up = rulebook::parent(p.number);
    }
    parents.reverse();
    let examples = entry
        .examples
        .iter()
        .map(|ex| {
            let replayed = crate::replay::bridge::replay(ex.text, true);
            ExampleView {
                file: ex.file.to_owned(),
                text: ex.text.to_owned(),
                reported: replayed.verification.problems.into_iter().next(),
            }
        })
        .collect();
    Ok(RulePage {
        number: rule.to_string(),
        heading: entry.heading.to_owned(),
        summary: entry.summary.to_owned(),
        in_rulebook: entry.in_rulebook,
        chapter: rulebook::chapter_name(rule).to_owned(),
        parents,
        children: rulebook::children(rule).map(line).collect(),
        previous: at.checked_sub(1).and_then(|i| all.get(i)).map(line),
        next: all.get(at + 1).map(line),
        rulings: entry
            .rulings
            .iter()
            .filter_map(|n| rulebook::ruling(*n))
            .map(|r| RulingView {
                number: r.number,
                title: r.title.to_owned(),
                text: r.text.to_owned(),
            })
            .collect(),
        engine: entry
            .engine
            .iter()
            .map(|c| CitationView {
                file: c.file.to_owned(),
                count: c.count,
            })
            .collect(),
        examples,
    })
}
