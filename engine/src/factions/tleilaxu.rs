//! The Tleilaxu (000 2.08): Face Dancers instead of traitors, their revival business (unlimited
//! and half-price revival of their own, the others' payments, the others' limit raised to five,
//! a spice for every free revival, leaders sold at their price), Zoal, their alliance ability
//! and, in the Advanced game, gholas.
//!
//! Read against 000 chapter 2 section 8, item by item (2.08.00: Basic games use 2.08.01-2.08.15,
//! Advanced ones add 2.08.16). Revival payments come to them through the one door of payments
//! ([`FactionRules::payee`], [`Fee`]); Zoal's strength is the battle arithmetic's
//! (`crate::battle::Plan::leader_strength`).

use dune::{Faction, FactionSet, Rule, Spice, rule};

use super::{
    FactionRules, Fee, ForceKinds, LeaderRevival, PayeeRule, Sheet, SheetItem, SheetRules,
};
use crate::board::Leader;
use crate::dgn::{Event, ForceCount, KaramaUse, Payee, Payment, Place, Sealed};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::state::{Forces, LeaderState, Phase};

pub(crate) struct Tleilaxu;

const TL: Faction = Faction::Tleilaxu;

/// 2.08.01 5 spice, 2.08.02 20 forces in reserve, 2.08.04 free revival 2, 2.08.03 no traitors.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(5),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 0,
    kinds: ForceKinds::PLAIN,
    start: None,
    rules: SheetRules {
        traitors: rule!("2.08.03"),
        ..SheetRules::GENERAL
    },
};

/// Face Dancers drawn (2.08.03, 2.08.06).
const DANCERS: usize = 3;
/// The revival limit the Tleilaxu may raise another faction's to (2.08.11).
const RAISED_LIMIT: u8 = 5;
/// Active leaders the Tleilaxu may have after reviving (2.08.08, 2.08.16).
const MAX_ACTIVE: usize = 5;
/// Zoal's revival cost (2.08.14).
const ZOAL_COST: u32 = 3;

pub(crate) const HALF_PRICE: Ability = Ability(rule!("2.08.09"));
pub(crate) const PAYMENT: Ability = Ability(rule!("2.08.10"));
pub(crate) const RAISE_LIMIT: Ability = Ability(rule!("2.08.11"));
pub(crate) const ALLY_HALF_PRICE: Ability = Ability(rule!("2.08.15"));
pub(crate) const GHOLAS: Ability = Ability(rule!("2.08.16"));

/// The Tleilaxu's abilities a Karama stops (000 prints no marks: docs/notation.md, Decisions).
static KARAMA: [AbilityInfo; 5] = [
    AbilityInfo::new(
        HALF_PRICE,
        TL,
        PREVENT,
        Some(Phase::Revival),
        false,
        true,
        "half-price revival",
    ),
    AbilityInfo::new(
        PAYMENT,
        TL,
        CANCEL,
        Some(Phase::Revival),
        false,
        true,
        "payment for revivals",
    ),
    AbilityInfo::new(
        RAISE_LIMIT,
        TL,
        CANCEL,
        Some(Phase::Revival),
        false,
        true,
        "raising another faction's revival limit to 5",
    ),
    AbilityInfo::new(
        ALLY_HALF_PRICE,
        TL,
        CANCEL,
        Some(Phase::Revival),
        true,
        true,
        "the ally's half-price revival",
    ),
    AbilityInfo::new(
        GHOLAS,
        TL,
        PREVENT,
        Some(Phase::Revival),
        false,
        true,
        "gholas",
    ),
];

/// The Face Dancers (kept for the whole game).
#[derive(Default)]
pub(crate) struct Dancers {
    /// `FD` was written at setup.
    drawn: bool,
    /// The three unrevealed and revealed dancers as the sealed record gives them (audit mode).
    held: Option<Vec<Option<Leader>>>,
    /// Revealed since the last draw (2.08.06: all three, then a new draw).
    revealed: Vec<Leader>,
}

/// What the Tleilaxu did this turn.
#[derive(Default)]
pub(crate) struct Turn {
    /// Factions whose revival limit they raised to 5 (2.08.11).
    allowed: FactionSet,
    /// A faction their Karama keeps from its standard revival (1.14.08).
    blocked: FactionSet,
    /// A ghola was revived this turn (2.08.16): no other faction's leader revival may follow.
    ghola: bool,
    /// A Face Dancer replaced at this Mentat Pause (2.08.07).
    replaced: bool,
    /// Spice received this turn by the subsidy (2.08.12).
    subsidy: u32,
}

impl FactionRules for Tleilaxu {
    fn faction(&self) -> Faction {
        TL
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    fn sheet_rule(&self, item: SheetItem) -> Option<Rule> {
        Some(match item {
            SheetItem::Spice => rule!("2.08.01"),
            SheetItem::Forces => rule!("2.08.02"),
            SheetItem::FreeRevival => rule!("2.08.04"),
        })
    }

    /// The subsidy of this turn (2.08.12) left out of a log's count.
    fn spice_rule(&self, r: &Replay, said: Spice, actual: Spice) -> Option<Rule> {
        let subsidy = Spice::new(r.t.tleilaxu.subsidy);
        (!subsidy.is_zero() && actual.saturating_sub(said) == subsidy).then_some(rule!("2.08.12"))
    }

    fn finish_setup(&self, r: &mut Replay) {
        if !r.setup.dancers.drawn && !r.setup.traitors.is_empty() {
            r.v_full(
                rule!("2.08.03"),
                "the Tleilaxu draw three Face Dancers after the traitors are chosen (FD TL{…}), which the log does not show",
            );
        }
    }

    /// 2.08.10: every other faction's revival payments, forces and leaders (the Emperor's for
    /// its ally's too), go to the Tleilaxu; a Karama cancelling it sends one to the bank.
    fn payee(&self, r: &mut Replay, fee: Fee, payer: Faction) -> Option<PayeeRule> {
        if !matches!(fee, Fee::Revival | Fee::LeaderRevival | Fee::AllyRevival) || payer == TL {
            return None;
        }
        let block = r.karama_take(PAYMENT);
        Some(PayeeRule {
            payee: if block.is_none() {
                Payee::Faction(TL)
            } else {
                Payee::Bank
            },
            rule: rule!("2.08.10"),
            block,
        })
    }

    fn receives(&self, fee: Fee) -> Option<Rule> {
        matches!(fee, Fee::Revival | Fee::LeaderRevival | Fee::AllyRevival)
            .then_some(rule!("2.08.10"))
    }

    /// The Tleilaxu's own revival has no limit (2.08.08); another faction's is 5 when they raise
    /// it (2.08.11).
    fn revival_limit(&self, r: &Replay, f: Faction) -> Option<(u8, Rule)> {
        if f == TL {
            Some((u8::MAX, rule!("2.08.08")))
        } else if r.t.tleilaxu.allowed.contains(f) {
            Some((RAISED_LIMIT, rule!("2.08.11")))
        } else {
            None
        }
    }

    /// Half price, rounded up: their own (2.08.09), their ally's at their choice (2.08.15).
    fn revival_prices(&self, r: &mut Replay, f: Faction, prices: &mut Vec<Spice>) -> Option<Rule> {
        let ally = r.st.ally(TL) == Some(f);
        if f == TL {
            if r.karama_take(HALF_PRICE).is_some() {
                return None;
            }
            for p in prices.iter_mut() {
                *p = p.half_up();
            }
            Some(rule!("2.08.09"))
        } else if ally {
            if r.karama_block(ALLY_HALF_PRICE).is_some() {
                return None;
            }
            let halves: Vec<Spice> = prices.iter().map(|p| p.half_up()).collect();
            prices.extend(halves);
            prices.sort();
            prices.dedup();
            Some(rule!("2.08.15"))
        } else {
            None
        }
    }

    /// 2.08.12: a spice from the bank for every other faction that takes free revival or plays a
    /// Tleilaxu Ghola.
    fn revived(&self, r: &mut Replay, f: Faction, free_used: bool, ghola: bool) {
        if f != TL && (free_used || ghola) {
            r.bank_pays(TL, Spice::new(1));
            r.t.tleilaxu.subsidy += 1;
        }
    }

    /// Their leaders: as many a turn as make five active, at half their strength (Zoal 3,
    /// 2.08.14), face down or up (2.08.08, 2.08.09); other factions' dead leaders as gholas in
    /// the Advanced game (2.08.16); their ally's at half price at their choice (2.08.15).
    fn leader_revival(&self, r: &mut Replay, f: Faction, l: Leader) -> Option<LeaderRevival> {
        if f == TL && l.faction() == TL {
            let prices = if l == Leader::Zoal {
                vec![Spice::new(ZOAL_COST)]
            } else if r.karama_take(HALF_PRICE).is_some() {
                vec![Spice::new(u32::from(l.strength()))]
            } else {
                vec![Spice::new(u32::from(l.strength())).half_up()]
            };
            let rule = if l == Leader::Zoal {
                rule!("2.08.14")
            } else {
                rule!("2.08.09")
            };
            return Some(LeaderRevival {
                prices,
                rule,
                unlimited: Some((MAX_ACTIVE, rule!("2.08.08"))),
                ghola: false,
                any_time: false,
                set_aside: false,
            });
        }
        if f == TL {
            return Some(LeaderRevival {
                prices: vec![Spice::new(u32::from(l.strength())).half_up()],
                rule: rule!("2.08.16"),
                unlimited: Some((MAX_ACTIVE, rule!("2.08.16"))),
                ghola: true,
                any_time: false,
                set_aside: false,
            });
        }
        if r.st.ally(TL) == Some(f) && l.faction() == f && r.karama_block(ALLY_HALF_PRICE).is_none()
        {
            let full = Spice::new(u32::from(l.strength()));
            return Some(LeaderRevival {
                prices: vec![full.half_up(), full],
                rule: rule!("2.08.15"),
                unlimited: None,
                ghola: false,
                any_time: false,
                set_aside: false,
            });
        }
        None
    }

    /// The Karama power (1.14.08) keeps a faction from its standard revival this turn.
    fn revival_blocked(&self, r: &Replay, f: Faction) -> Option<Rule> {
        r.t.tleilaxu.blocked.contains(f).then_some(rule!("1.14.08"))
    }

    /// Their rules are numbered in the full rulebook (000).
    fn book(&self) -> dune::Book {
        dune::Book::Full
    }

    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::BlockRevival(_)).then_some((Phase::Revival, rule!("1.14.08")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::BlockRevival(target) = usage {
            r.block_revival(*target);
        }
    }
}

impl Replay {
    /// `FD TL{…}` (2.08.03): after the traitors are chosen, three Face Dancers from the traitor
    /// deck and the cards the others put back; after all three are revealed, three new ones
    /// (2.08.06).
    pub(crate) fn face_dancers(&mut self, f: Faction, leaders: &Sealed<Vec<Option<Leader>>>) {
        if f != TL {
            self.v_full(
                rule!("2.08.03"),
                format!("only the Tleilaxu draw Face Dancers, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        let rule = if self.st.turn == 0 {
            if self.setup.dancers.drawn {
                self.v_full(rule!("2.08.03"), "the Face Dancers are drawn once at setup");
                return;
            }
            let waiting: Vec<Faction> = self
                .st
                .in_play
                .iter()
                .filter(|&g| {
                    g != TL && !self.setup.traitors.is_empty() && !self.setup.traitors.contains(g)
                })
                .collect();
            if !waiting.is_empty() {
                self.v_full(
                    rule!("2.08.03"),
                    format!(
                        "the Face Dancers are drawn after every other player has chosen its traitor; {} have not yet",
                        Self::list(&waiting)
                    ),
                );
            }
            self.setup.dancers.drawn = true;
            rule!("2.08.03")
        } else {
            if self.setup.dancers.revealed.len() < DANCERS {
                self.v_full(
                    rule!("2.08.06"),
                    format!(
                        "the Tleilaxu draw new Face Dancers once all three are revealed; {} of them are",
                        self.setup.dancers.revealed.len()
                    ),
                );
                return;
            }
            self.setup.dancers.revealed.clear();
            rule!("2.08.06")
        };
        let Some(list) = self.sealed(leaders).cloned() else {
            self.setup.dancers.held = None;
            return;
        };
        if list.len() != DANCERS {
            self.v_full(
                rule,
                format!(
                    "the Tleilaxu draw {DANCERS} Face Dancers, not {}",
                    list.len()
                ),
            );
        }
        for l in list.iter().flatten() {
            if !self.st.plays(l.faction()) {
                self.v_full(
                    rule,
                    format!("{l} is a {} leader; the traitor deck holds only the leaders of the factions in play", l.faction()),
                );
            }
            let kept = self.st.in_play.iter().find(|&g| {
                self.st
                    .faction(g)
                    .traitors
                    .as_ref()
                    .is_some_and(|t| t.contains(&Some(*l)))
            });
            if let Some(g) = kept {
                self.v_full(
                    rule,
                    format!(
                        "{l} is {g}'s traitor, kept behind its shield and not in the traitor deck"
                    ),
                );
            }
        }
        self.setup.dancers.held = Some(list);
    }

    /// `TL facedancer leader [n [from place forces, …]]` (2.08.05): after another faction wins
    /// a battle, its leader revealed as a Face Dancer: the battle stays its win, the leader goes
    /// to the tanks unpaid, and the winner's forces there go home, replaced by up to as many
    /// Tleilaxu forces from reserve or the board.
    pub(crate) fn face_dancer(
        &mut self,
        f: Faction,
        l: Leader,
        replace: Option<&(u8, Vec<(Place, ForceCount)>)>,
    ) {
        let rule = rule!("2.08.05");
        if f != TL {
            self.v_full(
                rule,
                format!("only the Tleilaxu reveal Face Dancers, not {f}"),
            );
            return;
        }
        let Some(last) = self.t.battle.last.clone() else {
            self.v_full(
                rule!("2.08.05.00"),
                "a Face Dancer is revealed when another faction wins a battle, right after it",
            );
            return;
        };
        let Some(winner) = last.winner else {
            self.v_full(rule!("2.08.05.00"), "nobody won this battle");
            return;
        };
        if winner == TL {
            self.v_full(
                rule!("2.08.05.00"),
                "a Face Dancer is revealed when another faction wins a battle, not the Tleilaxu",
            );
            return;
        }
        let side = usize::from(last.lost[1].0 == winner);
        if last.leaders[side] != crate::dgn::PlanLeader::Leader(l) {
            self.v_full(
                rule!("2.08.05.00"),
                format!("{l} is not the leader {winner} won this battle with"),
            );
            return;
        }
        if self.setup.dancers.revealed.contains(&l) {
            self.v_full(
                rule,
                format!("{l} has already been revealed as a Face Dancer"),
            );
            return;
        }
        if self.opts.audit
            && let Some(held) = &self.setup.dancers.held
            && !held.contains(&Some(l))
            && !held.contains(&None)
        {
            self.v_full(
                rule,
                format!("{l} is not one of the Tleilaxu's sealed Face Dancers"),
            );
            return;
        }
        self.setup.dancers.revealed.push(l);
        // 2.08.05.02: to the tanks if the battle did not kill it, and no spice for it.
        if !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. }) {
            self.kill_leader(l);
        }
        if let Some(&(_, paid)) = last.paid_for.iter().find(|(x, _)| *x == l) {
            let paid = self.st.faction_mut(winner).spice.take(paid);
            self.map_spice_from_bank(paid, -1);
        }
        // 2.08.05.03: the winner's forces there go home; the Tleilaxu may replace them.
        let t = last.territory;
        let mut home = Forces::default();
        let mut landing = None;
        for &p in t.pieces() {
            let s = std::mem::take(self.st.stack_mut(winner, p));
            if !s.is_empty() {
                landing = Some(p);
            }
            home.add(s.forces());
        }
        self.st.faction_mut(winner).reserves.add(home);
        self.battle_done_in(t);
        let Some((n, from)) = replace else { return };
        let Some(p) = landing.or_else(|| t.pieces().first().copied()) else {
            return;
        };
        if u32::from(*n) > u32::from(home.total()) {
            self.v_full(
                rule!("2.08.05.03"),
                format!(
                    "the Tleilaxu replace up to the {} forces {winner} had there, not {n}",
                    home.total()
                ),
            );
        }
        let mut placed: u8 = 0;
        for (place, c) in from {
            let got = self.take_forces(TL, *place, *c, rule!("2.08.05.03"));
            let k = got.map_or(0, |s| s.total());
            placed = placed.saturating_add(k);
            if let Some(s) = got {
                self.st.stack_mut(TL, p).add(s);
            }
            self.battle_done_in(place.territory);
        }
        let rest = n.saturating_sub(placed);
        if rest > 0 {
            let reserves = self.st.faction(TL).reserves;
            if reserves.total() < rest {
                self.v_full(
                    rule!("2.08.05.03"),
                    format!("the Tleilaxu have {reserves} forces in reserve, not {rest}"),
                );
            }
            self.st
                .place_from_reserves(TL, p, ForceCount::plain(rest), false);
        }
        // The territory's battles change with its forces.
        self.battle_done_in(t);
    }

    /// `P TL replace leader{new}` (2.08.07): at War Continues, an unrevealed Face Dancer goes back
    /// into the traitor deck and a new one is drawn (one a Mentat Pause).
    pub(crate) fn replace_dancer(&mut self, f: Faction, l: Leader, new: &Sealed<Option<Leader>>) {
        let rule = rule!("2.08.07");
        if f != TL {
            self.v_full(
                rule,
                format!("only the Tleilaxu replace a Face Dancer, not {f}"),
            );
            return;
        }
        if self.st.phase != Phase::Mentat
            || self.t.mentat.as_ref().is_some_and(|m| m.winner.is_some())
        {
            self.v_full(
                rule,
                "a Face Dancer is replaced at the Mentat Pause when the war continues",
            );
            return;
        }
        if self.t.tleilaxu.replaced {
            self.v_full(
                rule,
                "the Tleilaxu replace one Face Dancer at a Mentat Pause",
            );
            return;
        }
        self.t.tleilaxu.replaced = true;
        if self.setup.dancers.revealed.contains(&l) {
            self.v_full(
                rule,
                format!("{l} has been revealed; only an unrevealed Face Dancer is replaced"),
            );
            return;
        }
        let newcomer = self.sealed(new).copied().flatten();
        if let Some(held) = self.setup.dancers.held.as_mut() {
            match held.iter().position(|x| *x == Some(l)) {
                Some(i) => held[i] = newcomer,
                None if self.opts.audit && !held.contains(&None) => {
                    self.v_full(
                        rule,
                        format!("{l} is not one of the Tleilaxu's sealed Face Dancers"),
                    );
                }
                None => {
                    if let Some(i) = held.iter().position(Option::is_none) {
                        held[i] = newcomer;
                    }
                }
            }
        }
    }

    /// `R TL allow F` (2.08.11): F may revive up to five forces this turn.
    pub(crate) fn allow_revival(&mut self, f: Faction, target: Faction) {
        let rule = rule!("2.08.11");
        if f != TL {
            self.v_full(
                rule,
                format!("only the Tleilaxu raise another faction's revival limit, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) || !self.in_play_or_report(target) {
            return;
        }
        if target == TL {
            self.v_full(
                rule,
                "the Tleilaxu raise another faction's limit; their own has none (2.08.08)",
            );
            return;
        }
        if self.t.revival.forces.contains(target) {
            self.v_full(
                rule,
                format!(
                    "{target} has already revived this turn: the limit is raised before it revives"
                ),
            );
            return;
        }
        if self.karama_forbids(
            RAISE_LIMIT,
            &format!("the Tleilaxu raise {target}'s revival limit"),
        ) {
            return;
        }
        self.t.tleilaxu.allowed.insert(target);
    }

    /// `R TL sell L:leader $n` (2.08.13): at a faction's request the Tleilaxu revive one of its
    /// leaders, face up or down, at their price, while fewer than five of its leaders are in the
    /// tanks (with all five there, the normal revival rules apply).
    pub(crate) fn sell_leader(&mut self, f: Faction, l: Leader, payment: Option<&Payment>) {
        let rule = rule!("2.08.13");
        if f != TL {
            self.v_full(rule, format!("only the Tleilaxu sell leaders, not {f}"));
            return;
        }
        let buyer = l.faction();
        if buyer == TL {
            self.v_full(
                rule,
                "the Tleilaxu sell other factions their leaders; theirs they revive (2.08.08)",
            );
            return;
        }
        if !self.in_play_or_report(buyer) {
            return;
        }
        if !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. }) {
            self.v_full(rule, format!("{l} is not in the tanks"));
            return;
        }
        let dead = Leader::of(buyer)
            .filter(|x| matches!(self.st.leaders[x.index()], LeaderState::Tanks { .. }))
            .count();
        if dead >= 5 {
            self.v_full(
                rule,
                format!("all five of {buyer}'s leaders are in the tanks: the normal revival rules apply (R {buyer} L:{l})"),
            );
            return;
        }
        let price = payment.map_or(Spice::ZERO, |p| p.amount);
        if price > self.spice(buyer) {
            self.v_full(
                rule,
                format!(
                    "{buyer} must pay the Tleilaxu's price of {price} spice but has {}",
                    self.spice(buyer)
                ),
            );
        }
        if let Some(p) = payment
            && let Some(given) = p.payee
            && given != Payee::Faction(TL)
        {
            self.v_at(
                p.pos,
                rule,
                format!("a leader bought from the Tleilaxu is paid to them, not {given}"),
            );
        }
        self.pay(buyer, Payee::Faction(TL), price);
        self.st.leaders[l.index()] = LeaderState::Pool(buyer);
    }

    /// The Tleilaxu Karama power (1.14.08): `K TL norevive F` before F revives.
    pub(crate) fn block_revival(&mut self, target: Faction) {
        if !self.in_play_or_report(target) {
            return;
        }
        if self.t.revival.forces.contains(target) || self.t.revival.leader.contains(target) {
            self.v_full(
                rule!("1.14.08"),
                format!(
                    "{target} has already revived this turn: the power is used before it revives"
                ),
            );
        }
        self.t.tleilaxu.blocked.insert(target);
    }

    /// A ghola revived (2.08.16): no other faction's leader revival may follow it this phase.
    pub(crate) fn ghola_revived(&mut self) {
        self.t.tleilaxu.ghola = true;
    }

    /// Another faction's leader revival after a ghola (2.08.16: the Tleilaxu take gholas once
    /// every other faction has revived its leaders or said it will not).
    pub(crate) fn after_ghola(&mut self, f: Faction) {
        if f != TL && self.t.tleilaxu.ghola {
            self.v_full(
                rule!("2.08.16"),
                format!("the Tleilaxu revive gholas after every other faction's leader revival; {f} revives after them"),
            );
        }
    }
}
