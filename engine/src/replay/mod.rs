//! The checked replay: a [`Game`] in, every rule violation out.
//!
//! Each event goes through a handler that first checks it against the GenCon rules (001) and
//! reports a [`Violation`] naming the rule, then applies it to the [`GameState`] when the state
//! stays meaningful, so one pass reports everything. Quantities the engine can derive (storm and
//! worm losses, payments, collection, control) are computed; an assertion `( … )` or a logged
//! amount that disagrees is reported too.
//!
//! The replay walks the phases in order. When a statement belongs to a later phase, the phases
//! in between are closed with their automatic effects (storm movement, collection, the Mentat
//! Pause); the end of the log does not close the turn it stops in, so a log of a game in progress
//! replays cleanly.

pub(crate) mod any;
pub(crate) mod battle;
pub(crate) mod bidding;
pub(crate) mod blow;
pub(crate) mod collect;
pub(crate) mod deals;
pub(crate) mod karama;
pub(crate) mod movement;
pub(crate) mod revival;
pub(crate) mod second_expansion;
pub(crate) mod setup;
pub(crate) mod storm;
pub(crate) mod victory;

use dune::{Rule, rule};
use std::fmt;

use crate::board::{Card, Leader, Sector, Territory};
use crate::dgn::{Assertion, Event, Game, Pos, Sealed, Section, SpiceCard, Stmt};
use crate::state::{Forces, GameState, Phase, Stack};
use dune::{Faction, FactionSet, Spice, Stronghold};

pub use battle::WinAttempt;
pub use collect::WinResult;
pub use deals::NotChecked;

/// One broken rule. Serializes as
/// `{"pos":{"line","col"},"turn","phase","rule","book","edition","message","see_also":[…]}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    pub pos: Pos,
    pub turn: u32,
    pub phase: Phase,
    /// Rule number, e.g. `1.06.03.05`, read in [`Violation::book`].
    pub rule: Rule,
    /// The rulebook the number is read in, decided by the game's ruleset: the GenCon rulebook
    /// (001) in a `gc-2.13.3` game, the full rulebook (000) in a `full` game, whose numbers
    /// differ for a few rules (GenCon's 1.06.03.05 is 000's 1.06.02.05, `dune::crosswalk`). A
    /// rule only one book has is read in that book whatever the game (the expansion factions'
    /// in 000; GenCon's 1.05.05 in 001).
    pub book: dune::Book,
    /// Which printed version of the rule, where the full rulebook prints two (ruling 28);
    /// [`dune::Edition::Revised`] everywhere else.
    pub edition: dune::Edition,
    /// What happened and why it is illegal, for a judge.
    pub message: String,
    /// Other rules that say the same thing as [`Violation::rule`] (a phase rule and the faction
    /// or variant rule that names the situation): the violation cites the one that names the
    /// situation and lists these for the judge to read alongside (1.00.01-1.00.03). Same book.
    pub see_also: Vec<Rule>,
}

impl Violation {
    /// The rule broken, in its book and edition: its page is `cite().href()`.
    pub fn cite(&self) -> dune::BookRule {
        dune::BookRule::new(self.book, self.rule, self.edition)
    }

    /// Whether this is a violation of the rule `number` in Mentat's numbering (a fixture's
    /// name, `rule!`) as the violation's book numbers it: `1.06.03.05` is a `gc-2.13.3` game's
    /// 1.06.03.05 and a `full` game's 1.06.02.05, never a `full` game's 1.06.03.05 (another
    /// rule there).
    pub fn is_of(&self, number: Rule) -> bool {
        let cited = self.book.cite(number);
        (cited.book(), cited.rule()) == (self.book, self.rule)
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (turn {}, {}): {} ({}",
            self.pos.line,
            self.pos.col,
            self.turn,
            self.phase,
            self.message,
            self.cite()
        )?;
        for (i, r) in self.see_also.iter().enumerate() {
            write!(f, "{}{r}", if i == 0 { "; see also " } else { ", " })?;
        }
        f.write_str(")")
    }
}

/// How to replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Audit mode (catalogue §d.4): use the contents of sealed entries `{…}` (traitors, the
    /// prediction, card identities, the Fremen storm card, peeks) and check them. Public mode
    /// ignores them and checks only what is revealed.
    pub audit: bool,
    /// Keep a [`TurnSummary`] at the end of every phase too ([`ReplayReport::phases`]), for a
    /// page that steps through a turn phase by phase.
    pub snapshots: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            audit: true,
            snapshots: false,
        }
    }
}

impl ReplayOptions {
    /// Public mode: sealed entries ignored, as an observer sees the game.
    pub fn public() -> ReplayOptions {
        ReplayOptions {
            audit: false,
            ..ReplayOptions::default()
        }
    }
}

/// The state at the end of one turn (after its Mentat Pause), or where the log stops: what a page
/// needs to draw the board of that turn. Hidden information (the cards in each hand) is filled
/// in audit mode only.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TurnSummary {
    pub turn: u32,
    /// The phase reached (the Mentat Pause for a complete turn).
    pub phase: Phase,
    pub storm: Option<Sector>,
    /// Where the Hidden Mobile Stronghold stands (000 2.07.17): the territory and sector its
    /// token points at, once the Ixians have placed it.
    pub hms: Option<(Territory, Sector)>,
    /// Spice behind each shield.
    pub spice: Vec<(Faction, Spice)>,
    /// Tokens per territory and faction, territories in table order; a [`Stack`] tells plain,
    /// starred and advisor tokens apart.
    pub forces: Vec<(Territory, Vec<(Faction, Stack)>)>,
    pub reserves: Vec<(Faction, Forces)>,
    pub tanks: Vec<(Faction, Forces)>,
    pub hands: Vec<(Faction, usize)>,
    pub worms: u32,
    pub alliances: Vec<(Faction, Faction)>,
    /// Spice lying on the map, per territory.
    pub spice_on_map: Vec<(Territory, Spice)>,
    /// Who controls each stronghold that counts now (1.09.02; the Shield Wall after the fourth
    /// worm, 4.02).
    pub control: Vec<(Stronghold, Faction)>,
    /// The Shield Wall counts as a stronghold (4.02.00, ruling 8).
    pub shield_wall_counts: bool,
    /// Stronghold cards in front of the shields (4.03).
    pub stronghold_cards: Vec<(Stronghold, Faction)>,
    /// Active leaders in each leader pool (captured leaders with their captor, ruling 12).
    pub leaders: Vec<(Faction, Vec<Leader>)>,
    /// The Kwisatz Haderach, when the Atreides play (2.01.10-2.01.14).
    pub kwisatz: Option<KwisatzSummary>,
    /// Win attempts of this turn's Battle phase with their evidence (4.01.04, ruling 6).
    pub win_attempts: Vec<WinAttempt>,
    /// The cards in each hand (`None` for an unknown card); audit mode only.
    pub cards: Option<Vec<(Faction, Vec<Option<Card>>)>>,
    /// Tokens on the board (Ecaz's ambassadors, Moritani's terror tokens), a face-down one's
    /// kind in audit mode only (`crate::tokens`).
    pub tokens: Vec<crate::tokens::TokenView>,
    /// Richese's No-Field tokens face down on the map (000 2.10.10): where the table sees them;
    /// their numbers in audit mode only.
    pub no_fields: Vec<NoFieldSummary>,
    /// The No-Field token face up in front of Richese's shield (2.10.13), public.
    pub no_field_front: Option<u8>,
}

/// A No-Field token face down on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NoFieldSummary {
    pub territory: Territory,
    pub sector: Option<Sector>,
    /// The forces it hides: audit mode only (and only when the log seals the number).
    pub value: Option<u8>,
}

/// The Kwisatz Haderach's state (2.01.10-2.01.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KwisatzSummary {
    /// Atreides forces lost in battles so far.
    pub losses: u32,
    pub active: bool,
    pub dead: bool,
}

/// How the log ends.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameEnd {
    /// `END T<n> reason` was logged (with its turn and reason).
    pub logged: Option<(u32, String)>,
    /// The clock's limit was reached (`@LIMIT`, 4.01.08).
    pub limit: bool,
}

/// The result of a replay.
#[derive(Clone, Debug)]
pub struct ReplayReport {
    /// Violations in log order.
    pub violations: Vec<Violation>,
    pub turns: Vec<TurnSummary>,
    /// The state where the log stops.
    pub state: GameState,
    /// The winner(s), when the game was won.
    pub winner: Option<WinResult>,
    /// Win attempts per turn, with their evidence (4.01.04, ruling 6).
    pub win_attempts: Vec<(u32, Vec<WinAttempt>)>,
    pub end: GameEnd,
    /// With [`ReplayOptions::snapshots`]: the state at the end of every phase, in order.
    pub phases: Vec<TurnSummary>,
    /// Deal and bribe terms the engine cannot check (free text), for the judge (1.12.00).
    pub not_checked: Vec<NotChecked>,
}

impl ReplayReport {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Replays a parsed game.
pub fn replay(game: &Game, opts: &ReplayOptions) -> ReplayReport {
    let mut r = Replay::new(game, *opts);
    for ev in &game.events {
        r.event(ev);
    }
    r.finish()
}

/// Cards lost or spice destroyed by one effect, for loss assertions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Losses {
    pub(crate) forces: Vec<(Territory, Faction, Stack)>,
    pub(crate) spice: Vec<(Territory, Spice)>,
}

impl Losses {
    pub(crate) fn add_forces(&mut self, t: Territory, f: Faction, s: Stack) {
        if s.is_empty() {
            return;
        }
        match self
            .forces
            .iter_mut()
            .find(|(tt, ff, _)| *tt == t && *ff == f)
        {
            Some((_, _, acc)) => acc.add(s),
            None => self.forces.push((t, f, s)),
        }
    }

    fn add_spice(&mut self, t: Territory, n: Spice) {
        if n.is_zero() {
            return;
        }
        match self.spice.iter_mut().find(|(tt, _)| *tt == t) {
            Some((_, acc)) => *acc += n,
            None => self.spice.push((t, n)),
        }
    }
}

/// Forces of a faction arriving in a territory (a shipment, a send, a cross-ship, a move, a worm
/// ride): what ambassadors and terror tokens answer (000 2.11.07, 2.11.11, 2.12.08).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entered {
    pub faction: Faction,
    pub territory: Territory,
    /// Only advisors arrived (2.02.12).
    pub advisors: bool,
    pub phase: Phase,
    /// The territory a move came from (`None` for arrivals from off the board).
    pub from: Option<Territory>,
}

/// Data that lives for one turn only.
#[derive(Default)]
pub(crate) struct TurnData {
    pub(crate) storm: storm::StormData,
    pub(crate) blow: blow::BlowData,
    pub(crate) charity: FactionSet,
    pub(crate) bid: bidding::BidData,
    pub(crate) revival: revival::RevivalData,
    pub(crate) mv: movement::MoveData,
    pub(crate) battle: battle::BattleData,
    pub(crate) collect: collect::CollectData,
    pub(crate) mentat: Option<collect::MentatData>,
    pub(crate) karama: karama::KaramaData,
    /// 000 2.07: what the Ixians did this turn.
    pub(crate) ixians: crate::factions::ixians::Turn,
    /// 000 2.08: what the Tleilaxu did this turn.
    pub(crate) tleilaxu: crate::factions::tleilaxu::Turn,
    /// 000 3.03: what the Second Expansion's cards leave in force.
    pub(crate) cards: second_expansion::CardData,
    /// Cards of another ruleset's deck already reported this turn (0.06).
    pub(crate) foreign_cards: Vec<Card>,
    /// Every arrival of forces this turn, in order (see [`Entered`]).
    pub(crate) entries: Vec<Entered>,
    /// Ecaz's and Moritani's data of this turn.
    pub(crate) ecaz: crate::factions::ecaz::EcazTurn,
    pub(crate) moritani: crate::factions::moritani::MoritaniTurn,
}

pub(crate) struct Replay {
    pub(crate) st: GameState,
    pub(crate) opts: ReplayOptions,
    pub(crate) violations: Vec<Violation>,
    pub(crate) turns: Vec<TurnSummary>,
    pub(crate) pos: Pos,
    /// Player circle of each seat's faction; `None` for factions not in play.
    pub(crate) circles: [Option<u8>; Faction::COUNT],
    pub(crate) t: TurnData,
    pub(crate) setup: setup::SetupData,
    /// Wormsign peek waiting for the next spice blow (2.01.07), audit mode.
    pub(crate) pending_peek: Option<(Pos, SpiceCard)>,
    /// Sealed Fremen storm card for the next storm (2.04.13), audit mode.
    pub(crate) sealed_storm_card: Option<(Pos, u32)>,
    pub(crate) winner: Option<WinResult>,
    pub(crate) win_attempts: Vec<(u32, Vec<WinAttempt>)>,
    pub(crate) end: GameEnd,
    /// Ecaz's and Moritani's data that lasts the whole game.
    pub(crate) ecaz: crate::factions::ecaz::EcazData,
    pub(crate) moritani: crate::factions::moritani::MoritaniData,
    pub(crate) phases: Vec<TurnSummary>,
    pub(crate) ended: bool,
    pub(crate) game_over_reported: bool,
    /// Statements of the current phase replayed so far (a card played "at the beginning of a
    /// phase" comes before them: Amal, 000 3.02.01).
    pub(crate) phase_statements: u32,
    /// Deal and bribe terms open now (1.12), checked against every later action.
    pub(crate) deals: Vec<deals::OpenTerm>,
    /// Terms the engine cannot check.
    pub(crate) not_checked: Vec<NotChecked>,
}

impl Replay {
    pub(crate) fn new(game: &Game, opts: ReplayOptions) -> Self {
        let (options, factions, circles, header_violations) = setup::read_header(game);
        let st = GameState::new(options, factions);
        let mut r = Replay {
            st,
            opts,
            violations: Vec::new(),
            turns: Vec::new(),
            pos: Pos { line: 1, col: 1 },
            circles,
            t: TurnData::default(),
            setup: setup::SetupData::default(),
            pending_peek: None,
            sealed_storm_card: None,
            winner: None,
            win_attempts: Vec::new(),
            end: GameEnd {
                logged: None,
                limit: false,
            },
            ecaz: Default::default(),
            moritani: Default::default(),
            phases: Vec::new(),
            ended: false,
            game_over_reported: false,
            phase_statements: 0,
            deals: Vec::new(),
            not_checked: Vec::new(),
        };
        for (pos, rule, msg) in header_violations {
            r.v_at(pos, rule, msg);
        }
        r.begin_setup();
        r
    }

    // ---- reporting ----

    pub(crate) fn v(&mut self, rule: Rule, message: impl Into<String>) {
        let pos = self.pos;
        self.v_at(pos, rule, message);
    }

    /// A violation of a rule in Mentat's numbering (`rule!`: GenCon's number where GenCon has
    /// the rule, else the full rulebook's), cited in the book of the game's ruleset
    /// (`dune::Book::cite`): a `full` game's 1.06.03.05 is 000's 1.06.02.05, and a number only
    /// the full rulebook has (an expansion faction's, 2.07-2.13; an expansion's card, 3.02 on)
    /// is read in it whatever the game.
    pub(crate) fn v_at(&mut self, pos: Pos, rule: Rule, message: impl Into<String>) {
        let cited = self
            .st
            .options()
            .ruleset
            .book()
            .cite_in(rule, self.st.options().edition);
        self.v_cited(pos, cited, message);
    }

    /// A violation of a rule of the full rulebook by its own number (000 numbering), as the
    /// expansion factions' modules cite theirs, in the game's edition where 000 prints two
    /// texts: 000's 1.14.07 is the Ixians' Karama power whatever GenCon's 1.14.07 is.
    pub(crate) fn v_full(&mut self, rule: Rule, message: impl Into<String>) {
        let pos = self.pos;
        let cited = dune::BookRule::new(dune::Book::Full, rule, self.st.options().edition);
        self.v_cited(pos, cited, message);
    }

    /// A violation of `rule` as `book` numbers it: the full rulebook's own number (an expansion
    /// faction's Karama power), or Mentat's numbering, cited in the game's book ([`Replay::v_at`]).
    pub(crate) fn v_book(
        &mut self,
        book: dune::Book,
        pos: Pos,
        rule: Rule,
        message: impl Into<String>,
    ) {
        match book {
            dune::Book::Full => {
                let cited = dune::BookRule::new(book, rule, self.st.options().edition);
                self.v_cited(pos, cited, message);
            }
            dune::Book::GenCon => self.v_at(pos, rule, message),
        }
    }

    fn v_cited(&mut self, pos: Pos, cited: dune::BookRule, message: impl Into<String>) {
        self.violations.push(Violation {
            pos,
            turn: self.st.turn,
            phase: self.st.phase,
            rule: cited.rule(),
            book: cited.book(),
            edition: cited.edition(),
            message: message.into(),
            see_also: Vec::new(),
        });
    }

    /// A violation of `rule` that names the situation, with the other rules that say the same
    /// (`see_also`, listed on the violation for the judge): see [`Violation::see_also`].
    pub(crate) fn v_also(&mut self, rule: Rule, see_also: &[Rule], message: impl Into<String>) {
        let pos = self.pos;
        self.v_at_also(pos, rule, see_also, message);
    }

    /// [`Replay::v_also`] at a given position.
    pub(crate) fn v_at_also(
        &mut self,
        pos: Pos,
        rule: Rule,
        see_also: &[Rule],
        message: impl Into<String>,
    ) {
        self.v_at(pos, rule, message);
        if let Some(v) = self.violations.last_mut() {
            // Read in the same book as the rule cited (a `full` game's numbers).
            let book = v.book;
            v.see_also = see_also
                .iter()
                .copied()
                .filter(|&r| r != rule)
                .map(|r| book.cite(r).rule())
                .collect();
        }
    }

    // ---- small helpers shared by the phase modules ----

    pub(crate) fn spice(&self, f: Faction) -> Spice {
        self.st.faction(f).spice
    }

    /// For shortfall messages: bribe spice in front of the shield cannot be spent yet (1.12.02).
    pub(crate) fn bribe_note(&self, f: Faction) -> String {
        match self.st.faction(f).bribes {
            b if b.is_zero() => String::new(),
            b => format!(
                " (its {b} bribe spice stays in front of the shield until the Mentat Pause and cannot be spent before, 1.12.02)"
            ),
        }
    }

    /// Moves spice from a faction to a payee (saturating: a shortfall has been reported already).
    pub(crate) fn pay(&mut self, from: Faction, to: crate::dgn::Payee, amount: Spice) {
        let paid = amount.min(self.spice(from));
        self.st.faction_mut(from).spice = self.spice(from).saturating_sub(paid);
        match to {
            crate::dgn::Payee::Faction(g) => self.st.faction_mut(g).gain(paid),
            crate::dgn::Payee::Bank => self.st.bank_out -= i64::from(paid.amount()),
        }
    }

    /// The bank pays a faction (charity, income, spice for leaders, the rulebook's other
    /// sources): the one door spice comes out of the bank to a player by.
    pub(crate) fn bank_pays(&mut self, f: Faction, amount: Spice) {
        self.st.faction_mut(f).gain(amount);
        self.st.bank_out += i64::from(amount.amount());
    }

    /// Spice put on the map from the bank (a blow) or taken off it to the bank (the storm, a worm,
    /// an explosion): `sign` +1 or -1.
    pub(crate) fn map_spice_from_bank(&mut self, amount: Spice, sign: i64) {
        self.st.bank_out += sign * i64::from(amount.amount());
    }

    /// The rule to cite when a log names `given` as the payee of `fee` and the rules send it to
    /// `payee`: the rule of the faction that receives it (or that the log wrongly names), else
    /// the rule that sends it to the bank.
    pub(crate) fn payee_rule(
        &self,
        fee: crate::factions::Fee,
        payee: crate::dgn::Payee,
        given: crate::dgn::Payee,
    ) -> Rule {
        [payee, given]
            .into_iter()
            .find_map(|p| match p {
                crate::dgn::Payee::Faction(g) => crate::factions::rules(g).receives(fee),
                crate::dgn::Payee::Bank => None,
            })
            .unwrap_or(fee.bank_rule())
    }

    /// Where `payer`'s payment of `fee` goes by the rules: to a faction whose rules claim it
    /// ([`crate::factions::FactionRules::payee`]: the Emperor for cards, the Guild for
    /// shipments, …), else to the bank; nobody pays itself. The payee the log names at the
    /// payment (`$n>payee`) is checked here, at its own position, under the rule that sends the
    /// spice where it goes (or the Karama that sent it to the bank), with the computed payee in
    /// the message. Returns the payee to pay.
    pub(crate) fn settle_payee(
        &mut self,
        fee: crate::factions::Fee,
        payer: Faction,
        logged: Option<&crate::dgn::Payment>,
        what: impl FnOnce() -> String,
    ) -> crate::dgn::Payee {
        let claim = self.payee_of(fee, payer);
        let logged = logged.and_then(|p| p.payee.map(|g| (g, p.pos)));
        self.check_payee(fee, payer, claim, logged, what)
    }

    /// [`Replay::settle_payee`] once the factions have been asked (`claim`, from
    /// [`Replay::payee_of`], which uses up a Karama that stops a faction's claim): the payee by the
    /// rules, and the one the log names (`logged`: the payee and where it is written) checked
    /// against it.
    pub(crate) fn check_payee(
        &mut self,
        fee: crate::factions::Fee,
        payer: Faction,
        claim: Option<crate::factions::PayeeRule>,
        logged: Option<(crate::dgn::Payee, Pos)>,
        what: impl FnOnce() -> String,
    ) -> crate::dgn::Payee {
        use crate::dgn::Payee;
        let payee = match claim.map_or(fee.default_payee(), |c| c.payee) {
            Payee::Faction(g) if g == payer => Payee::Bank,
            p => p,
        };
        if let Some((given, pos)) = logged
            && given != payee
        {
            match claim.and_then(|c| c.block) {
                Some(b) => {
                    let why = b.describe();
                    self.v_at_also(
                        pos,
                        b.rule(),
                        &[b.info.rule],
                        format!("{} is paid to the bank, not {given}: {why}", what()),
                    );
                }
                None => {
                    // The rule of the faction that receives it, else of the one the log names,
                    // else the one that sends it to its default payee.
                    let rule = claim
                        .filter(|c| c.payee == payee)
                        .map_or_else(|| self.payee_rule(fee, payee, given), |c| c.rule);
                    let also = match fee.bank_rule() {
                        r if r != rule && payee == fee.default_payee() => vec![r],
                        _ => Vec::new(),
                    };
                    self.v_at_also(
                        pos,
                        rule,
                        &also,
                        format!("{} is paid to {payee}, not {given}", what()),
                    );
                }
            }
        }
        payee
    }

    /// `f`'s forces arrived in `t` (see [`Entered`]): the Bene Gesserit's Intrusion, ambassadors
    /// and terror tokens answer the latest arrival.
    pub(crate) fn entered(&mut self, f: Faction, t: Territory, advisors: bool) {
        self.entered_from(f, None, t, advisors);
    }

    /// As [`Replay::entered`], for forces that moved from `from`.
    pub(crate) fn entered_from(
        &mut self,
        f: Faction,
        from: Option<Territory>,
        t: Territory,
        advisors: bool,
    ) {
        if self.st.phase == Phase::Movement {
            self.t.mv.last_entry = Some((f, t));
        }
        self.t.entries.push(Entered {
            faction: f,
            territory: t,
            advisors,
            phase: self.st.phase,
            from,
        });
    }

    /// Tokens in `t` (one piece, or all of it) answer what hit it (see
    /// [`crate::factions::FactionRules::board_hit`]).
    pub(crate) fn hit_board(
        &mut self,
        t: Territory,
        piece: Option<crate::board::Piece>,
        cause: crate::factions::Hit,
    ) {
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).board_hit(self, t, piece, cause);
        }
    }

    /// The rule by which `f`'s non-fighting tokens share a territory: the Bene Gesserit's advisors
    /// (2.02.12), or a faction's own (the revised Ecaz's co-occupied forces, 000 2.11.06).
    pub(crate) fn coexist_rule(&self, f: Faction) -> Rule {
        self.st
            .in_play
            .iter()
            .find_map(|g| crate::factions::rules(g).coexist_rule(self, f))
            .unwrap_or(rule!("2.02.12"))
    }

    pub(crate) fn in_play_or_report(&mut self, f: Faction) -> bool {
        if self.st.plays(f) {
            true
        } else {
            self.v(
                rule!("0.08"),
                format!("{f} is not playing at this table (see the Factions tag)"),
            );
            false
        }
    }

    pub(crate) fn allies(&self, a: Faction, b: Faction) -> bool {
        self.st.ally(a) == Some(b)
    }

    /// The faction's forces in a territory, as words for messages.
    pub(crate) fn list(factions: &[Faction]) -> String {
        match factions {
            [] => "nobody".into(),
            [a] => a.to_string(),
            [rest @ .., last] => {
                format!(
                    "{} and {last}",
                    rest.iter()
                        .map(|f| f.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        }
    }

    /// Plays a card from a hand: takes a known copy, else a card of unknown identity. Reports
    /// when the hand is empty, or (audit mode) when every card in it is known and none matches.
    /// The card goes to the discard pile unless `keep`.
    pub(crate) fn play_card(&mut self, f: Faction, card: Card, rule: Rule, keep: bool) -> bool {
        let ok = self.take_card(f, card, rule);
        self.place_card(f, card, keep);
        ok
    }

    /// Takes a played card out of a hand (see [`Replay::play_card`]); the caller then places it
    /// with [`Replay::place_card`] (battle plans keep their cards until the battle is resolved).
    pub(crate) fn take_card(&mut self, f: Faction, card: Card, rule: Rule) -> bool {
        let hand = &self.st.faction(f).hand;
        let slot = hand
            .iter()
            .position(|c| *c == Some(card))
            .or_else(|| hand.iter().position(Option::is_none));
        match slot {
            Some(i) => {
                self.st.faction_mut(f).hand.remove(i);
                true
            }
            None if hand.is_empty() => {
                self.v(
                    rule,
                    format!("{f} plays {card} but holds no treachery card"),
                );
                false
            }
            None => {
                let known: Vec<String> = hand.iter().flatten().map(|c| c.to_string()).collect();
                self.v(
                    rule,
                    format!(
                        "{f} plays {card}, but its recorded hand is {}",
                        known.join(", ")
                    ),
                );
                // Keep the books straight: the physical card left the hand.
                self.st.faction_mut(f).hand.pop();
                false
            }
        }
    }

    /// Puts a played card back in the hand (`keep`) or on the discard pile (Family Atomics is
    /// set aside, 3.01.07).
    pub(crate) fn place_card(&mut self, f: Faction, card: Card, keep: bool) {
        if keep {
            self.st.faction_mut(f).hand.push(Some(card));
        } else if card == Card::FamilyAtomics {
            self.st.treachery_removed.push(card);
        } else {
            self.st.treachery_discard.push(card);
        }
        self.check_copies(card);
    }

    /// A card whose identity became known: no more copies than the deck holds (board-data §4.1).
    pub(crate) fn check_copies(&mut self, card: Card) {
        let known = self.st.known_copies(card);
        let copies = self.st.copies(card);
        if copies == 0 {
            if known > 0 && !self.t.foreign_cards.contains(&card) {
                self.t.foreign_cards.push(card);
                let why = if self.st.options.ruleset == tournament::ruleset::Ruleset::Full {
                    "this table's deck holds it only with the expansion's factions seated"
                } else {
                    "the GenCon deck holds the classic cards only"
                };
                self.v(
                    rule!("0.06"),
                    format!("{card} is a card of {}: {why}", card.set().name()),
                );
            }
            return;
        }
        // The copy an expansion adds is the one too many when it is in play (000 3.02.09).
        let extra_rule = crate::board::data::EXTRA_COPIES
            .iter()
            .find(|(set, c, _, _)| *c == card && self.st.card_sets.contains(set))
            .map(|(_, _, _, r)| *r);
        if known > usize::from(copies) {
            self.v(
                extra_rule.unwrap_or(card.rule()),
                format!("{card} has been seen {known} times, but the deck holds only {copies} (a card is misidentified)"),
            );
        }
    }

    /// Can this faction use this card as a Karama (3.01.11; a faction's ability may let it use
    /// others, as the Bene Gesserit's worthless cards, 2.02.22)?
    pub(crate) fn karama_card(&mut self, f: Faction, card: Option<Card>) -> Card {
        let card = card.unwrap_or(Card::Karama);
        if card != Card::Karama && !crate::factions::rules(f).karama_card(self, card) {
            self.v(rule!("3.01.11"), format!("{f} cannot use {card} as a Karama card (only the Bene Gesserit may use a worthless card, 2.02.22)"));
        }
        card
    }

    /// Sealed contents are used only in audit mode.
    pub(crate) fn sealed<'a, T>(&self, s: &'a Sealed<T>) -> Option<&'a T> {
        if self.opts.audit { s.open() } else { None }
    }

    // ---- events and phases ----

    pub(crate) fn event(&mut self, ev: &Event) {
        self.pos = ev.pos;
        if (self.ended || self.st.finished)
            && !matches!(
                ev.stmt,
                Stmt::Ruling(_)
                    | Stmt::Check
                    | Stmt::Clock { .. }
                    | Stmt::Deal { .. }
                    | Stmt::End { .. }
            )
        {
            if !self.game_over_reported {
                self.game_over_reported = true;
                let rule = if self.st.finished {
                    rule!("1.09.03")
                } else {
                    rule!("0.02")
                };
                self.v(
                    rule,
                    "the game is over; nothing after its end can be replayed",
                );
            }
            return;
        }
        match &ev.stmt {
            Stmt::Clock { limit: true, .. } | Stmt::Turn { limit: true, .. } => {
                self.end.limit = true
            }
            Stmt::End { turn, reason } => self.end.logged = Some((*turn, reason.clone())),
            _ => {}
        }
        match ev.section {
            Section::Turn => {
                if let Stmt::Turn { number, .. } = ev.stmt {
                    self.new_turn(number);
                }
            }
            Section::Phase(Phase::Setup) => {
                if self.st.turn != 0 {
                    self.v(
                        rule!("0.01"),
                        "setup statements (TR, PRED, TC, PLACE, STORM0) belong in T0",
                    );
                }
                self.setup_event(ev);
            }
            Section::Any => self.any_event(ev),
            Section::Nexus if self.st.turn > 0 && self.st.phase > Phase::SpiceBlow => {
                // Alliances are made and broken only in a Nexus, at the end of the Spice Blow and
                // Nexus phase; once it is over none can be until the next one (1.10.01.06).
                self.v_also(
                    rule!("1.10.01.06"),
                    &[rule!("1.10.00")],
                    format!(
                        "alliances are made and broken only in a Nexus, at the end of the Spice Blow and Nexus phase; the {} phase has begun, so this waits for the next Nexus",
                        self.st.phase
                    ),
                );
            }
            section => {
                let phase = section.phase().unwrap_or(Phase::Mentat);
                if self.st.turn == 0 {
                    self.v(rule!("0.15"), "phase statements need a turn: T1 is missing");
                    self.new_turn(1);
                }
                self.enter(phase);
                self.phase_statements += 1;
                if matches!(ev.stmt, Stmt::Trade(_)) {
                    // The trading factions' own statements (000 2.09, 2.10, 2.13, 3.03).
                    crate::factions::ability_statement(self, ev);
                } else {
                    match phase {
                        Phase::Storm => self.storm_event(ev),
                        Phase::SpiceBlow => self.blow_event(ev),
                        Phase::Charity => self.charity_event(ev),
                        Phase::Bidding => self.bidding_event(ev),
                        Phase::Revival => self.revival_event(ev),
                        Phase::Movement => self.movement_event(ev),
                        Phase::Battle => self.battle_event(ev),
                        Phase::Collection => self.collect_event(ev),
                        _ => self.mentat_event(ev),
                    }
                }
            }
        }
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).after_event(self, ev);
        }
        self.check_assertions(&ev.asserts);
    }

    /// Moves on to `target`, closing the phases in between.
    pub(crate) fn enter(&mut self, target: Phase) {
        if target < self.st.phase {
            self.v(
                target.rule(),
                format!("{} statements come before the {} phase; this line is out of phase order (replayed where it stands)", target, self.st.phase),
            );
            return;
        }
        while self.st.phase < target && !self.st.finished {
            self.finish_phase();
            let Some(next) = self.st.phase.next() else {
                break;
            };
            self.st.phase = next;
            self.phase_statements = 0;
            self.begin_phase();
        }
    }

    pub(crate) fn begin_phase(&mut self) {
        match self.st.phase {
            Phase::Charity => {
                for f in self.st.in_play.iter() {
                    crate::factions::rules(f).begin_charity(self);
                }
            }
            Phase::Bidding => self.begin_bidding(),
            Phase::Battle => self.begin_battle(),
            Phase::Collection => self.begin_collection(),
            Phase::Mentat => self.begin_mentat(),
            _ => {}
        }
    }

    pub(crate) fn finish_phase(&mut self) {
        self.finish_phase_rules();
        if self.opts.snapshots {
            let s = self.summary();
            self.phases.push(s);
        }
    }

    pub(crate) fn finish_phase_rules(&mut self) {
        let phase = self.st.phase;
        self.finish_phase_own_rules();
        for f in self.st.in_play.iter() {
            crate::factions::rules(f).end_of_phase(self, phase);
        }
    }

    fn finish_phase_own_rules(&mut self) {
        match self.st.phase {
            Phase::Setup => self.finish_setup(),
            Phase::Storm => self.finish_storm(),
            Phase::SpiceBlow => self.finish_blow(),
            Phase::Bidding => self.finish_bidding(),
            Phase::Movement => self.finish_movement(),
            Phase::Battle => self.finish_battle(),
            Phase::Collection => self.finish_collection(),
            Phase::Mentat => self.finish_mentat(),
            _ => {}
        }
    }

    /// Closes every phase left in the current turn, through the Mentat Pause.
    pub(crate) fn close_turn(&mut self) {
        if self.st.turn == 0 {
            if self.st.phase == Phase::Setup {
                self.finish_phase();
                // Turn 1 starts with the storm already placed by 0.16.
                self.st.phase = Phase::Storm;
            }
            return;
        }
        self.enter(Phase::Mentat);
        if self.st.phase == Phase::Mentat {
            self.finish_phase();
        }
    }

    pub(crate) fn new_turn(&mut self, number: u32) {
        if number == 0 && self.st.turn == 0 && self.st.phase == Phase::Setup && !self.setup.seen_t0
        {
            self.setup.seen_t0 = true;
            return;
        }
        let expected = self.st.turn + 1;
        if number != expected {
            self.v(
                rule!("0.15"),
                format!(
                    "expected turn T{expected} here, found T{number} (turns are numbered in order)"
                ),
            );
        }
        self.close_turn();
        if self.st.finished {
            if !self.game_over_reported {
                self.game_over_reported = true;
                self.v(
                    rule!("1.09.03"),
                    "the game was won at the last Mentat Pause; no further turn is played",
                );
            }
            return;
        }
        self.st.turn = expected;
        if self.st.turn > self.st.options.max_turns {
            self.v(
                rule!("0.02"),
                format!("the game lasts at most {} turns", self.st.options.max_turns),
            );
            self.ended = true;
            return;
        }
        self.st.phase = Phase::Storm;
        self.phase_statements = 0;
        self.t = TurnData::default();
    }

    pub(crate) fn finish(mut self) -> ReplayReport {
        // A log that stops during setup is a game in progress, like one that stops mid-turn:
        // what setup still lacks is not reported until `T1` or `END` closes it.
        if self.st.turn == 0 && self.st.phase == Phase::Setup && self.ended {
            self.finish_phase();
        }
        if self.st.phase == Phase::Storm && !self.ended {
            // A storm movement logged last is still made. A card that changes it (Weather
            // Control, Family Atomics, a Karama against the Fremen's half losses) is logged
            // before the storm line, so the line can be judged now.
            self.flush_storm();
        }
        let last_recorded = self.turns.last().map(|s| (s.turn, s.phase));
        if last_recorded != Some((self.st.turn, Phase::Mentat)) && self.st.turn > 0 {
            let s = self.summary();
            self.turns.push(s);
        }
        self.violations.sort_by_key(|v| v.pos);
        ReplayReport {
            violations: self.violations,
            turns: self.turns,
            state: self.st,
            winner: self.winner,
            win_attempts: self.win_attempts,
            end: self.end,
            phases: self.phases,
            not_checked: self.not_checked,
        }
    }

    pub(crate) fn summary(&self) -> TurnSummary {
        let st = &self.st;
        let mut forces = Vec::with_capacity(24);
        let stacks = st.territory_stacks();
        for t in Territory::all() {
            let v: Vec<(Faction, Stack)> = st
                .seated
                .iter()
                .map(|&f| (f, stacks[t.index()][f.index()]))
                .filter(|(_, s)| !s.is_empty())
                .collect();
            if !v.is_empty() {
                forces.push((t, v));
            }
        }
        let mut alliances = Vec::new();
        for f in st.in_play.iter() {
            if let Some(a) = st.ally(f)
                && f < a
            {
                alliances.push((f, a));
            }
        }
        let control: Vec<(Stronghold, Faction)> = st
            .victory_strongholds()
            .filter_map(|s| st.controller(s).map(|f| (s, f)))
            .collect();
        let kwisatz = self.kwisatz_summary();
        TurnSummary {
            spice_on_map: {
                let by = st.spice_by_territory();
                Territory::all()
                    .map(|t| (t, by[t.index()]))
                    .filter(|(_, n)| !n.is_zero())
                    .collect()
            },
            control,
            shield_wall_counts: st.shield_wall_counts(),
            stronghold_cards: Stronghold::ALL
                .into_iter()
                .filter_map(|s| st.stronghold_card_holder(s).map(|f| (s, f)))
                .collect(),
            leaders: {
                // Every pool in one pass over the leaders.
                let mut pools: [Vec<Leader>; Faction::COUNT] = Default::default();
                for l in Leader::all() {
                    if let crate::state::LeaderState::Pool(h) = st.leader(l) {
                        pools[h.index()].push(l);
                    }
                }
                st.seated
                    .iter()
                    .map(|&f| (f, std::mem::take(&mut pools[f.index()])))
                    .collect()
            },
            kwisatz,
            win_attempts: self.t.battle.win_attempts.clone(),
            tokens: st
                .tokens
                .iter()
                .filter_map(|k| k.view(self.opts.audit))
                .collect(),
            cards: self.opts.audit.then(|| {
                st.seated
                    .iter()
                    .map(|&f| (f, st.faction(f).hand.clone()))
                    .collect()
            }),
            turn: st.turn,
            phase: st.phase,
            storm: st.storm,
            hms: st
                .hms
                .and_then(|p| p.sector().map(|sector| (p.territory(), sector))),
            spice: st
                .seated
                .iter()
                .map(|&f| (f, st.faction(f).spice))
                .collect(),
            forces,
            reserves: st
                .seated
                .iter()
                .map(|&f| (f, st.faction(f).reserves))
                .collect(),
            tanks: st
                .seated
                .iter()
                .map(|&f| (f, st.faction(f).tanks))
                .collect(),
            hands: st
                .seated
                .iter()
                .map(|&f| (f, st.faction(f).hand.len()))
                .collect(),
            worms: st.worms,
            alliances,
            no_fields: st
                .richese
                .tokens
                .iter()
                .map(|n| NoFieldSummary {
                    territory: n.piece.territory(),
                    sector: n.piece.sector(),
                    value: n.value.filter(|_| self.opts.audit),
                })
                .collect(),
            no_field_front: st.richese.front,
        }
    }

    // ---- assertions ----

    pub(crate) fn check_assertions(&mut self, asserts: &[Assertion]) {
        for a in asserts {
            match a {
                Assertion::Spice { pos, values } => {
                    for &(f, n) in values {
                        let actual = self.st.faction(f).spice;
                        let bribes = self.st.faction(f).bribes;
                        let start = (self.st.turn == 0)
                            .then(|| crate::factions::rules(f).start_rules(&self.st.options))
                            .flatten();
                        if let Some(s) = start
                            && actual != n
                        {
                            self.v_at(
                                *pos,
                                s.spice,
                                format!("{f} starts with {actual} spice, not {n}"),
                            );
                        } else if actual != n && bribes > 0 && n == actual + bribes {
                            self.v_at(*pos, rule!("1.12.02"), format!("the log counts {f}'s {bribes} bribe spice as behind its shield: bribe spice stays in front of the shield until the Mentat Pause (1.09.01), so {f} has {actual} behind it"));
                        } else if actual != n {
                            // A faction's own rule may explain the difference (its starting
                            // spice, the Tleilaxu's subsidy).
                            let own = crate::factions::rules(f);
                            let rule = own
                                .spice_rule(self, n, actual)
                                .or_else(|| {
                                    (self.st.turn == 0)
                                        .then(|| own.sheet_rule(crate::factions::SheetItem::Spice))
                                        .flatten()
                                })
                                .unwrap_or(rule!("1.11.01"));
                            self.v_at(*pos, rule, format!("the log says {f} has {n} spice behind its shield; the replay gives {actual}"));
                        }
                    }
                }
                Assertion::Bribes { pos, values } => {
                    for &(f, n) in values {
                        let actual = self.st.faction(f).bribes;
                        if actual != n {
                            self.v_at(*pos, rule!("1.12.02"), format!("the log says {f} has {n} bribe spice in front of its shield; the replay gives {actual} (bribes received this turn, collected at the Mentat Pause)"));
                        }
                    }
                }
                Assertion::Hands { pos, values } => {
                    for &(f, n) in values {
                        let actual = self.st.faction(f).hand.len();
                        if actual != usize::from(n) {
                            self.v_at(*pos, rule!("1.11.02"), format!("the log says {f} holds {n} treachery cards; the replay gives {actual}"));
                        }
                    }
                }
                Assertion::Tanks { pos, values } => {
                    for &(f, c) in values {
                        let actual = self.st.faction(f).tanks;
                        if actual.total() != c.total
                            || (c.starred > 0 && actual.starred != c.starred)
                        {
                            self.v_at(*pos, rule!("1.05.01"), format!("the log says {f} has {c} forces in the tanks; the replay gives {actual}"));
                        }
                    }
                }
                Assertion::Reserves { pos, values } => {
                    for &(f, c) in values {
                        let actual = self.st.faction(f).reserves;
                        let start = (self.st.turn == 0)
                            .then(|| crate::factions::rules(f).start_rules(&self.st.options))
                            .flatten();
                        if let Some(s) = start
                            && (actual.total() != c.total
                                || (c.starred > 0 && actual.starred != c.starred))
                        {
                            let rule = if actual.total() == c.total {
                                s.starred
                            } else {
                                s.forces
                            };
                            self.v_at(
                                *pos,
                                rule,
                                format!("{f} starts with {actual} forces in reserve, not {c}"),
                            );
                        } else if actual.total() != c.total
                            || (c.starred > 0 && actual.starred != c.starred)
                        {
                            // In setup, the faction's starting forces (0.13, its 2.xx.02).
                            let rule = if self.st.turn == 0 {
                                crate::factions::rules(f)
                                    .sheet_rule(crate::factions::SheetItem::Forces)
                                    .unwrap_or(rule!("0.13"))
                            } else {
                                rule!("1.06.03")
                            };
                            self.v_at(*pos, rule, format!("the log says {f} has {c} forces in reserve; the replay gives {actual}"));
                        }
                    }
                }
                Assertion::Worms { pos, count } => {
                    if self.st.worms != *count {
                        self.v_at(*pos, rule!("4.02.00"), format!("the log counts {count} worms for the Shield Wall; the replay counts {}", self.st.worms));
                    }
                }
                Assertion::Storm { pos, sector } => {
                    if self.st.storm != Some(*sector) {
                        let actual = self
                            .st
                            .storm
                            .map_or("not placed".to_string(), |s| format!("in sector {s}"));
                        let rule = self.storm_rule();
                        self.v_at(*pos, rule, format!("the log puts the storm in sector {sector}; the replay has it {actual}"));
                    }
                }
                Assertion::Map { pos, values } => {
                    for t in Territory::all() {
                        let actual = self.st.spice_in(t);
                        let said = values
                            .iter()
                            .find(|(x, _)| *x == t)
                            .map_or(Spice::ZERO, |(_, n)| *n);
                        if actual != said {
                            self.v_at(*pos, rule!("1.02.04"), format!("the log says {said} spice lies in {}; the replay has {actual} there", t.name()));
                        }
                    }
                }
                Assertion::Kwisatz { pos, state, losses } => {
                    self.check_kwisatz_state(*pos, *state, *losses)
                }
                // Checked where they belong: losses by the effect, the wheel by its plan.
                Assertion::Losses { .. } | Assertion::Wheel { .. } | Assertion::Note(_) => {}
            }
        }
    }

    /// Compares loss assertions `(T: F -n, -$s)` with what an effect destroyed.
    pub(crate) fn check_losses(&mut self, asserts: &[Assertion], losses: &Losses, rule: Rule) {
        self.check_losses_by(asserts, losses, rule, |_, _| None);
    }

    /// [`Replay::check_losses`] where a faction's losses in a territory may be decided by a more
    /// specific rule than the effect's own (a faction ability, a card, a variant: 1.00.01-1.00.03):
    /// `specific(f, t)` names it, `None` leaves `rule`.
    pub(crate) fn check_losses_by(
        &mut self,
        asserts: &[Assertion],
        losses: &Losses,
        rule: Rule,
        specific: impl Fn(Faction, Territory) -> Option<Rule>,
    ) {
        self.check_losses_cited(asserts, losses, (rule, &[]), specific);
    }

    /// [`Replay::check_losses_by`] with the rules that say the same as the effect's own (`cite`:
    /// the rule and its see-also list; a double blow's pile rule, 1.13.02.01, beside 1.02.05).
    /// A faction's loss decided by a more specific rule lists the effect's rule as see also.
    pub(crate) fn check_losses_cited(
        &mut self,
        asserts: &[Assertion],
        losses: &Losses,
        cite: (Rule, &[Rule]),
        specific: impl Fn(Faction, Territory) -> Option<Rule>,
    ) {
        let (rule, also) = cite;
        let cited = |f: Faction, t: Territory| -> (Rule, Vec<Rule>) {
            match specific(f, t) {
                Some(r) if r != rule => {
                    let mut v = vec![rule];
                    v.extend_from_slice(also);
                    (r, v)
                }
                _ => (rule, also.to_vec()),
            }
        };
        for a in asserts {
            let Assertion::Losses {
                pos,
                territory,
                forces,
                spice,
            } = a
            else {
                continue;
            };
            for &(f, c) in forces {
                let actual = losses
                    .forces
                    .iter()
                    .find(|(t, g, _)| t == territory && *g == f)
                    .map(|(_, _, s)| *s)
                    .unwrap_or_default();
                if actual.total() != c.total || (c.starred > 0 && actual.starred != c.starred) {
                    let (r, see) = cited(f, *territory);
                    self.v_at_also(
                        *pos,
                        r,
                        &see,
                        format!(
                            "the log says {f} lost {c} in {}; the replay gives {}",
                            territory.name(),
                            actual.total()
                        ),
                    );
                }
            }
            for (t, f, s) in &losses.forces {
                if t == territory && !forces.iter().any(|(g, _)| g == f) {
                    let (r, see) = cited(*f, *t);
                    self.v_at_also(
                        *pos,
                        r,
                        &see,
                        format!(
                            "{f} also lost {} in {}, which the log does not list",
                            s.total(),
                            t.name()
                        ),
                    );
                }
            }
            if let Some(sp) = spice {
                let actual = losses
                    .spice
                    .iter()
                    .find(|(t, _)| t == territory)
                    .map_or(Spice::ZERO, |(_, n)| *n);
                if actual != *sp {
                    self.v_at_also(
                        *pos,
                        rule,
                        also,
                        format!(
                            "the log says {sp} spice was lost in {}; the replay gives {actual}",
                            territory.name()
                        ),
                    );
                }
            }
        }
    }
}

/// Faction codes joined for messages.
pub(crate) fn names_of(fs: &[Faction]) -> String {
    Replay::list(fs)
}

/// Faction codes joined for messages.
fn names(fs: impl IntoIterator<Item = Faction>) -> String {
    let v: Vec<Faction> = fs.into_iter().collect();
    Replay::list(&v)
}
