//! The Harkonnen (001 2.05): four traitors, the mystery card, a hand of 8, the free top card,
//! traitors in the ally's battle, captured leaders and the prison break.

use crate::dgn::{Event, KaramaUse};
use dune::{Faction, Rule, Spice, rule};

use super::{FactionRules, Sheet, SheetRules};
use crate::board::{Card, Leader, Territory};
use crate::dgn::Sealed;
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::state::{LeaderState, Phase};

pub(crate) struct Harkonnen;

const HK: Faction = Faction::Harkonnen;

/// 2.05.01 10 spice, 2.05.02 10 forces in Carthag and 10 in reserve, 2.05.03 four traitors kept,
/// 2.05.04 a second starting card, 2.05.05 free revival 2, 2.05.07 a hand of 8.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(10),
    free_revival: 2,
    hand_limit: 8,
    starting_cards: 2,
    traitors: 4,
    kinds: super::ForceKinds::PLAIN,
    start: Some((Territory::Carthag, 10)),
    rules: SheetRules {
        hand_limit: rule!("2.05.07"),
        starting_cards: rule!("2.05.04"),
        traitors: rule!("2.05.03"),
    },
};

pub(crate) const TOP_CARD: Ability = Ability(rule!("2.05.08"));
pub(crate) const CAPTURE: Ability = Ability(rule!("2.05.10"));

static KARAMA: [AbilityInfo; 2] = [
    AbilityInfo::new(
        TOP_CARD,
        HK,
        PREVENT,
        Some(Phase::Bidding),
        false,
        true,
        "free top card",
    ),
    AbilityInfo::new(
        CAPTURE,
        HK,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "capturing a leader",
    ),
];

impl FactionRules for Harkonnen {
    fn faction(&self) -> Faction {
        HK
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// A Karama cancelling the capture after it was logged (2.05.10): the leader goes back where
    /// it was (a killed one out of the tanks, the 2 spice returned).
    fn karama_now(&self, r: &mut Replay, rule: Rule) {
        if rule == CAPTURE.0 {
            r.undo_capture();
        }
    }

    /// 2.05.11: whenever a leader dies, the captured leaders may have to go home.
    fn leader_died(&self, r: &mut Replay) {
        r.prison_break();
    }

    /// 2.05.10.02: a captured leader who fought for the Harkonnen and survived goes back to the
    /// faction that last had it at Leader Return.
    fn leader_returns(&self, l: Leader) -> Faction {
        if l.faction() != HK { l.faction() } else { HK }
    }

    /// 1.14.04: take another player's hand and give back as many cards.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::TakeHand { .. }).then_some((Phase::Bidding, rule!("1.14.04")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::TakeHand { target, returned } = usage {
            r.take_hand(HK, *target, returned);
        }
    }

    /// 2.05.09: the Harkonnen's traitors work in their ally's battle.
    fn traitors_for_ally(&self) -> bool {
        true
    }
}

impl Replay {
    /// 2.05.08: the Harkonnen draw a free card with each purchase, unless that would pass 8.
    pub(crate) fn free_top_card(&mut self, f: Faction, extra: Option<&Sealed<Option<Card>>>) {
        let allowed = f == HK
            && self.st.faction(f).hand.len() < usize::from(self.st.faction(f).sheet.hand_limit);
        if allowed && let Some(b) = self.karama_take(TOP_CARD) {
            if extra.is_some() {
                self.v(
                    b.rule(),
                    format!(
                        "the Harkonnen draw no free top card with this purchase: {}",
                        b.describe()
                    ),
                );
            }
            return;
        }
        match (allowed, extra) {
            (true, e) => {
                let id = e.and_then(|s| self.sealed(s)).cloned().flatten();
                self.deal_cards(f, 1, &[id]);
            }
            (false, Some(_)) if f != HK => self.v(
                rule!("2.05.08"),
                format!("only the Harkonnen draw a free top card, not {f}"),
            ),
            (false, Some(_)) => self.v(
                rule!("2.05.08"),
                "the Harkonnen already hold 8 cards: no free top card",
            ),
            (false, None) => {}
        }
    }

    /// The Harkonnen capture after a won battle (2.05.10): kill for 2 spice or keep.
    pub(crate) fn capture(&mut self, f: Faction, l: Leader, kill: bool) {
        if f != HK || !self.st.options.advanced {
            self.v(
                rule!("2.05.10"),
                "only the Harkonnen capture leaders, in an Advanced game",
            );
            return;
        }
        let Some(last) = self.t.battle.last.clone() else {
            self.v(
                rule!("2.05.10.00"),
                "the Harkonnen capture right after winning a battle",
            );
            return;
        };
        if last.winner != Some(f) {
            self.v(
                rule!("2.05.10.00"),
                "the Harkonnen capture only after winning the battle",
            );
            return;
        }
        if last.captured {
            self.v(
                rule!("2.05.10.00"),
                "the Harkonnen take one leader per battle won",
            );
            return;
        }
        let Some(loser) = last.loser else {
            return;
        };
        let eligible = match self.st.leaders[l.index()] {
            LeaderState::Pool(h) => h == loser,
            LeaderState::Fought(h, x) => h == loser && x == last.territory,
            LeaderState::Tanks { .. } | LeaderState::SetAside => false,
        };
        if !eligible {
            self.v(rule!("2.05.10.00"), format!("{l} is not one of {loser}'s active leaders (its pool, or its leader of this battle if alive; not one used elsewhere this turn)"));
            return;
        }
        if let Some(rule) = crate::factions::rules(l.faction()).protected_leader(self, l) {
            self.v(
                rule,
                format!("{l} cannot be captured or killed by the Harkonnen's capture"),
            );
            return;
        }
        if self.karama_forbids(CAPTURE, &format!("the Harkonnen take {l}")) {
            return;
        }
        let undo = crate::replay::battle::CaptureUndo {
            leader: l,
            state: self.st.leaders[l.index()],
            died_once: self.st.died_once[l.index()],
            freed: self.st.freed[l.index()],
            kill,
        };
        if let Some(r) = self.t.battle.last.as_mut() {
            r.captured = true;
            r.capture = Some(undo);
        }
        if kill {
            self.st.died_once[l.index()] = true;
            self.st.leaders[l.index()] = LeaderState::Tanks { face_up: false };
            self.bank_pays(f, Spice::new(2));
        } else {
            self.st.leaders[l.index()] = LeaderState::Pool(f);
            self.st.freed[l.index()] = false;
            self.prison_break();
        }
    }

    /// Undoes the capture of the battle just resolved (a Karama cancelled it, 2.05.10).
    pub(crate) fn undo_capture(&mut self) {
        let Some(u) = self.t.battle.last.as_mut().and_then(|r| r.capture.take()) else {
            return;
        };
        let l = u.leader;
        self.st.leaders[l.index()] = u.state;
        self.st.died_once[l.index()] = u.died_once;
        self.st.freed[l.index()] = u.freed;
        if u.kill {
            // Back to the bank, which paid it.
            let back = self.st.faction_mut(HK).spice.take(Spice::new(2));
            self.st.bank_out -= i64::from(back.amount());
        }
        if let Some(r) = self.t.battle.last.as_mut() {
            r.captured = false;
        }
    }

    /// 2.05.11: when every Harkonnen leader of its own is dead, the captured ones go home at
    /// once, to the faction that last had them as an active leader (only the Harkonnen capture,
    /// so that is the leader's own faction). One that fought for the Harkonnen this phase stays
    /// in its territory until Leader Return (1.07.06.03), now its own faction's. A leader captured
    /// while every Harkonnen leader is dead goes home at once too (notation Decisions).
    pub(crate) fn prison_break(&mut self) {
        let hk = HK;
        if !self.st.plays(hk) {
            return;
        }
        let own_dead =
            Leader::of(hk).all(|l| matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. }));
        if !own_dead {
            return;
        }
        for l in Leader::all() {
            let home = l.faction();
            if home == hk {
                continue;
            }
            let back = match self.st.leaders[l.index()] {
                LeaderState::Pool(h) if h == hk => LeaderState::Pool(home),
                LeaderState::Fought(h, t) if h == hk => LeaderState::Fought(home, t),
                _ => continue,
            };
            self.st.leaders[l.index()] = back;
            self.st.freed[l.index()] = true;
        }
    }

    /// Harkonnen Karama (1.14.04): the Harkonnen take the target's whole hand, then give back as
    /// many cards. The identities known before stay known: the cards taken join the Harkonnen
    /// hand with what is known of them, and the cards given back (sealed, `hand AT{Shield,?}`)
    /// leave it. When the log does not say which cards went back, nobody can tell which of the
    /// pooled cards stayed, so both hands become unknown.
    pub(crate) fn take_hand(
        &mut self,
        f: Faction,
        target: Faction,
        returned: &Sealed<Vec<Option<Card>>>,
    ) {
        if target == f {
            self.v(rule!("1.14.04"), "the Harkonnen take another player's hand");
            return;
        }
        if !self.in_play_or_report(target) {
            return;
        }
        let taken = std::mem::take(&mut self.st.faction_mut(target).hand);
        let n = taken.len();
        if n == 0 {
            self.v(rule!("1.14.04"), format!("{target} holds no cards"));
        }
        let mut pool = std::mem::take(&mut self.st.faction_mut(f).hand);
        pool.extend(taken);
        let mut back: Vec<Option<Card>> = Vec::with_capacity(n);
        match self.sealed(returned).cloned() {
            Some(list) => {
                if list.len() != n {
                    self.v(rule!("1.14.04"), format!("the Harkonnen took {n} card(s) from {target} and must give back as many, but the log lists {}", list.len()));
                }
                let mut unknown_back = 0;
                for c in list.into_iter().take(n) {
                    match c {
                        Some(card) => {
                            let slot = pool
                                .iter()
                                .position(|x| *x == Some(card))
                                .or_else(|| pool.iter().position(Option::is_none));
                            match slot {
                                Some(i) => {
                                    pool.remove(i);
                                }
                                None => {
                                    let known: Vec<String> =
                                        pool.iter().flatten().map(|c| c.to_string()).collect();
                                    self.v(rule!("1.14.04"), format!("the Harkonnen give back {card}, but the cards they hold after taking {target}'s hand are {}", known.join(", ")));
                                    pool.pop();
                                }
                            }
                            back.push(Some(card));
                        }
                        None => {
                            unknown_back += 1;
                            back.push(None);
                        }
                    }
                }
                // Cards given back unseen: unknown ones first; past those, nobody can tell which
                // of the known cards left, so what stays becomes unknown.
                for _ in 0..unknown_back {
                    match pool.iter().position(Option::is_none) {
                        Some(i) => {
                            pool.remove(i);
                        }
                        None => {
                            pool.pop();
                            pool.iter_mut().for_each(|c| *c = None);
                        }
                    }
                }
            }
            None => {
                for _ in 0..n {
                    pool.pop();
                    back.push(None);
                }
                pool.iter_mut().for_each(|c| *c = None);
            }
        }
        while back.len() < n {
            back.push(None);
            pool.pop();
        }
        self.st.faction_mut(f).hand = pool;
        self.st.faction_mut(target).hand = back;
        for c in self.st.faction(target).hand.clone().into_iter().flatten() {
            self.check_copies(c);
        }
    }
}
