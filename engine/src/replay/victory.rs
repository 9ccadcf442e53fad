//! The log's victory claim (`P win …`) against the replay's own computation: the violation names
//! the condition the claim fails, by the rule that states it, with what the replay finds instead.
//!
//! A claim fails for one of two reasons, and the citation follows the reason:
//! - a **criterion of its own kind** fails on the board: too few strongholds (1.09.02.01,
//!   1.09.02.02, and the variant or tournament rule when the count leans on the Shield Wall,
//!   4.02.00, 4.02.01, 4.02.06, or on advisors, 2.02.12), the winners are not an alliance, a
//!   special victory's criterion (2.04.09.00-.02 with 4.01.19, 2.06.08, the prediction 2.02.03),
//!   the end of the game (1.09.05), the ally's share (2.04.12, 2.06.11);
//! - its criteria hold but **another victory comes first**: a qualifier earlier in storm order
//!   (1.09.03; 4.01.13 once the Shield Wall makes a sixth stronghold), the prediction (2.02.03),
//!   the Fremen special victory before the Guild's (rulings.md 7): the rule that gives the other
//!   victory precedence.
//!
//! A faction's own kinds of victory (its special victory, the prediction) are judged by its
//! module ([`crate::factions::FactionRules::victory_claim`]); the stronghold victories and the end
//! of the game (1.09.02, 1.09.05) here. The order in which victories are computed is
//! [`Replay::compute_winner`]'s; this module only explains a claim that differs from it.

use super::{Replay, WinResult};
use crate::board::Territory;
use crate::dgn::WinClaim;
use dune::{Faction, Rule, Stronghold, WinType, rule};

/// Why a claimed victory fails: the rule whose condition it misses, the judge's words for what
/// the board shows, and other rules that say the same (see also).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClaimFailure {
    pub rule: Rule,
    pub why: String,
    pub see_also: Vec<Rule>,
}

impl ClaimFailure {
    pub(crate) fn new(rule: Rule, why: impl Into<String>) -> ClaimFailure {
        ClaimFailure {
            rule,
            why: why.into(),
            see_also: Vec::new(),
        }
    }

    pub(crate) fn also(mut self, rules: &[Rule]) -> ClaimFailure {
        self.see_also.extend_from_slice(rules);
        self
    }
}

/// What a faction's rules say about a claimed victory (see
/// [`crate::factions::FactionRules::victory_claim`]).
pub(crate) enum ClaimCheck {
    /// Not a victory this faction's rules give.
    NotMine,
    /// Every criterion of the victory holds on the board.
    Holds,
    /// This criterion fails.
    Fails(ClaimFailure),
}

/// Names for messages: `AT`, `AT and HK`.
fn names(fs: &[Faction]) -> String {
    Replay::list(fs)
}

/// "wins" after one name, "win" after two.
pub(crate) fn wins(fs: &[Faction]) -> &'static str {
    if fs.len() == 1 { "wins" } else { "win" }
}

fn stronghold_names(list: &[Stronghold]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter().map(|s| s.code()).collect::<Vec<_>>().join(", ")
}

/// A victory won during the Mentat Pause itself (a stronghold victory or the prediction), which
/// comes before any end-of-game victory ("no faction has won", 1.09.05, 2.04.09.00, 2.06.08).
pub(crate) fn won_in_play(w: &WinResult) -> bool {
    matches!(
        w.kind,
        WinType::SoloStronghold | WinType::AlliedStronghold | WinType::BgPrediction
    )
}

impl Replay {
    /// `P win …`: the log's claim against the computed winner.
    pub(crate) fn check_win_claim(
        &mut self,
        claim: &WinClaim,
        control: &[(Stronghold, Faction)],
        computed: Option<&WinResult>,
    ) {
        match (claim, computed) {
            (WinClaim::None, None) => {}
            (WinClaim::None, Some(w)) => {
                let rule = self.win_rule(None, Some(w));
                let evidence = self.win_evidence(w, control);
                self.v(
                    rule,
                    format!(
                        "{} {} ({}) this turn: {evidence}; the log says nobody wins",
                        names(&w.factions),
                        wins(&w.factions),
                        w.kind.name()
                    ),
                );
            }
            (WinClaim::Win { factions, kind }, computed) => {
                let mut claimed = factions.clone();
                claimed.sort();
                if let Some(w) = computed
                    && w.factions == claimed
                    && w.kind == *kind
                {
                    return;
                }
                let instead = match computed {
                    Some(w) => format!(
                        "the replay finds {} {} ({}, {})",
                        names(&w.factions),
                        wins(&w.factions),
                        w.kind.name(),
                        w.rule()
                    ),
                    None => "nobody wins this turn".to_string(),
                };
                let head = format!(
                    "{} {} not win ({})",
                    names(&claimed),
                    if claimed.len() == 1 { "does" } else { "do" },
                    kind.name()
                );
                if let Some(f) = self.claim_failure(&claimed, *kind, control, computed) {
                    self.v_also(f.rule, &f.see_also, format!("{head}: {}; {instead}", f.why));
                    return;
                }
                // The claim meets its own criteria: another victory comes first.
                let Some(w) = computed else {
                    // Nothing computed although the claim holds (a claim the replay cannot
                    // judge): the rule of the claimed kind.
                    let rule = self.win_rule(Some((&claimed, *kind)), None);
                    self.v(rule, format!("{head}: {instead}"));
                    return;
                };
                let later = self
                    .stronghold_qualifiers(control)
                    .iter()
                    .skip(1)
                    .any(|q| q.factions == claimed && q.kind == *kind);
                let (rule, see_also) = if later && self.st.shield_wall_counts() {
                    (rule!("4.01.13"), vec![rule!("1.09.03")])
                } else if later {
                    (rule!("1.09.03"), Vec::new())
                } else {
                    (self.win_rule(Some((&claimed, *kind)), Some(w)), Vec::new())
                };
                let why = if later {
                    format!(
                        "both meet the stronghold requirement and storm order puts {} first",
                        names(&w.factions)
                    )
                } else {
                    format!(
                        "the {} comes first ({})",
                        w.kind.name(),
                        self.win_evidence(w, control)
                    )
                };
                self.v_also(rule, &see_also, format!("{head}: {why}; {instead}"));
            }
        }
    }

    /// The first condition of the claimed victory that the board does not meet, by the rule that
    /// states it; `None` when every condition holds.
    pub(crate) fn claim_failure(
        &self,
        claimed: &[Faction],
        kind: WinType,
        control: &[(Stronghold, Faction)],
        computed: Option<&WinResult>,
    ) -> Option<ClaimFailure> {
        if let Some(f) = claimed.iter().find(|&&f| !self.st.plays(f)) {
            return Some(ClaimFailure::new(
                rule!("0.08"),
                format!("{f} is not playing at this table"),
            ));
        }
        for f in self.st.in_play.iter() {
            match crate::factions::rules(f).victory_claim(self, (claimed, kind), control, computed)
            {
                ClaimCheck::NotMine => {}
                ClaimCheck::Holds => return None,
                ClaimCheck::Fails(fail) => return Some(fail),
            }
        }
        match kind {
            WinType::SoloStronghold => self.solo_stronghold_failure(claimed, control),
            WinType::AlliedStronghold => self.allied_stronghold_failure(claimed, control),
            WinType::EndGame | WinType::SoloEndGame | WinType::AlliedEndGame => {
                self.end_game_failure(claimed, kind, computed)
            }
            WinType::SoloDefault | WinType::AlliedDefault => {
                self.default_failure(claimed, kind, computed)
            }
            WinType::Adjudicated => Some(ClaimFailure::new(
                rule!("4.01.09"),
                "an adjudicated victory is the head judge's, for a game stopped by the clock; it is not claimed at a Mentat Pause",
            )),
            // A faction's own kind with the faction not at the table.
            WinType::BgPrediction => Some(ClaimFailure::new(
                rule!("2.02.03"),
                "only the Bene Gesserit win by their prediction, and they are not playing",
            )),
            WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial => Some(ClaimFailure::new(
                rule!("2.04.09"),
                "only the Fremen win by their special victory, and they are not playing",
            )),
        }
    }

    /// 1.09.02.01: one unallied player controlling three strongholds.
    fn solo_stronghold_failure(
        &self,
        claimed: &[Faction],
        control: &[(Stronghold, Faction)],
    ) -> Option<ClaimFailure> {
        let [f] = claimed else {
            return Some(ClaimFailure::new(
                rule!("1.09.02.01"),
                format!(
                    "a solo stronghold victory has one winner, and the log names {}; allies win together (ASH)",
                    claimed.len()
                ),
            ));
        };
        if let Some(a) = self.st.ally(*f) {
            return Some(
                ClaimFailure::new(
                    rule!("1.09.02.02"),
                    format!(
                        "{f} is allied with {a}: an alliance wins together, with 4 strongholds between the allies ({})",
                        self.holdings(&[*f, a], control)
                    ),
                )
                .also(&[rule!("1.10.02.01")]),
            );
        }
        self.stronghold_shortfall(&[*f], 3, control)
            .map(|(rule, why, also)| ClaimFailure::new(rule, why).also(&also))
    }

    /// 1.09.02.02: two allies controlling four strongholds between them.
    fn allied_stronghold_failure(
        &self,
        claimed: &[Faction],
        control: &[(Stronghold, Faction)],
    ) -> Option<ClaimFailure> {
        let allied = match claimed {
            [a, b] => self.st.ally(*a) == Some(*b),
            _ => false,
        };
        if !allied {
            let why = match claimed {
                [a, b] => format!(
                    "{a} and {b} are not allied ({a}'s ally: {}; {b}'s: {})",
                    self.st.ally(*a).map_or("none".into(), |x| x.to_string()),
                    self.st.ally(*b).map_or("none".into(), |x| x.to_string())
                ),
                [f] => format!(
                    "an allied victory is won by both allies; the log names {f} alone{}",
                    self.st
                        .ally(*f)
                        .map_or(" and it has no ally".into(), |a| format!(
                            " (its ally is {a})"
                        ))
                ),
                _ => format!(
                    "an alliance has two members, and the log names {}",
                    claimed.len()
                ),
            };
            return Some(ClaimFailure::new(rule!("1.09.02.02"), why).also(&[rule!("1.10.02.01")]));
        }
        self.stronghold_shortfall(claimed, 4, control)
            .map(|(rule, why, also)| ClaimFailure::new(rule, why).also(&also))
    }

    /// "AT: ARK, CAR; HK: TUK": who controls what among these factions.
    fn holdings(&self, fs: &[Faction], control: &[(Stronghold, Faction)]) -> String {
        fs.iter()
            .map(|&f| {
                let own: Vec<Stronghold> = control
                    .iter()
                    .filter(|(_, c)| *c == f)
                    .map(|(s, _)| *s)
                    .collect();
                format!("{f} controls {}", stronghold_names(&own))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The strongholds `fs` control fall short of `need`: the rule that decides it (the general
    /// requirement, or the variant or ability a count leaning on the Shield Wall or on advisors
    /// misreads), the message, and the see-also rules. `None` when they do control enough.
    fn stronghold_shortfall(
        &self,
        fs: &[Faction],
        need: usize,
        control: &[(Stronghold, Faction)],
    ) -> Option<(Rule, String, Vec<Rule>)> {
        let held: Vec<Stronghold> = control
            .iter()
            .filter(|(_, f)| fs.contains(f))
            .map(|(s, _)| *s)
            .collect();
        if held.len() >= need {
            return None;
        }
        let base = if fs.len() == 1 {
            rule!("1.09.02.01")
        } else {
            rule!("1.09.02.02")
        };
        let who = if fs.len() == 1 {
            "an unallied player needs 3"
        } else {
            "an alliance needs 4 between its members"
        };
        // Strongholds a count would misread as theirs: the rule that says why they are not.
        let mut misread: Vec<(Stronghold, Rule, String, Vec<Rule>)> = Vec::new();
        for s in Stronghold::ALL {
            if held.contains(&s) {
                continue;
            }
            let t = Territory::of(s);
            let fighting: Vec<Faction> = fs
                .iter()
                .copied()
                .filter(|&f| self.st.in_territory(f, t).fighting() > 0)
                .collect();
            if s == Stronghold::ShieldWall {
                let Some(&f) = fighting.first() else { continue };
                if !self.st.options.shield_wall {
                    misread.push((
                        s,
                        rule!("4.02.00"),
                        "the Shield Wall is a stronghold only with the Shield Wall variant, which this game does not use".into(),
                        vec![rule!("4.01.12")],
                    ));
                } else if !self.st.shield_wall_counts() {
                    misread.push((
                        s,
                        rule!("4.02.00"),
                        format!(
                            "the Shield Wall counts as a stronghold only after the fourth worm, and {} {} appeared",
                            self.st.worms,
                            if self.st.worms == 1 { "has" } else { "have" }
                        ),
                        vec![rule!("4.01.12")],
                    ));
                } else if !fs.iter().any(|&g| self.st.occupies(g, s)) {
                    let left = self.st.in_play.iter().find(|&g| self.st.occupies(g, s));
                    match left {
                        Some(g) => misread.push((
                            s,
                            rule!("4.02.06"),
                            format!("{f} holds only the right side of the Shield Wall and {g} its left side, which controls it"),
                            vec![rule!("4.02.01")],
                        )),
                        None => misread.push((
                            s,
                            rule!("4.02.01"),
                            format!("{f} holds only the right side of the Shield Wall (sector 8); only its left side, touching the Imperial Basin, counts"),
                            Vec::new(),
                        )),
                    }
                }
                continue;
            }
            if fighting.is_empty() && fs.iter().any(|&f| self.st.in_territory(f, t).advisors > 0) {
                misread.push((
                    s,
                    rule!("2.02.12"),
                    format!("advisors alone do not control {}", t.name()),
                    Vec::new(),
                ));
            }
        }
        let own = format!(
            "{} {} {} stronghold{} ({}), and {who}",
            names(fs),
            if fs.len() == 1 {
                "controls"
            } else {
                "control between them"
            },
            held.len(),
            if held.len() == 1 { "" } else { "s" },
            stronghold_names(&held)
        );
        if held.len() + misread.len() >= need
            && let Some((_, rule, why, mut also)) = misread.into_iter().next()
        {
            also.push(base);
            return Some((rule, format!("{own}: {why}"), also));
        }
        // Strongholds shared with another faction's fighting forces: nobody controls them.
        let shared: Vec<String> = Stronghold::ALL
            .into_iter()
            .filter(|s| !held.contains(s) && *s != Stronghold::ShieldWall)
            .filter(|&s| {
                let occ = self.st.occupants(Territory::of(s));
                occ.iter().any(|f| fs.contains(f)) && occ.len() > 1
            })
            .map(|s| s.code().to_string())
            .collect();
        let note = if shared.is_empty() {
            String::new()
        } else {
            format!(
                " ({} shared with another faction's forces, so controlled by nobody)",
                shared.join(", ")
            )
        };
        let also = if fs.len() > 1 {
            vec![rule!("1.10.02.01")]
        } else {
            Vec::new()
        };
        Some((base, format!("{own}{note}"), also))
    }

    /// 1.09.05: at the end of the last turn with nobody else winning, neither the Guild nor the
    /// Fremen in the game, the players occupying the most strongholds.
    fn end_game_failure(
        &self,
        claimed: &[Faction],
        kind: WinType,
        computed: Option<&WinResult>,
    ) -> Option<ClaimFailure> {
        if let Some(f) = self.not_the_end(computed) {
            return Some(f);
        }
        for (f, rule) in [
            (Faction::SpacingGuild, rule!("2.06.08")),
            (Faction::Fremen, rule!("2.04.09")),
        ] {
            if self.st.plays(f) {
                return Some(
                    ClaimFailure::new(
                        rule!("1.09.05"),
                        format!(
                            "the End Game Victory is for a game without the Guild and the Fremen, and {} {} playing",
                            f.name(),
                            if f == Faction::SpacingGuild { "is" } else { "are" }
                        ),
                    )
                    .also(&[rule]),
                );
            }
        }
        let occupied = |f: Faction| {
            Stronghold::ALL
                .iter()
                .filter(|&&s| s != Stronghold::ShieldWall && self.st.occupies(f, s))
                .count()
        };
        let best = self.st.in_play.iter().map(occupied).max().unwrap_or(0);
        let top: Vec<Faction> = self
            .st
            .in_play
            .iter()
            .filter(|&f| occupied(f) == best)
            .collect();
        if claimed != top.as_slice() {
            let counts: Vec<String> = self
                .st
                .in_play
                .iter()
                .map(|f| format!("{f} {}", occupied(f)))
                .collect();
            return Some(ClaimFailure::new(
                rule!("1.09.05"),
                format!(
                    "the players occupying the most strongholds win, and every one of them: {} with {best} (strongholds occupied: {})",
                    names(&top),
                    counts.join(", ")
                ),
            ));
        }
        let allied = top
            .iter()
            .any(|&f| self.st.ally(f).is_some_and(|a| top.contains(&a)));
        let due = self.st.options.ruleset.end_game(allied);
        (kind != due).then(|| {
            ClaimFailure::new(
                rule!("1.09.05"),
                format!(
                    "in this ruleset the winners' victory is a {} ({})",
                    due.name(),
                    if allied {
                        "allies among them"
                    } else {
                        "no allies among them"
                    }
                ),
            )
        })
    }

    /// A Default Victory not the Guild's (their own, 2.06.08, is judged by their module): the
    /// Fremen's when the Guild is not in the game (1.09.05).
    fn default_failure(
        &self,
        claimed: &[Faction],
        kind: WinType,
        computed: Option<&WinResult>,
    ) -> Option<ClaimFailure> {
        let fremen = Faction::Fremen;
        if !claimed.contains(&fremen) {
            return Some(
                ClaimFailure::new(
                    rule!("1.09.05"),
                    format!(
                        "a Default Victory is the Guild's (2.06.08) or, without the Guild, the Fremen's; the log names {}",
                        names(claimed)
                    ),
                )
                .also(&[rule!("2.06.08")]),
            );
        }
        if self.st.plays(Faction::SpacingGuild) {
            return Some(
                ClaimFailure::new(
                    rule!("1.09.05"),
                    "the Fremen win by default only when the Guild is not in the game; with the Guild, the Fremen's own victory is their special one (2.04.09)",
                )
                .also(&[rule!("2.06.08")]),
            );
        }
        if let Some(f) = self.not_the_end(computed) {
            return Some(f);
        }
        let due = self.with_ally(
            fremen,
            WinType::SoloDefault,
            WinType::AlliedDefault,
            self.st.turn,
        );
        (due.factions != claimed || due.kind != kind).then(|| {
            ClaimFailure::new(
                rule!("1.09.05"),
                format!(
                    "the Fremen win by default with their alliance as it stands: {} ({})",
                    names(&due.factions),
                    due.kind.name()
                ),
            )
        })
    }

    /// The conditions every end-of-game victory shares (1.09.05): the last turn, and nobody won
    /// at this Mentat Pause. `None` when both hold.
    pub(crate) fn not_the_end(&self, computed: Option<&WinResult>) -> Option<ClaimFailure> {
        let last = self.st.options.max_turns;
        if self.st.turn < last {
            return Some(
                ClaimFailure::new(
                    rule!("1.09.05"),
                    format!(
                        "this victory comes at the end of the last turn, and turn {} is not the last (the game lasts {last})",
                        self.st.turn
                    ),
                )
                .also(&[rule!("0.02")]),
            );
        }
        computed.filter(|w| won_in_play(w)).map(|w| {
            ClaimFailure::new(
                rule!("1.09.05"),
                format!(
                    "it comes only when nobody has won, and {} {} at this Mentat Pause",
                    names(&w.factions),
                    wins(&w.factions)
                ),
            )
        })
    }

    /// What makes a computed victory, for a judge: the strongholds, the prediction, the
    /// criteria.
    pub(crate) fn win_evidence(&self, w: &WinResult, control: &[(Stronghold, Faction)]) -> String {
        match w.kind {
            WinType::SoloStronghold | WinType::AlliedStronghold => {
                self.holdings(&w.factions, control)
            }
            WinType::BgPrediction => match self.setup.prediction {
                Some((f, t)) => format!(
                    "the Bene Gesserit predicted {f} in turn {t}, and {f} meets the stronghold requirement now"
                ),
                None => "the Bene Gesserit's prediction comes true".into(),
            },
            WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial => {
                let ally_in_tueks = self
                    .st
                    .ally(Faction::Fremen)
                    .filter(|&a| self.st.in_territory(a, Territory::TueksSietch).fighting() > 0);
                let tueks = match ally_in_tueks {
                    Some(a) => format!(
                        "the only Harkonnen, Atreides or Emperor forces in Tuek's Sietch are their ally {a}'s, which do not count (4.01.19)"
                    ),
                    None => "no Harkonnen, Atreides or Emperor forces occupy Tuek's Sietch".into(),
                };
                let first = if self.st.plays(Faction::SpacingGuild) {
                    "; it is checked before the Guild's (rulings.md 7)"
                } else {
                    ""
                };
                format!(
                    "nobody has won by the end of the last turn, only the Fremen occupy Sietch Tabr and Habbanya Sietch, and {tueks}{first}"
                )
            }
            WinType::SoloDefault | WinType::AlliedDefault => {
                "nobody has won by the end of the last turn".into()
            }
            _ => "the players occupying the most strongholds at the end of the last turn".into(),
        }
    }
}
