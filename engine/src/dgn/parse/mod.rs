//! The DGN reader: text to [`Game`]. Line-oriented, hand-written, never panics.
//!
//! Each line is read with a small cursor. An error stops that line only; the reader goes on with
//! the next one, so one pass reports every syntax error (up to [`MAX_ERRORS`]).
//!
//! Layout: `lexer` is the line cursor and the notation's items; this module dispatches each line
//! to its statement reader, one module per phase as in `replay/` (`setup`, `storm`, `blow`,
//! `bidding`, `revival`, `movement`, `battle`, `collect`, `any`), and
//! `assertions` reads the `( … )` cross-checks.

mod any;
mod assertions;
mod battle;
mod bidding;
mod blow;
mod collect;
mod ecaz_moritani;
mod lexer;
mod movement;
mod revival;
mod setup;
mod storm;
mod trade;

use std::fmt;

use dune::Faction;

use super::ast::*;
use super::trade::*;
use crate::state::Phase;
use assertions::assertions;
use battle::battle;
use bidding::{bidding, charity};
use blow::{blow, nexus};
use collect::{collection, mentat};
use lexer::{Line, clock_marks, end_of_line, faction_values};
use movement::movement;
use revival::{ghola, revival};

/// The Hidden Mobile Stronghold's way (000 2.07.18): `[via>…]place [harvest [n]]`.
fn hms_path(l: &mut Line) -> R<(Vec<Place>, Option<Option<dune::Spice>>)> {
    l.ws();
    let mut path = vec![l.place()?];
    while l.eat(b'>') {
        path.push(l.place()?);
    }
    let save = l.i;
    l.ws();
    let harvest = if l.keyword("harvest") {
        let save = l.i;
        l.ws();
        if l.peek().is_some_and(|c| c.is_ascii_digit()) {
            Some(Some(l.spice("the spice harvested")?))
        } else {
            l.i = save;
            Some(None)
        }
    } else {
        l.i = save;
        None
    };
    Ok((path, harvest))
}
use storm::{order_list, storm, two_dials};

/// The reader stops collecting errors after this many.
pub const MAX_ERRORS: usize = 100;

/// A syntax error: where, what the reader expected, and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub expected: String,
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {}",
            self.pos.line, self.pos.col, self.expected, self.found
        )
    }
}

/// Every syntax error of a file, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseErrors(pub Vec<ParseError>);

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

type R<T> = Result<T, ParseError>;

/// Reads a DGN file.
pub fn parse(src: &str) -> Result<Game, ParseErrors> {
    let mut p = Parser {
        game: Game::default(),
        errors: Vec::new(),
        ctx: None,
        last_line: 0,
    };
    for (idx, raw) in src.split('\n').enumerate() {
        if p.errors.len() >= MAX_ERRORS {
            break;
        }
        let n = u32::try_from(idx + 1).unwrap_or(u32::MAX);
        p.last_line = n;
        p.line(raw.strip_suffix('\r').unwrap_or(raw), n);
    }
    if p.errors.is_empty() && p.game.events.is_empty() {
        p.errors.push(ParseError {
            pos: Pos {
                line: p.last_line.max(1),
                col: 1,
            },
            expected: "a DGN game (header tags, then `T0` and the setup lines)".into(),
            found: "no statements".into(),
        });
    }
    if p.errors.is_empty() {
        Ok(p.game)
    } else {
        Err(ParseErrors(p.errors))
    }
}

struct Parser {
    game: Game,
    errors: Vec<ParseError>,
    /// Section of the last unindented statement line, for indented continuation lines.
    ctx: Option<Section>,
    last_line: u32,
}

/// Per-line state carried from one `;` clause to the next.
#[derive(Clone, Copy)]
struct Clause {
    faction: Option<Faction>,
    pile: Pile,
}

impl Parser {
    fn push(&mut self, pos: Pos, section: Section, stmt: Stmt, asserts: Vec<Assertion>) {
        self.game.events.push(Event {
            pos,
            section,
            stmt,
            asserts,
        });
    }

    fn line(&mut self, s: &str, n: u32) {
        let mut l = Line::new(s, n);
        let indented = matches!(l.peek(), Some(b' ' | b'\t'));
        if l.end() {
            return;
        }
        let r = if indented {
            self.continuation(&mut l)
        } else {
            self.top(&mut l)
        };
        if let Err(e) = r {
            self.errors.push(e);
        }
    }

    fn top(&mut self, l: &mut Line) -> R<()> {
        match l.peek() {
            Some(b'[') => return self.tags(l),
            Some(b'@') => {
                let pos = l.pos();
                let (time, limit) = clock_marks(l)?;
                self.push(pos, Section::Turn, Stmt::Clock { time, limit }, Vec::new());
                return end_of_line(l);
            }
            Some(b'$') => {
                self.ctx = Some(Section::Any);
                return self.money(l);
            }
            Some(b'(') => {
                let pos = l.pos();
                let asserts = assertions(l)?;
                self.push(pos, Section::Any, Stmt::Check, asserts);
                return end_of_line(l);
            }
            _ => {}
        }
        let start = l.i;
        let pos = l.pos();
        let Some(kw) = l.ident() else {
            return Err(l.err(
                "a phase letter (S B N C A R M X H P), a keyword (T1, TR, PLACE, …) or a tag",
            ));
        };
        let section = match kw {
            "N" => Section::Nexus,
            letter if let Some(p) = Phase::from_letter(letter).filter(|&p| p != Phase::Setup) => {
                Section::Phase(p)
            }
            "AC" | "TR" | "PRED" | "TC" | "PLACE" | "STORM0" | "POCKET" | "HMS" => {
                self.ctx = Some(Section::Phase(Phase::Setup));
                return self.setup(l, kw, pos);
            }
            "K" | "TT" | "GHOLA" | "HAJR" | "DEAL" | "RULING" | "END" | "FD" | "AMAL" => {
                self.ctx = Some(Section::Any);
                return self.any(l, kw, pos);
            }
            kw if trade::ANY_KEYWORDS.contains(&kw) => {
                self.ctx = Some(Section::Any);
                let stmt = trade::any(l, kw)?;
                let asserts = assertions(l)?;
                self.push(pos, Section::Any, stmt, asserts);
                return end_of_line(l);
            }
            "AMB" | "TERROR" | "BOUNTY" | "JIHAD" => {
                self.ctx = Some(Section::Any);
                return self.expansion(l, kw, pos);
            }
            "LOYAL" => {
                self.ctx = Some(Section::Phase(Phase::Setup));
                l.ws();
                let stmt = ecaz_moritani::loyalty(l)?;
                let asserts = assertions(l)?;
                self.push(pos, Section::Phase(Phase::Setup), stmt, asserts);
                return end_of_line(l);
            }
            t if t.len() > 1
                && t.starts_with('T')
                && t[1..].bytes().all(|c| c.is_ascii_digit()) =>
            {
                let number = t[1..]
                    .parse::<u32>()
                    .map_err(|_| l.err_at(start, "a turn number", format!("`{t}`")))?;
                let (clock, limit) = clock_marks(l)?;
                self.ctx = None;
                self.push(
                    pos,
                    Section::Turn,
                    Stmt::Turn {
                        number,
                        clock,
                        limit,
                    },
                    Vec::new(),
                );
                return end_of_line(l);
            }
            other => {
                return Err(l.err_at(
                    start,
                    "a phase letter (S B N C A R M X H P), a keyword (T1, TR, PLACE, …) or a tag",
                    format!("`{other}`"),
                ));
            }
        };
        self.ctx = Some(section);
        self.clauses(l, section)
    }

    /// `AMB`, `TERROR`, `BOUNTY`, `JIHAD` (the Ecaz and Moritani expansion): any phase, also
    /// indented among a battle's details.
    fn expansion(&mut self, l: &mut Line, kw: &str, pos: Pos) -> R<()> {
        l.ws();
        let stmt = match kw {
            "AMB" => ecaz_moritani::ambassador(l)?,
            "TERROR" => ecaz_moritani::terror(l)?,
            "BOUNTY" => ecaz_moritani::bounty(l)?,
            _ => ecaz_moritani::jihad(l)?,
        };
        let asserts = assertions(l)?;
        self.push(pos, Section::Any, stmt, asserts);
        end_of_line(l)
    }

    fn continuation(&mut self, l: &mut Line) -> R<()> {
        l.ws();
        if l.peek() == Some(b'(') {
            let pos = l.pos();
            let asserts = assertions(l)?;
            self.push(pos, self.ctx.unwrap_or(Section::Any), Stmt::Check, asserts);
            return end_of_line(l);
        }
        match self.ctx {
            Some(Section::Phase(Phase::Battle)) => {
                let save = l.i;
                let pos = l.pos();
                match l.ident() {
                    Some(kw @ ("AMB" | "TERROR" | "BOUNTY")) => return self.expansion(l, kw, pos),
                    _ => l.i = save,
                }
                self.battle_detail(l)
            }
            Some(Section::Phase(Phase::Setup)) | Some(Section::Turn) | Some(Section::Any) | None => {
                Err(l.err("a statement at the start of the line (only battle details and assertions are indented)"))
            }
            Some(section) => self.clauses(l, section),
        }
    }

    fn tags(&mut self, l: &mut Line) -> R<()> {
        loop {
            l.ws();
            if l.end() {
                return Ok(());
            }
            let pos = l.pos();
            l.expect(b'[', "`[` starting a tag")?;
            l.ws();
            let Some(name) = l.ident() else {
                return Err(l.err("a tag name"));
            };
            let name = name.to_string();
            let value = l.string()?;
            l.ws();
            l.expect(b']', "`]` closing the tag")?;
            self.game.tags.push(Tag { name, value, pos });
        }
    }

    fn clauses(&mut self, l: &mut Line, section: Section) -> R<()> {
        let mut c = Clause {
            faction: None,
            pile: Pile::A,
        };
        loop {
            l.ws();
            let pos = l.pos();
            let stmt = match section {
                Section::Phase(Phase::Storm) => storm(l)?,
                Section::Phase(Phase::SpiceBlow) => blow(l, &mut c)?,
                Section::Nexus => nexus(l)?,
                Section::Phase(Phase::Charity) => charity(l)?,
                Section::Phase(Phase::Bidding) => bidding(l)?,
                Section::Phase(Phase::Revival) => revival(l)?,
                Section::Phase(Phase::Movement) => movement(l, &mut c)?,
                Section::Phase(Phase::Battle) => battle(l)?,
                Section::Phase(Phase::Collection) => collection(l)?,
                Section::Phase(Phase::Mentat) => mentat(l)?,
                _ => return Err(l.err("a statement")),
            };
            let asserts = assertions(l)?;
            self.push(pos, section, stmt, asserts);
            if section == Section::Phase(Phase::Storm) {
                l.ws();
                let p = l.pos();
                if l.keyword("order") {
                    let order = Some(order_list(l)?);
                    let asserts = assertions(l)?;
                    self.push(
                        p,
                        section,
                        Stmt::StormAt {
                            sector: None,
                            order,
                        },
                        asserts,
                    );
                }
            }
            if l.end() {
                return Ok(());
            }
            l.expect(b';', "`;` or the end of the line")?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Card, Leader, Sector, Territory};
    use dune::Spice;
    use dune::rule;

    fn one(src: &str) -> Stmt {
        let g = parse(src).unwrap_or_else(|e| panic!("{e}"));
        g.events.into_iter().next().unwrap().stmt
    }

    fn error(src: &str) -> ParseError {
        parse(src).unwrap_err().0.remove(0)
    }

    #[test]
    fn tags_and_turns() {
        let g = parse("[Event \"Qualifier\"] [Mode \"Advanced\"]\nT0 @10:05\n").unwrap();
        assert_eq!(g.tag("Mode").unwrap().value, "Advanced");
        assert_eq!(
            g.events[0].stmt,
            Stmt::Turn {
                number: 0,
                clock: Some("10:05".into()),
                limit: false
            }
        );
    }

    #[test]
    fn forces_places_and_payments() {
        match one("M EM ship 5(2*) HAB $5>SG by HK") {
            Stmt::Ship {
                faction,
                forces,
                to,
                payment,
                karama,
            } => {
                assert_eq!(faction, Faction::Emperor);
                assert_eq!((forces.total, forces.starred), (5, 2));
                assert_eq!(to.territory, Territory::HabbanyaSietch);
                let p = payment.unwrap();
                assert_eq!(
                    (p.amount, p.payee, p.payer),
                    (
                        Spice::new(5),
                        Some(Payee::Faction(Faction::SpacingGuild)),
                        Some(Faction::Harkonnen)
                    )
                );
                assert!(!karama);
            }
            other => panic!("{other:?}"),
        }
        match one("M BG move PS>SM/5 2a") {
            Stmt::Move { to, forces, .. } => {
                assert_eq!(to.sector, Sector::from_notation(5));
                assert_eq!(forces.side, Side::Advisor);
            }
            other => panic!("{other:?}"),
        }
        match one("M AT move SW/L>IB/9 1") {
            Stmt::Move { from, .. } => assert_eq!(from.sector, Sector::new(8)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clauses_inherit_the_faction() {
        let g =
            parse("M AT peek{?} ; ship 2 ARK $2>SG ; BG spirit ARK 1a ; move ARK>IB/9 3").unwrap();
        assert_eq!(g.events.len(), 4);
        assert!(matches!(
            g.events[3].stmt,
            Stmt::Move {
                faction: Faction::Atreides,
                ..
            }
        ));
        assert!(matches!(
            g.events[2].stmt,
            Stmt::Spirit {
                faction: Faction::BeneGesserit,
                ..
            }
        ));
        assert_eq!(g.events[3].pos, Pos { line: 1, col: 54 });
    }

    #[test]
    fn bidding_trace_and_results() {
        match one("A #1 EM1 SG- FR2 AT- BG- HK3 EM- SG- FR- = HK 3{Lasgun} by EM $1 +top{?}") {
            Stmt::Auction {
                number,
                trace,
                result,
            } => {
                assert_eq!(number, 1);
                assert_eq!(trace.len(), 9);
                assert_eq!(trace[2].amount, Some(Spice::new(2)));
                assert_eq!(
                    result,
                    AuctionResult::Bought {
                        faction: Faction::Harkonnen,
                        price: Spice::new(3),
                        card: Sealed::Open(Some(Card::Lasgun)),
                        ally: Some((Faction::Emperor, Spice::new(1))),
                        payee: None,
                        karama: false,
                        top: Some(Sealed::Open(None))
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            one("A #6 EM- SG- = bought-in 1"),
            Stmt::Auction {
                result: AuctionResult::BoughtIn { returned: Some(1) },
                ..
            }
        ));
    }

    #[test]
    fn assertions_attach_to_the_clause() {
        let g = parse("B A: SH (SM: SG -3, -$4) ; CN 8").unwrap();
        assert_eq!(g.events.len(), 2);
        assert_eq!(
            g.events[0].asserts,
            vec![Assertion::Losses {
                pos: Pos { line: 1, col: 9 },
                territory: Territory::SouthMesa,
                forces: vec![(Faction::SpacingGuild, ForceCount::plain(3))],
                spice: Some(Spice::new(4))
            }]
        );
        assert_eq!(
            g.events[1].stmt,
            Stmt::Blow {
                pile: Pile::A,
                card: SpiceCard::Territory(Territory::CielagoNorth, Some(8))
            }
        );
        let g = parse("P control ARK:AT ; win -\n  (spice AT2 SG18) (worms 0)").unwrap();
        assert_eq!(g.events.len(), 3);
        assert!(
            matches!(&g.events[2].asserts[0], Assertion::Spice { values, .. } if values == &vec![(Faction::Atreides, Spice::new(2)), (Faction::SpacingGuild, Spice::new(18))])
        );
    }

    #[test]
    fn battle_blocks() {
        let src = "X ARK: AT v HK\n  AT plan Gurney d5$4 W:Crysknife D:-\n  HK plan Rabban d6$2 W:- D:Shield\n  = AT 8.5:8 ; AT -5 ; HK -8 ; AT keep Crysknife ; HK discard Shield ; dead Rabban";
        let g = parse(src).unwrap();
        assert_eq!(g.events.len(), 4);
        assert!(matches!(
            g.events[1].stmt,
            Stmt::Plan(crate::battle::Plan {
                spice,
                weapon: Some(Card::Crysknife),
                defense: None,
                ..
            }) if spice == 4
        ));
        match &g.events[3].stmt {
            Stmt::BattleResult {
                winner,
                totals,
                items,
            } => {
                assert_eq!(*winner, Some(Faction::Atreides));
                assert_eq!(totals.as_ref().unwrap().0, "8.5");
                assert_eq!(items.len(), 5);
                assert_eq!(items[4], ResultItem::Dead(vec![Leader::Rabban]));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn karama_abilities_hand_swaps_and_any_phase_cards() {
        match one("K AT cancel 2.06.12 \"Delay\"") {
            Stmt::Karama {
                usage: KaramaUse::Cancel(r),
                ..
            } => {
                assert_eq!(r.rule, rule!("2.06.12"));
                assert_eq!(r.note.as_deref(), Some("Delay"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            one("K SG prevent 2.06.05.01"),
            Stmt::Karama { usage: KaramaUse::Prevent(r), .. } if r.rule == rule!("2.06.05.01")
        ));
        assert!(parse("K SG prevent voice").is_err());
        assert!(parse("K SG cancel 2.04").is_err());
        assert!(matches!(
            one("K HK hand AT{Shield,?}"),
            Stmt::Karama { usage: KaramaUse::TakeHand { target: Faction::Atreides, returned: Sealed::Open(v) }, .. }
                if v == vec![Some(Card::Shield), None]
        ));
        assert!(matches!(
            one("GHOLA AT L:Duncan"),
            Stmt::Ghola {
                leader: Some(Leader::Duncan),
                ..
            }
        ));
        assert!(matches!(one("HAJR AT"), Stmt::Hajr { .. }));
        let g = parse("R FR grant ; SG 3 $0\n(bribes BG2)").unwrap();
        assert_eq!(
            g.events[0].stmt,
            Stmt::Grant {
                faction: Faction::Fremen
            }
        );
        assert!(matches!(g.events[2].asserts[0], Assertion::Bribes { .. }));
    }

    #[test]
    fn every_faction_of_the_full_rulebook_is_read() {
        // Who may sit at the table is the ruleset's question, answered by the replay.
        assert!(parse("T0\nM IX ship 2 ARK $2").is_ok());
        let e = error("M XX ship 2 ARK $2");
        assert!(e.expected.contains("a faction"), "{e}");
        assert!(parse("[Factions \"1=AT 2=IX\"]\nT0\n").is_ok());
    }

    #[test]
    fn errors_name_line_column_and_expectation() {
        let e = error("T0\nM HK ship 5 XYZ $5");
        assert_eq!(e.pos, Pos { line: 2, col: 13 });
        assert!(e.expected.contains("territory"), "{e}");
        assert_eq!(e.found, "`XYZ`");
        let e = error("M HK ship 5 SM/9");
        assert!(e.expected.contains("sector of South Mesa (4, 5, 6)"), "{e}");
        let e = error("A #1 HK3 EM = HK 3");
        assert_eq!(e.pos.col, 12);
        let e = error("X ARK: AT v HK\n  AT plan EM:Gurney d1 W:- D:-");
        assert!(e.expected.contains("leader of EM"), "{e}");
    }

    #[test]
    fn a_karama_and_other_any_phase_lines_are_written_inside_a_battle_block() {
        let g = parse(
            "X TUK: EM v SG\n  EM plan Bashar d3(3*)$3 W:- D:-\n  K SG cancel 2.03.08\n  TT SG>EM \"weapon?\" = no\n  $ SG>EM 1\n  = SG\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<(Section, bool)> = g
            .events
            .iter()
            .map(|e| (e.section, matches!(e.stmt, Stmt::Karama { .. })))
            .collect();
        assert_eq!(kinds[2], (Section::Any, true));
        assert_eq!(g.events[3].section, Section::Any);
        assert_eq!(g.events[4].section, Section::Any);
        // The lines after them still belong to the battle.
        assert!(matches!(g.events[5].stmt, Stmt::BattleResult { .. }));
        assert_eq!(g.events[5].section, Section::Phase(Phase::Battle));
    }

    #[test]
    fn deals_and_bribes_with_terms() {
        let g = parse(
            "DEAL AT,BG: AT noattack ARK until T5 ; BG pay AT $2 ; AT nobid #2 ; BG noally HK ; \"a smile\"\n$ SG>BG 2: BG pass ; BG give SG Shield until T3\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let Stmt::Terms {
            factions,
            bribe,
            terms,
        } = &g.events[0].stmt
        else {
            panic!("{:?}", g.events[0]);
        };
        assert_eq!((factions.len(), *bribe, terms.len()), (2, false, 5));
        assert_eq!(
            (terms[0].faction, &terms[0].promise, terms[0].until),
            (
                Some(Faction::Atreides),
                &Promise::NoAttack(Target::Territory(Territory::Arrakeen)),
                Some(5)
            )
        );
        assert_eq!(
            terms[1].promise,
            Promise::Pay {
                to: Faction::Atreides,
                amount: Spice::new(2)
            }
        );
        assert_eq!(terms[2].promise, Promise::NoBid(Some(2)));
        assert_eq!(terms[3].promise, Promise::NoAlly(Some(Faction::Harkonnen)));
        assert_eq!(
            (terms[4].faction, &terms[4].promise),
            (None, &Promise::Text("a smile".into()))
        );
        // A bribe with terms: the payment, then its promises.
        assert!(matches!(g.events[1].stmt, Stmt::Bribe { terms: None, .. }));
        let Stmt::Terms {
            bribe: true, terms, ..
        } = &g.events[2].stmt
        else {
            panic!("{:?}", g.events[2]);
        };
        assert_eq!(terms[0].promise, Promise::NoBid(None));
        assert_eq!(
            (&terms[1].promise, terms[1].until),
            (
                &Promise::Transfer {
                    to: Faction::SpacingGuild,
                    what: "Shield".into()
                },
                Some(3)
            )
        );
        assert!(parse("DEAL AT,BG: AT attack ARK\n").is_err());
        assert!(parse("DEAL AT,BG: AT nobid until X\n").is_err());
    }

    #[test]
    fn every_bad_line_is_reported() {
        let errs = parse("T0\nQ\nS 19\nM AT ship x\n").unwrap_err();
        assert_eq!(
            errs.0.iter().map(|e| e.pos.line).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        assert!(parse("").is_err());
        assert!(parse("% only a comment\n").is_err());
    }

    #[test]
    fn odd_bytes_never_panic() {
        for src in [
            "T0 é",
            "M AT ship 5(9*) ARK",
            "$ AT>BG 99999999999999",
            "[Event \"unterminated",
            "S 5 order",
            "  ",
            "é\n  é",
            "B A: SH>",
            "M BG spirit",
            "X ARK: AT v",
        ] {
            let _ = parse(src);
        }
    }
}
