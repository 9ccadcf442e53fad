//! Text in, text out: what the `mentat replay` command prints.
//!
//! ```
//! let outcome = engine::report::replay_text("[Factions \"1=AT 2=HK\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\n");
//! assert_eq!(outcome.exit_code(), 0);
//! println!("{}", outcome.to_human());
//! ```

use serde_json::{Map, Value, json};

use crate::dgn::{self, ParseErrors, Section, Stmt};
use crate::replay::{ReplayOptions, ReplayReport, TurnSummary, replay};

/// What `--parse-only` reports for a readable file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSummary {
    pub tags: usize,
    pub events: usize,
    /// The highest turn header (`T<n>`) in the log.
    pub turns: u32,
}

/// Checks the notation alone.
pub fn parse_only(src: &str) -> Result<ParseSummary, ParseErrors> {
    let game = dgn::parse(src)?;
    let turns = game
        .events
        .iter()
        .filter(|e| e.section == Section::Turn)
        .filter_map(|e| match e.stmt {
            Stmt::Turn { number, .. } => Some(number),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    Ok(ParseSummary {
        tags: game.tags.len(),
        events: game.events.len(),
        turns,
    })
}

/// `mentat replay --report FILE`: the replay, and the game report derived from it (the JSON
/// `mentat standings` reads), or why none can be derived. `None` when the file is not DGN.
pub fn report_text(src: &str) -> (Outcome, Option<Result<String, String>>) {
    match dgn::parse(src) {
        Ok(game) => {
            let r = replay(&game, &ReplayOptions::default());
            let report = crate::game_report::derive_report(&game, &r)
                .map_err(|e| e.to_string())
                .and_then(|rep| serde_json::to_string_pretty(&rep).map_err(|e| e.to_string()));
            (Outcome::Replayed(Box::new(r)), Some(report))
        }
        Err(e) => (Outcome::Unreadable(e), None),
    }
}

/// The result of a command, ready to print.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// `--parse-only` on a readable file.
    Parsed(ParseSummary),
    /// The file is not DGN.
    Unreadable(ParseErrors),
    /// The game was replayed (with or without violations).
    Replayed(Box<ReplayReport>),
}

/// `mentat replay --parse-only FILE`.
pub fn parse_only_text(src: &str) -> Outcome {
    match parse_only(src) {
        Ok(s) => Outcome::Parsed(s),
        Err(e) => Outcome::Unreadable(e),
    }
}

/// `mentat replay FILE`: parse, then replay in audit mode (sealed entries are checked).
pub fn replay_text(src: &str) -> Outcome {
    replay_text_with(src, &ReplayOptions::default())
}

/// Replay with explicit options (public mode: `ReplayOptions::public()`).
pub fn replay_text_with(src: &str, opts: &ReplayOptions) -> Outcome {
    match dgn::parse(src) {
        Ok(game) => Outcome::Replayed(Box::new(replay(&game, opts))),
        Err(e) => Outcome::Unreadable(e),
    }
}

impl Outcome {
    /// 0 legal (or readable, for `--parse-only`), 1 violations, 2 not readable as DGN.
    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Parsed(_) => 0,
            Outcome::Unreadable(_) => 2,
            Outcome::Replayed(r) if r.is_legal() => 0,
            Outcome::Replayed(_) => 1,
        }
    }

    pub fn is_ok(&self) -> bool {
        self.exit_code() == 0
    }

    /// A report a judge can read.
    pub fn to_human(&self) -> String {
        match self {
            Outcome::Parsed(s) => format!(
                "OK: readable DGN ({} tags, {} statements, {} turns)\n",
                s.tags, s.events, s.turns
            ),
            Outcome::Unreadable(errs) => {
                let mut out = format!(
                    "Not readable as DGN: {} syntax error{}\n",
                    errs.0.len(),
                    if errs.0.len() == 1 { "" } else { "s" }
                );
                for e in &errs.0 {
                    out.push_str(&format!("  {e}\n"));
                }
                out
            }
            Outcome::Replayed(r) => {
                let turns = r.turns.last().map_or(0, |t| t.turn);
                let mut out = if r.is_legal() {
                    format!(
                        "OK: {turns} turn{} replayed, no violation\n",
                        if turns == 1 { "" } else { "s" }
                    )
                } else {
                    let n = r.violations.len();
                    format!(
                        "{n} violation{} in {turns} turn{}:\n",
                        if n == 1 { "" } else { "s" },
                        if turns == 1 { "" } else { "s" }
                    )
                };
                for v in &r.violations {
                    let also = if v.see_also.is_empty() {
                        String::new()
                    } else {
                        let rules: Vec<String> = v.see_also.iter().map(|r| r.to_string()).collect();
                        format!(" (see also {})", rules.join(", "))
                    };
                    out.push_str(&format!(
                        "  line {}, col {} — turn {}, {} — {}: {}{also}\n",
                        v.pos.line,
                        v.pos.col,
                        v.turn,
                        v.phase,
                        v.cite(),
                        v.message
                    ));
                }
                if !r.not_checked.is_empty() {
                    out.push_str("Not checked (deal and bribe terms for the judge, 1.12.00):\n");
                    for n in &r.not_checked {
                        out.push_str(&format!(
                            "  line {}, col {} — turn {}, {} — {}\n",
                            n.pos.line, n.pos.col, n.turn, n.phase, n.text
                        ));
                    }
                }
                if let Some(w) = &r.winner {
                    let names: Vec<&str> = w.factions.iter().map(|f| f.code()).collect();
                    out.push_str(&format!(
                        "Winner: {} ({}) in turn {}\n",
                        names.join("+"),
                        w.kind,
                        w.turn
                    ));
                }
                out
            }
        }
    }

    /// Machine-readable report:
    /// `{"ok":…,"ruleset":…,"violations":[{"line","col","turn","phase","rule","book","edition","page","message","see_also"}],"turns":[…]}`
    /// (`book`: `001` or `000`, the rulebook the rule number is read in; `edition`: `revised`
    /// unless the full rulebook's first-printed text is meant; `page`: the rule's address;
    /// `see_also`: other rules that say the same as `rule`, possibly empty), and
    /// `"not_checked":[{"line","col","turn","phase","text"}]`: deal and bribe terms the engine
    /// cannot check.
    pub fn to_json(&self) -> String {
        let v = match self {
            Outcome::Parsed(s) => {
                json!({"ok": true, "tags": s.tags, "events": s.events, "turns": s.turns})
            }
            Outcome::Unreadable(errs) => json!({
                "ok": false,
                "readable": false,
                "errors": errs.0.iter().map(|e| json!({
                    "line": e.pos.line, "col": e.pos.col, "expected": e.expected, "found": e.found, "message": e.to_string(),
                })).collect::<Vec<_>>(),
            }),
            Outcome::Replayed(r) => {
                let mut o = json!({
                    "ok": r.is_legal(),
                    "ruleset": r.state.options().ruleset,
                    "violations": r.violations.iter().map(|v| json!({
                        "line": v.pos.line, "col": v.pos.col, "turn": v.turn, "phase": v.phase.name(), "rule": v.rule, "book": v.book, "edition": v.edition, "page": v.cite().href(), "message": v.message, "see_also": v.see_also,
                    })).collect::<Vec<_>>(),
                    "turns": r.turns.iter().map(turn_json).collect::<Vec<_>>(),
                    "kinds": kinds_json(r.state.in_play()),
                    "not_checked": r.not_checked.iter().map(|n| json!({
                        "line": n.pos.line, "col": n.pos.col, "turn": n.turn, "phase": n.phase.name(), "text": n.text,
                    })).collect::<Vec<_>>(),
                });
                if let Some(w) = &r.winner {
                    o["winner"] = json!({"factions": w.factions.iter().map(|f| f.code()).collect::<Vec<_>>(), "type": w.kind, "turn": w.turn});
                }
                o
            }
        };
        v.to_string()
    }
}

/// The names of the kinds of force of the factions at the table, where a faction has more than
/// plain forces (`{"IX": {"plain": "Suboid", "starred": "Cyborg"}, "BG": {"flipped": "advisor"}}`):
/// what a page calls a starred token or an advisor of that faction.
pub fn kinds_json(factions: dune::FactionSet) -> Value {
    let mut out = Map::new();
    for f in factions.iter() {
        let k = crate::factions::kinds(f);
        if k.starred.is_none() && k.flipped.is_none() && k.plain.name == "force" {
            continue;
        }
        let mut names = Map::new();
        names.insert("plain".into(), json!(k.plain.name));
        if let Some((_, s)) = k.starred {
            names.insert("starred".into(), json!(s.name));
        }
        if let Some(x) = k.flipped {
            names.insert("flipped".into(), json!(x.name));
        }
        out.insert(f.code().to_string(), Value::Object(names));
    }
    Value::Object(out)
}

/// One turn's (or phase's) summary as `--json` prints it under `"turns"`: pages built on that JSON
/// read snapshots ([`crate::replay::ReplayReport::phases`]) the same way.
pub fn turn_json(t: &TurnSummary) -> Value {
    let per_faction = |pairs: Vec<(&str, Value)>| -> Value {
        Value::Object(
            pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<Map<_, _>>(),
        )
    };
    let mut forces = Map::new();
    for (terr, list) in &t.forces {
        forces.insert(
            terr.code().to_string(),
            per_faction(
                list.iter()
                    .map(|(f, s)| (f.code(), json!(s.to_string())))
                    .collect(),
            ),
        );
    }
    json!({
        "turn": t.turn,
        "phase": t.phase.name(),
        "storm": t.storm.map(|s| s.notation()),
        "hms": t.hms.map(|(terr, s)| json!({"territory": terr.code(), "sector": s.notation()})),
        "spice": per_faction(t.spice.iter().map(|(f, n)| (f.code(), json!(n))).collect()),
        "forces": forces,
        "reserves": per_faction(t.reserves.iter().map(|(f, n)| (f.code(), json!(n.to_string()))).collect()),
        "tanks": per_faction(t.tanks.iter().map(|(f, n)| (f.code(), json!(n.to_string()))).collect()),
        "hands": per_faction(t.hands.iter().map(|(f, n)| (f.code(), json!(n))).collect()),
        "worms": t.worms,
        "alliances": t.alliances.iter().map(|(a, b)| json!([a.code(), b.code()])).collect::<Vec<_>>(),
        "spice_on_map": Value::Object(t.spice_on_map.iter().map(|(x, n)| (x.code().to_string(), json!(n))).collect()),
        "control": Value::Object(t.control.iter().map(|(x, f)| (x.code().to_string(), json!(f.code()))).collect()),
        "shield_wall_counts": t.shield_wall_counts,
        "stronghold_cards": Value::Object(t.stronghold_cards.iter().map(|(x, f)| (x.code().to_string(), json!(f.code()))).collect()),
        "leaders": per_faction(t.leaders.iter().map(|(f, ls)| (f.code(), json!(ls.iter().map(|l| l.code()).collect::<Vec<_>>()))).collect()),
        "kwisatz": t.kwisatz.map(|k| json!({"losses": k.losses, "active": k.active, "dead": k.dead})),
        "win_attempts": t.win_attempts.iter().map(|w| json!({
            "faction": w.faction.code(),
            "strongholds": w.counted.iter().map(|s| s.code()).collect::<Vec<_>>(),
            "own": w.own.iter().map(|s| s.code()).collect::<Vec<_>>(),
            "ally": w.ally.map(|a| a.code()),
        })).collect::<Vec<_>>(),
        "no_fields": t.no_fields.iter().map(|n| json!({
            "territory": n.territory.code(),
            "sector": n.sector.map(|s| s.notation()),
            "value": n.value,
        })).collect::<Vec<_>>(),
        "no_field_front": t.no_field_front,
        "tokens": t.tokens,
        "cards": t.cards.as_ref().map(|cs| per_faction(cs.iter().map(|(f, hand)| (f.code(), json!(hand.iter().map(|c| c.map_or("?", |c| c.code())).collect::<Vec<_>>()))).collect())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 4\n";

    #[test]
    fn exit_codes() {
        assert_eq!(parse_only_text(TINY).exit_code(), 0);
        assert_eq!(
            replay_text(TINY).exit_code(),
            0,
            "{}",
            replay_text(TINY).to_human()
        );
        assert_eq!(replay_text("T0\nQ\n").exit_code(), 2);
        let bad = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 5\n";
        assert_eq!(replay_text(bad).exit_code(), 1);
    }

    #[test]
    fn json_shape() {
        let bad = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 5\nT1\n";
        let v: Value = serde_json::from_str(&replay_text(bad).to_json()).unwrap();
        assert_eq!(v["ok"], json!(false));
        assert_eq!(v["violations"][0]["rule"], json!("0.16"));
        assert_eq!(v["violations"][0]["book"], json!("001"));
        assert_eq!(v["violations"][0]["page"], json!("/rules/gencon/0.16"));
        assert_eq!(v["violations"][0]["line"], json!(3));
        assert_eq!(v["turns"][0]["storm"], json!(4));
        assert_eq!(v["turns"][0]["forces"]["ARK"]["AT"], json!("10"));
        let v: Value = serde_json::from_str(&replay_text("T0\nQ\n").to_json()).unwrap();
        assert_eq!(v["errors"][0]["line"], json!(2));
    }

    #[test]
    fn a_full_format_game_cites_the_full_rulebooks_number() {
        // GenCon's occupancy limit 1.06.03.05 is 000's 1.06.02.05 (000 has no "one force
        // shipment" item); 000's own 1.06.03.05 is another rule.
        let log = include_str!(
            "../tests/games/illegal-1.06.03.05-full-format-ship-into-full-stronghold.dgn"
        );
        let out = replay_text(log);
        let v: Value = serde_json::from_str(&out.to_json()).unwrap();
        let first = &v["violations"][0];
        assert_eq!(
            (&first["rule"], &first["book"], &first["page"]),
            (
                &json!("1.06.02.05"),
                &json!("000"),
                &json!("/rules/full/1.06.02.05")
            )
        );
        assert!(out.to_human().contains("— 000 1.06.02.05: HK cannot ship"));
    }

    #[test]
    fn human_report_names_rule_and_position() {
        let bad = "[Factions \"1=AT 2=HK\"] [Mode \"Basic\"]\nT0\nSTORM0 HK 1 AT 2 -> 5\n";
        let text = replay_text(bad).to_human();
        assert!(text.starts_with("1 violation"), "{text}");
        assert!(
            text.contains("line 3, col 1") && text.contains("0.16"),
            "{text}"
        );
    }
}
