//! Ecaz (000 2.11): ambassadors that sit in strongholds and act when another faction arrives,
//! living beside the ally (Occupy) and winning with it on three shared strongholds, Duke Vidal,
//! Loyalty and the ally's city income.
//!
//! The full rulebook prints two texts of this chapter run together; Mentat numbers each item by
//! its place in the book and names the text printed first *original*, the second *revised*
//! (docs/notation.md, Decisions 72). The revised text is the default, as for every chapter that
//! prints two; `[Edition "original"]` plays the original (the published expansion's, with the
//! Ecaz special victory). Read this module against the chapter: the sheet, then the hooks in the
//! chapter's order, then the statements only Ecaz writes (`AMB`, `LOYAL`); the revised text's
//! ambassadors-as-forces are in [`revised`].
//!
//! The original text, item by item (2.11.xx):
//! - 00 basic/advanced (Loyalty and Collection are advanced); 01 12 spice; 02 six forces in the
//!   Imperial Basin (its centre sector, DGN 10), fourteen in reserve; 03 the supply: the Ecaz
//!   ambassador and five random ones face up, the other five face down beside the shield
//!   (`AMB EC supply …`); 04 free revival 2;
//! - 05-06 after Revival, ambassadors from the supply go to strongholds not in the storm that
//!   hold none, for 1 spice, then 2, 3, … in one turn (`AMB EC place HK ARK $1`);
//! - 07 when another faction (not the ally, not advisors, not the ambassador's own faction)
//!   enters a stronghold with an ambassador, Ecaz may trigger it (`AMB EC trigger ARK …`), then
//!   sets it aside; 08 when the five random ones are all used, they go back among the unused
//!   ones and five new ones are drawn; 09 storms and explosions send ambassadors back to the
//!   supply;
//! - 16 each ambassador's effect; 17 Occupy: Ecaz and its ally share territories (no ally
//!   constraint) and split what they collect together in a desert territory; 18-19 battling
//!   co-occupied; 20 a stronghold they share counts once and Ecaz controls it; 21 the special
//!   victory: co-occupying three strongholds, three are enough; 22 Duke Vidal revived for 5 and
//!   set aside; 23 leader revival once five leaders (Vidal counted) are in the tanks; 24 the
//!   ally may take an ambassador's effect; 25 Loyalty; 26 the ally's city income shared.

pub(crate) mod revised;

use dune::{Faction, FactionSet, Rule, Spice, Stronghold, WinType, rule};

use super::{FactionRules, Fee, Hit, LeaderRevival, Sheet, SheetRules};
use crate::board::{Leader, Piece, Sector, Territory};
use crate::dgn::{AmbassadorAction, AmbassadorEffect, Event, ForceCount, Payee, Place, Side};
use crate::replay::karama::{Ability, AbilityInfo, CANCEL};
use crate::replay::{Replay, WinResult};
use crate::state::{Edition, Forces, GameState, LeaderState, Phase};
use crate::tokens::{Token, TokenKind, TokenPlace};

pub(crate) struct Ecaz;

pub(crate) const EC: Faction = Faction::Ecaz;

/// 2.11.01 12 spice, 2.11.02 six forces in the Imperial Basin, 2.11.04 free revival 2.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(12),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::kinds::ForceKinds::PLAIN,
    start: Some((Territory::ImperialBasin, 6)),
    rules: SheetRules::GENERAL,
};

/// The Imperial Basin's centre sector, where Ecaz's starting forces stand (2.11.02; board-data
/// §6): DGN sector 10.
pub(crate) fn start_piece() -> Option<Piece> {
    Territory::ImperialBasin.piece(Sector::from_notation(10))
}

/// The ambassadors of the original text: Ecaz's own and the ten others (2.11.03: its own and
/// five in the supply, five unused; the original prints no Moritani ambassador).
pub(crate) const ORIGINAL_AMBASSADORS: [Faction; 11] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::BeneGesserit,
    Faction::Emperor,
    Faction::Fremen,
    Faction::Harkonnen,
    Faction::SpacingGuild,
    Faction::Ixians,
    Faction::Tleilaxu,
    Faction::Choam,
    Faction::Richese,
];

pub(crate) const TRIGGER: Ability = Ability(rule!("2.11.07"));

/// 000 prints no Karama marks (its `*` and `★` are lost): Mentat lets a Karama cancel the one
/// use other players most need to answer, an ambassador's trigger (docs/notation.md,
/// Decisions).
static KARAMA: [AbilityInfo; 1] = [AbilityInfo::new(
    TRIGGER,
    EC,
    CANCEL,
    None,
    false,
    true,
    "triggering an ambassador",
)];

/// Ecaz's data for the whole game.
#[derive(Clone, Debug, Default)]
pub(crate) struct EcazData {
    /// The Ecaz traitor card set aside face up (Loyalty).
    pub(crate) loyal: Option<Leader>,
    /// The supply of five random ambassadors has been drawn (2.11.03 original).
    pub(crate) supply_drawn: bool,
    /// Duke Vidal serves Ecaz until he fights (2.11.16.11 original).
    pub(crate) vidal_until_battle: bool,
    /// Duke Vidal lent to the faction that allied through the Ecaz ambassador, for this turn.
    pub(crate) vidal_lent: Option<(Faction, u32)>,
    /// The ambassadors in the order they reached the board, latest last (revised 2.11.13: the
    /// latest go back when a territory holds too many).
    pub(crate) arrivals: Vec<Faction>,
}

/// Ecaz's data for one turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct EcazTurn {
    /// Ambassadors placed this turn (2.11.06 original: each costs one more).
    pub(crate) placed: u32,
    /// The battle being fought uses Battling Co-Occupied (2.11.18-2.11.19 original).
    pub(crate) cooccupy: bool,
    /// Entries already answered by an ambassador (by their index in the turn's entries).
    pub(crate) answered: Vec<usize>,
    /// Tleilaxu ambassador (revised): a leader taken from the tanks for this battle.
    pub(crate) borrowed: Option<Leader>,
    /// Ambassadors announced for Ecaz's next shipment or move (revised 2.11.05), and whether
    /// each comes from in front of the shield.
    pub(crate) carrying: Vec<(Faction, bool)>,
}

impl Replay {
    /// The text Ecaz's chapter is played by.
    pub(crate) fn ecaz_edition(&self) -> Edition {
        self.st.options.edition_of(EC)
    }

    fn ecaz_original(&self) -> bool {
        self.ecaz_edition() == Edition::Original
    }

    /// Ecaz and its ally, when the original text's Occupy makes them share territories
    /// (2.11.17 original): the partner of `f`.
    pub(crate) fn occupy_partner(&self, f: Faction) -> Option<Faction> {
        if !self.st.plays(EC) || !self.ecaz_original() {
            return None;
        }
        let a = self.st.ally(EC)?;
        match f {
            EC => Some(a),
            x if x == a => Some(EC),
            _ => None,
        }
    }

    /// Index of an ambassador token by its face.
    fn ambassador(&self, of: Faction) -> Option<usize> {
        self.st
            .tokens
            .iter()
            .position(|t| t.owner == EC && t.kind == TokenKind::Ambassador(of))
    }

    /// The face-up ambassador lying in a territory (one at most, 2.11.05; the CHOAM ambassador
    /// of the revised text allows a second, 2.11.16.09).
    pub(crate) fn ambassadors_in(&self, t: Territory) -> Vec<usize> {
        self.st
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, k)| k.owner == EC && k.is_ambassador() && k.territory() == Some(t))
            .map(|(i, _)| i)
            .collect()
    }

    fn ambassador_face(&self, i: usize) -> Faction {
        match self.st.tokens[i].kind {
            TokenKind::Ambassador(f) => f,
            TokenKind::Terror(_) => EC,
        }
    }

    /// Only Ecaz writes `AMB` lines.
    fn is_ecaz(&mut self, f: Faction, rule: Rule) -> bool {
        if f != EC {
            self.v_full(rule, format!("ambassadors are Ecaz's, not {f}'s"));
            return false;
        }
        self.in_play_or_report(f)
    }

    /// `LOYAL EC leader` (2.11.25 original, 2.11.20 revised).
    pub(crate) fn loyalty(&mut self, f: Faction, l: Leader) {
        let rule = if self.ecaz_original() {
            rule!("2.11.25")
        } else {
            rule!("2.11.20")
        };
        if !self.is_ecaz(f, rule) {
            return;
        }
        if !self.st.options.advanced {
            let basic = if self.ecaz_original() {
                "2.11.01 to 2.11.24"
            } else {
                "2.11.01 to 2.11.19"
            };
            self.v_full(
                rule!("2.11.00"),
                format!("Loyalty is an Advanced ability; the Basic game plays Ecaz's {basic}"),
            );
            return;
        }
        if self.ecaz.loyal.is_some() {
            self.v_full(rule, "Ecaz sets one traitor card aside for Loyalty");
            return;
        }
        if l.faction() != EC || l == Leader::Vidal {
            self.v_full(
                rule,
                format!("Loyalty sets aside one of Ecaz's own traitor cards, not {l} (Duke Vidal is never a traitor)"),
            );
            return;
        }
        if !self.setup.traitors.is_empty() {
            self.v_full(
                rule,
                "Loyalty's card is set aside before the traitors are dealt (before the TR lines)",
            );
        }
        self.ecaz.loyal = Some(l);
    }

    /// A traitor card that cannot be held: Ecaz's loyal leader (Loyalty) or Duke Vidal, never
    /// a traitor.
    pub(crate) fn ecaz_traitor_check(&mut self, holder: Faction, l: Leader) {
        if l == Leader::Vidal {
            let rule = if self.ecaz_original() {
                rule!("2.11.16.11")
            } else {
                rule!("2.11.17")
            };
            self.v_full(
                rule,
                format!("Duke Vidal has no traitor card; {holder} cannot hold him as a traitor"),
            );
        } else if self.ecaz.loyal == Some(l) {
            let rule = if self.ecaz_original() {
                rule!("2.11.25")
            } else {
                rule!("2.11.20")
            };
            self.v_full(
                rule,
                format!("{l}'s traitor card was set aside face up for Loyalty and is never in the traitor deck; {holder} cannot hold it"),
            );
        }
    }

    /// `AMB EC …`
    pub(crate) fn ambassador_statement(
        &mut self,
        ev: &Event,
        f: Faction,
        action: &AmbassadorAction,
    ) {
        if !self.is_ecaz(f, rule!("2.11.05")) {
            return;
        }
        let original = self.ecaz_original();
        match action {
            AmbassadorAction::Supply(list) if original => self.ambassador_supply(list),
            AmbassadorAction::Place {
                ambassador,
                to,
                payment,
            } if original => self.place_ambassador(*ambassador, *to, payment.as_ref()),
            AmbassadorAction::Trigger {
                at,
                beneficiary,
                copy,
                effect,
            } if original => self.trigger_ambassador(*at, *beneficiary, *copy, effect),
            AmbassadorAction::CoOccupy if original => self.cooccupy_battle(),
            _ if original => self.v_full(
                rule!("2.11.05"),
                "the original text's ambassadors are placed (`place`) and triggered (`trigger`); `with`, `flip`, `hostile` and `use` are the revised text's ([Edition \"revised\"])",
            ),
            _ => self.revised_ambassador(ev, action),
        }
    }

    /// `AMB EC supply …` (2.11.03 original; a new supply, 2.11.08 original).
    fn ambassador_supply(&mut self, list: &[Faction]) {
        let rule = if self.ecaz.supply_drawn {
            rule!("2.11.08")
        } else {
            rule!("2.11.03")
        };
        let mut distinct = list.to_vec();
        distinct.sort();
        distinct.dedup();
        if list.len() != 5 || distinct.len() != 5 {
            self.v_full(
                rule,
                format!(
                    "the supply holds the Ecaz ambassador and five different random ones; the log lists {}",
                    list.len()
                ),
            );
        }
        if self.ecaz.supply_drawn {
            // 2.11.08: only once every random ambassador of the supply has been used.
            let left: Vec<Faction> = self
                .st
                .tokens
                .iter()
                .filter(|t| {
                    t.owner == EC
                        && t.kind != TokenKind::Ambassador(EC)
                        && t.is_ambassador()
                        && matches!(t.place, TokenPlace::Supply | TokenPlace::Board(_))
                })
                .filter_map(|t| match t.kind {
                    TokenKind::Ambassador(x) => Some(x),
                    TokenKind::Terror(_) => None,
                })
                .collect();
            if !left.is_empty() {
                self.v_full(
                    rule!("2.11.08"),
                    format!(
                        "a new supply is drawn once the five random ambassadors are all used; {} still {}",
                        crate::replay::names_of(&left),
                        if left.len() == 1 { "is not" } else { "are not" }
                    ),
                );
                return;
            }
            for t in self.st.tokens.iter_mut() {
                if t.owner == EC && t.place == TokenPlace::SetAside {
                    t.place = TokenPlace::Unused;
                }
            }
        }
        self.ecaz.supply_drawn = true;
        for &a in list {
            if a == EC || a == Faction::Moritani {
                self.v_full(
                    rule,
                    format!("the random ambassadors are among the other factions' ({a} is not one of them in the original text)"),
                );
                continue;
            }
            match self.ambassador(a) {
                Some(i) if self.st.tokens[i].place == TokenPlace::Unused => {
                    self.st.tokens[i].place = TokenPlace::Supply;
                }
                Some(_) => self.v_full(
                    rule,
                    format!("the {a} ambassador is not among the unused ones (it is in the supply, on the board or out of the game)"),
                ),
                None => {}
            }
        }
    }

    /// `AMB EC place F terr $n` (2.11.05-2.11.06 original).
    fn place_ambassador(&mut self, a: Faction, to: Place, payment: Option<&crate::dgn::Payment>) {
        if self.st.phase != Phase::Revival {
            self.v_full(
                rule!("2.11.05"),
                format!(
                    "ambassadors are placed after the Revival phase's revivals, not in the {} phase",
                    self.st.phase
                ),
            );
        }
        let t = to.territory;
        let Some(i) = self.ambassador(a) else {
            self.v_full(rule!("2.11.03"), format!("Ecaz has no {a} ambassador"));
            return;
        };
        if self.st.tokens[i].place != TokenPlace::Supply {
            self.v_full(
                rule!("2.11.05"),
                format!("the {a} ambassador is not in Ecaz's supply"),
            );
            return;
        }
        if t == Territory::ShieldWall {
            self.v_full(
                rule!("4.02.07"),
                "ambassadors cannot be placed on the Shield Wall, a rock territory",
            );
            return;
        }
        let Some(p) = t.piece(t.single_sector()) else {
            self.v_full(
                rule!("2.11.05"),
                format!("ambassadors are placed in strongholds, not in {}", t.name()),
            );
            return;
        };
        if !t.is_stronghold() {
            self.v_full(
                rule!("2.11.05"),
                format!("ambassadors are placed in strongholds, not in {}", t.name()),
            );
            return;
        }
        if p.in_storm(self.st.storm) {
            self.v_full(
                rule!("2.11.05"),
                format!(
                    "{} is in the storm: no ambassador can be placed there",
                    t.name()
                ),
            );
            return;
        }
        if let Some(&j) = self.ambassadors_in(t).first() {
            let other = self.ambassador_face(j);
            self.v_full(
                rule!("2.11.05"),
                format!("{} already holds the {other} ambassador", t.name()),
            );
            return;
        }
        self.t.ecaz.placed += 1;
        let cost = Spice::new(self.t.ecaz.placed);
        if let Some(p) = payment
            && p.amount != cost
        {
            self.v_full(
                rule!("2.11.06"),
                format!(
                    "the ambassador placed {} this turn costs {cost} spice, not {}",
                    ordinal(self.t.ecaz.placed),
                    p.amount
                ),
            );
        }
        if cost > self.spice(EC) {
            self.v_full(
                rule!("2.11.06"),
                format!(
                    "Ecaz must pay {cost} spice to place the ambassador but has {}",
                    self.spice(EC)
                ),
            );
        }
        let payee = self.settle_payee(Fee::Ambassador, EC, payment, || {
            format!("Ecaz's ambassador in {}", t.name())
        });
        self.pay(EC, payee, cost);
        let tok = &mut self.st.tokens[i];
        tok.place = TokenPlace::Board(p);
        tok.face_up = true;
    }

    /// The latest arrival into `t` that `a`'s ambassador answers (2.11.07 original): not by
    /// Ecaz, its ally, advisors only, or the ambassador's own faction; not answered yet.
    fn trigger_entry(&self, t: Territory, a: Faction) -> Result<(usize, Faction), String> {
        let ally = self.st.ally(EC);
        let Some((i, e)) = self
            .t
            .entries
            .iter()
            .enumerate()
            .rev()
            .find(|(_, e)| e.territory == t && e.faction != EC)
        else {
            return Err(format!(
                "no other faction has entered {} this turn",
                t.name()
            ));
        };
        if self.t.ecaz.answered.contains(&i) {
            return Err(format!(
                "{}'s arrival in {} has already been answered",
                e.faction,
                t.name()
            ));
        }
        if Some(e.faction) == ally {
            return Err(format!(
                "{} is Ecaz's ally: its arrival does not trigger an ambassador",
                e.faction
            ));
        }
        if e.advisors {
            return Err(format!(
                "only {} advisors arrived in {}: advisors do not trigger ambassadors",
                e.faction,
                t.name()
            ));
        }
        if e.faction == a {
            return Err(format!(
                "the {a} ambassador is not triggered by {a}, the faction it shows"
            ));
        }
        Ok((i, e.faction))
    }

    /// `AMB EC trigger terr [for F] [as F] [effect]` (2.11.07, 2.11.16, 2.11.24 original).
    fn trigger_ambassador(
        &mut self,
        t: Territory,
        beneficiary: Option<Faction>,
        copy: Option<Faction>,
        effect: &AmbassadorEffect,
    ) {
        let Some(&i) = self.ambassadors_in(t).first() else {
            self.v_full(
                rule!("2.11.07"),
                format!("there is no ambassador in {}", t.name()),
            );
            return;
        };
        let face = self.ambassador_face(i);
        let (entry, target) = match self.trigger_entry(t, face) {
            Ok(x) => x,
            Err(why) => {
                self.v_full(rule!("2.11.07"), why);
                return;
            }
        };
        if self.karama_forbids(TRIGGER, &format!("Ecaz triggers the {face} ambassador")) {
            return;
        }
        self.t.ecaz.answered.push(entry);
        // 2.11.24: the ally may take the effect.
        let who = match beneficiary {
            None => EC,
            Some(b) if b == EC => EC,
            Some(b) if self.st.ally(EC) == Some(b) => b,
            Some(b) => {
                self.v_full(
                    rule!("2.11.24"),
                    format!("only Ecaz's ally may take an ambassador's effect, and {b} is not"),
                );
                EC
            }
        };
        // The Bene Gesserit ambassador copies one not in the supply (2.11.16.02).
        let effective = match (face, copy) {
            (Faction::BeneGesserit, Some(c)) => {
                let ok = self.ambassador(c).is_some_and(|j| {
                    !matches!(
                        self.st.tokens[j].place,
                        TokenPlace::Supply | TokenPlace::Board(_)
                    ) && c != Faction::BeneGesserit
                });
                if !ok {
                    self.v_full(
                        rule!("2.11.16.02"),
                        format!("the Bene Gesserit ambassador copies an ambassador that is not in Ecaz's supply (nor on the board), not the {c} one"),
                    );
                }
                c
            }
            (Faction::BeneGesserit, None) => {
                self.v_full(
                    rule!("2.11.16.02"),
                    "the Bene Gesserit ambassador triggers another ambassador's effect: name it (`as F`)",
                );
                Faction::BeneGesserit
            }
            (_, Some(c)) => {
                self.v_full(
                    rule!("2.11.16.02"),
                    format!("only the Bene Gesserit ambassador copies another ({c}); this is the {face} one"),
                );
                face
            }
            (f, None) => f,
        };
        self.ambassador_effect(effective, who, target, t, effect);
        // Used up (2.11.07), the Ecaz one back to the supply (2.11.16.11), the Bene Gesserit one
        // out of the game (2.11.16.02).
        self.st.tokens[i].place = match face {
            EC => TokenPlace::Supply,
            Faction::BeneGesserit => TokenPlace::Removed,
            _ => TokenPlace::SetAside,
        };
    }

    /// The effect of an ambassador showing `face`, for `who` (Ecaz or its ally), triggered by
    /// `target` in `t` (2.11.16 original).
    fn ambassador_effect(
        &mut self,
        face: Faction,
        who: Faction,
        target: Faction,
        t: Territory,
        effect: &AmbassadorEffect,
    ) {
        let rule = effect_rule(face);
        let expects = |e: &AmbassadorEffect| -> bool {
            matches!(
                (face, e),
                (
                    Faction::Atreides | Faction::Harkonnen | Faction::Emperor | Faction::BeneGesserit,
                    AmbassadorEffect::None
                ) | (Faction::Fremen, AmbassadorEffect::Move { .. })
                    | (Faction::SpacingGuild, AmbassadorEffect::Send { .. })
                    | (Faction::Ixians, AmbassadorEffect::Discard(_))
                    | (Faction::Choam, AmbassadorEffect::Discard(_))
                    | (
                        Faction::Tleilaxu,
                        AmbassadorEffect::Revive(_) | AmbassadorEffect::ReviveLeader(_)
                    )
                    | (Faction::Richese, AmbassadorEffect::Buy)
                    | (
                        Faction::Ecaz,
                        AmbassadorEffect::Vidal | AmbassadorEffect::Ally { .. }
                    )
                    // Effects the owner may decline.
                    | (
                        Faction::Fremen
                            | Faction::SpacingGuild
                            | Faction::Ixians
                            | Faction::Choam
                            | Faction::Tleilaxu
                            | Faction::Richese,
                        AmbassadorEffect::None
                    )
            )
        };
        if !expects(effect) {
            self.v_full(
                rule,
                format!("the {face} ambassador's effect is {}", effect_words(face)),
            );
            return;
        }
        match (face, effect) {
            // See the triggering faction's hand; look at one of its traitors: information.
            (Faction::Atreides | Faction::Harkonnen, _) => {}
            (Faction::Emperor, _) => self.bank_pays(who, Spice::new(5)),
            (Faction::Fremen, AmbassadorEffect::Move { from, to, forces }) => {
                self.ambassador_move(who, *from, *to, *forces, rule)
            }
            (Faction::SpacingGuild, AmbassadorEffect::Send { forces, to }) => {
                if forces.total > 4 {
                    self.v_full(
                        rule,
                        format!(
                            "the Spacing Guild ambassador sends up to 4 forces, not {}",
                            forces.total
                        ),
                    );
                }
                self.send_from_reserves(who, *forces, *to, rule);
            }
            (Faction::Ixians, AmbassadorEffect::Discard(cards)) => {
                if cards.len() != 1 {
                    self.v_full(
                        rule,
                        "the Ixian ambassador discards one treachery card and draws one",
                    );
                }
                if let Some(&c) = cards.first() {
                    self.play_card(who, c, rule, false);
                    self.deal_cards(who, 1, &[]);
                }
            }
            (Faction::Choam, AmbassadorEffect::Discard(cards)) => {
                for &c in cards {
                    self.play_card(who, c, rule, false);
                }
                let n = u32::try_from(cards.len()).unwrap_or(0);
                self.bank_pays(who, Spice::new(3 * n));
            }
            (Faction::Tleilaxu, AmbassadorEffect::Revive(c)) => {
                if c.total > 4 {
                    self.v_full(
                        rule,
                        format!(
                            "the Tleilaxu ambassador revives up to 4 forces, not {}",
                            c.total
                        ),
                    );
                }
                self.revive_from_tanks(who, *c, rule);
            }
            (Faction::Tleilaxu, AmbassadorEffect::ReviveLeader(l)) => {
                let own = l.faction() == who && *l != Leader::Vidal;
                if !own {
                    self.v_full(
                        rule,
                        format!(
                            "the Tleilaxu ambassador revives one of {who}'s own leaders, not {l}"
                        ),
                    );
                } else if !matches!(self.st.leaders[l.index()], LeaderState::Tanks { .. }) {
                    self.v_full(rule, format!("{l} is not in the tanks"));
                } else {
                    self.st.leaders[l.index()] = LeaderState::Pool(who);
                }
            }
            (Faction::Richese, AmbassadorEffect::Buy) => {
                let limit = self.hand_limit(who);
                if self.st.faction(who).hand.len() >= usize::from(limit) {
                    self.v_full(
                        rule,
                        format!("{who}'s hand is full: the Richese ambassador draws only into a hand with room"),
                    );
                    return;
                }
                if self.spice(who) < 3 {
                    self.v_full(
                        rule,
                        format!("{who} must pay 3 spice but has {}", self.spice(who)),
                    );
                }
                self.pay(who, Payee::Bank, Spice::new(3));
                self.deal_cards(who, 1, &[]);
            }
            (Faction::Ecaz, AmbassadorEffect::Vidal) => self.vidal_to(who, rule),
            (Faction::Ecaz, AmbassadorEffect::Ally { vidal }) => {
                if self.st.ally(EC).is_some() || self.st.ally(target).is_some() {
                    self.v_full(
                        rule,
                        format!("Ecaz allies with {target} through its ambassador only if neither is allied"),
                    );
                    return;
                }
                self.st.faction_mut(EC).ally = Some(target);
                self.st.faction_mut(target).ally = Some(EC);
                if *vidal {
                    self.vidal_to(target, rule);
                    self.ecaz.vidal_lent = Some((target, self.st.turn));
                }
            }
            _ => {}
        }
        let _ = t;
    }

    /// Duke Vidal joins `who`'s active leaders, from anywhere but the tanks, a capture or a
    /// ghola (2.11.16.11 original, 2.11.16.12 revised).
    pub(crate) fn vidal_to(&mut self, who: Faction, rule: Rule) {
        let l = Leader::Vidal;
        match self.st.leaders[l.index()] {
            LeaderState::Tanks { .. } => {
                self.v_full(rule, "Duke Vidal is in the tanks");
            }
            LeaderState::Pool(h) if h == Faction::Harkonnen && who != h => {
                self.v_full(rule, "Duke Vidal is the Harkonnen's captive");
            }
            LeaderState::Fought(..) => {
                self.v_full(
                    rule,
                    "Duke Vidal fought this phase and waits for Leader Return",
                );
            }
            _ => {
                self.st.leaders[l.index()] = LeaderState::Pool(who);
                self.ecaz.vidal_until_battle = who == EC;
            }
        }
    }

    /// A group of `who`'s forces moved to any territory, within storm and occupancy limits.
    fn ambassador_move(&mut self, who: Faction, from: Place, to: Place, c: ForceCount, rule: Rule) {
        let Some(dest) = to
            .territory
            .piece(to.sector.or_else(|| to.territory.single_sector()))
            .or_else(|| to.territory.pieces().first().copied())
        else {
            return;
        };
        if dest.in_storm(self.st.storm) {
            self.v_full(
                rule,
                format!("{who}'s forces cannot be moved into the storm ({to})"),
            );
            return;
        }
        if to.territory != from.territory && self.st.stronghold_full_for(to.territory, who) {
            self.v_full(
                rule,
                format!(
                    "{who} cannot move into {}: two other factions are there",
                    to.territory.name()
                ),
            );
            return;
        }
        if let Some(s) = self.take_forces(who, from, c, rule) {
            self.st.stack_mut(who, dest).add(s);
            self.entered(who, to.territory, false);
        }
    }

    /// Forces sent from reserves to a territory, free, within storm and occupancy limits
    /// (the Spacing Guild ambassador, 2.11.16.06 original; the Bene Gesserit one, revised).
    pub(crate) fn send_from_reserves(
        &mut self,
        who: Faction,
        c: ForceCount,
        to: Place,
        rule: Rule,
    ) {
        let t = to.territory;
        let piece = match to.sector {
            Some(s) => t.piece(Some(s)),
            None => t.piece(t.single_sector()),
        };
        let Some(p) = piece else {
            self.v_full(
                rule,
                format!(
                    "{} lies in several sectors: name the sector, e.g. {}/{}",
                    t.name(),
                    t.code(),
                    t.sectors().next().map_or(1, |s| s.notation())
                ),
            );
            return;
        };
        if p.in_storm(self.st.storm) {
            self.v_full(
                rule,
                format!("{who} cannot send forces into the storm ({p})"),
            );
            return;
        }
        if self.st.stronghold_full_for(t, who) {
            self.v_full(
                rule,
                format!(
                    "{who} cannot send forces into {}: two other factions are there",
                    t.name()
                ),
            );
            return;
        }
        let reserves = self.st.faction(who).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v_full(
                rule,
                format!("{who} sends {c} but has {reserves} in reserve"),
            );
        }
        self.st.place_from_reserves(
            who,
            p,
            ForceCount {
                side: Side::Fighter,
                ..c
            },
            false,
        );
        self.entered(who, t, false);
    }

    /// `AMB EC cooccupy` in a battle (2.11.18-2.11.19 original).
    fn cooccupy_battle(&mut self) {
        let Some(b) = self.t.battle.current.as_ref() else {
            self.v_full(
                rule!("2.11.18"),
                "Battling Co-Occupied is used in a battle (`X territory: F v F` first)",
            );
            return;
        };
        let t = b.place.territory;
        let side = b
            .sides
            .iter()
            .position(|&f| f == EC || Some(f) == self.st.ally(EC));
        let partner_here = side
            .and_then(|i| self.occupy_partner(b.sides[i]))
            .is_some_and(|p| self.st.in_territory(p, t).fighting() > 0);
        if side.is_none() || !partner_here {
            self.v_full(
                rule!("2.11.18"),
                format!(
                    "Battling Co-Occupied needs Ecaz and its ally both in {} and one of them in this battle",
                    t.name()
                ),
            );
            return;
        }
        if b.plans.iter().any(Option::is_some) {
            self.v_full(
                rule!("2.11.18"),
                "Ecaz decides how its alliance fights once the battle order is set, before the plans",
            );
        }
        self.t.ecaz.cooccupy = true;
    }

    /// The forces the alliance's side dials from under Battling Co-Occupied (2.11.19 original):
    /// the ally's, whoever fights.
    pub(crate) fn cooccupy_dial_pool(&self, f: Faction, t: Territory) -> Option<Faction> {
        if !self.t.ecaz.cooccupy {
            return None;
        }
        let a = self.st.ally(EC)?;
        (f == EC || f == a)
            .then_some(a)
            .filter(|&a| self.st.in_territory(a, t).fighting() > 0 || f == a)
    }
}

/// The rule of an ambassador's effect (000 2.11.16.xx, original numbering).
fn effect_rule(face: Faction) -> Rule {
    match face {
        Faction::Atreides => rule!("2.11.16.01"),
        Faction::BeneGesserit => rule!("2.11.16.02"),
        Faction::Emperor => rule!("2.11.16.03"),
        Faction::Fremen => rule!("2.11.16.04"),
        Faction::Harkonnen => rule!("2.11.16.05"),
        Faction::SpacingGuild => rule!("2.11.16.06"),
        Faction::Ixians => rule!("2.11.16.07"),
        Faction::Tleilaxu => rule!("2.11.16.08"),
        Faction::Choam => rule!("2.11.16.09"),
        Faction::Richese => rule!("2.11.16.10"),
        Faction::Ecaz => rule!("2.11.16.11"),
        Faction::Moritani | Faction::FreeTraders => rule!("2.11.16.12"),
    }
}

/// What an ambassador's effect needs in DGN (original text).
fn effect_words(face: Faction) -> &'static str {
    match face {
        Faction::Atreides => "seeing the hand (nothing to write after the territory)",
        Faction::BeneGesserit => "another ambassador's (`as F` and its effect)",
        Faction::Emperor => "5 spice from the bank (nothing to write)",
        Faction::Fremen => "moving a group of forces (`move from>to n`)",
        Faction::Harkonnen => "a look at a traitor card (nothing to write)",
        Faction::SpacingGuild => "sending up to 4 forces from reserves (`send n terr`)",
        Faction::Ixians => "discarding a card to draw one (`discard card`)",
        Faction::Tleilaxu => "a free revival (`revive n` or `revive L:leader`)",
        Faction::Choam => "discarding cards for 3 spice each (`discard card,card`)",
        Faction::Richese => "drawing the top card for 3 spice (`buy`)",
        Faction::Ecaz => "Duke Vidal (`vidal`) or an alliance (`ally`, `ally vidal`)",
        _ => "none in the original text",
    }
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

impl FactionRules for Ecaz {
    fn faction(&self) -> Faction {
        EC
    }

    /// Its rules are numbered in the full rulebook (000).
    fn book(&self) -> dune::Book {
        dune::Book::Full
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.11.02: the starting forces stand in the Imperial Basin's centre sector; 2.11.03: the
    /// ambassadors (original: the Ecaz one in the supply, the others unused until the supply is
    /// drawn; revised: all twelve in the supply).
    fn begin_setup(&self, r: &mut Replay) {
        if let (Some(first), Some(centre)) = (
            Territory::ImperialBasin.pieces().first().copied(),
            start_piece(),
        ) && first != centre
        {
            let s = std::mem::take(r.st.stack_mut(EC, first));
            r.st.stack_mut(EC, centre).add(s);
        }
        let original = r.ecaz_original();
        let faces: Vec<Faction> = if original {
            ORIGINAL_AMBASSADORS.to_vec()
        } else {
            revised::AMBASSADORS.to_vec()
        };
        for f in faces {
            r.st.tokens.push(Token {
                kind: TokenKind::Ambassador(f),
                owner: EC,
                place: if original && f != EC {
                    TokenPlace::Unused
                } else {
                    TokenPlace::Supply
                },
                face_up: true,
            });
        }
    }

    /// 2.11.03: the supply is drawn at setup (original); one ambassador stands with the starting
    /// forces (revised).
    fn finish_setup(&self, r: &mut Replay) {
        if r.ecaz_original() && !r.ecaz.supply_drawn {
            r.v_full(
                rule!("2.11.03"),
                "Ecaz's supply of ambassadors (the Ecaz one and five random ones) is not recorded (`AMB EC supply F F F F F`)",
            );
        }
        if !r.ecaz_original() {
            revised::finish_setup(r);
        }
    }

    /// The payment for an ambassador goes to the bank (2.11.06 original).
    fn receives(&self, _fee: Fee) -> Option<Rule> {
        None
    }

    /// 2.11.17 original (Occupy): Ecaz's and its ally's forces share territories; neither goes
    /// to the tanks at the end of a move.
    fn ally_constraint_exempt(&self, r: &Replay, f: Faction, ally: Faction) -> Option<Rule> {
        (r.occupy_partner(f) == Some(ally)).then_some(rule!("2.11.17"))
    }

    /// 2.11.17 original: Ecaz and its ally split what they collect together in a desert
    /// territory, evenly with the ally taking the odd spice unless they agree otherwise.
    fn collection_shared(
        &self,
        r: &Replay,
        t: Territory,
        a: Faction,
        b: Faction,
    ) -> Option<(Rule, Faction)> {
        let ally = if a == EC { b } else { a };
        (r.occupy_partner(a) == Some(b) && !t.is_stronghold()).then_some((rule!("2.11.17"), ally))
    }

    /// 2.11.20 original: a stronghold Ecaz and its ally share counts once, and Ecaz controls it.
    fn controls_shared(
        &self,
        st: &GameState,
        _s: Stronghold,
        occupants: FactionSet,
    ) -> Option<(Faction, Rule)> {
        if st.options().edition_of(EC) != Edition::Original || !st.plays(EC) {
            return None;
        }
        let a = st.ally(EC)?;
        (occupants.len() == 2 && occupants.contains(EC) && occupants.contains(a))
            .then_some((EC, rule!("2.11.20")))
    }

    /// 2.11.21 original: Ecaz and its ally co-occupying three strongholds need only three.
    fn stronghold_requirement(&self, r: &Replay, f: Faction) -> Option<(usize, Rule)> {
        let a = r.st.ally(EC)?;
        if !r.ecaz_original() || (f != EC && f != a) {
            return None;
        }
        let shared =
            r.st.victory_strongholds()
                .filter(|&s| r.st.occupies(EC, s) && r.st.occupies(a, s))
                .count();
        (shared >= 3).then_some((3, rule!("2.11.21")))
    }

    /// A victory the log misses or miscounts where the Ecaz alliance won on three co-occupied
    /// strongholds (2.11.21 original) or a shared stronghold's control (2.11.20 original).
    fn victory_claim_rule(
        &self,
        r: &Replay,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Option<Rule> {
        let ecaz_in = |v: &[Faction]| v.contains(&EC);
        let special = self.stronghold_requirement(r, EC).is_some();
        let about_ecaz = computed.is_some_and(|w| ecaz_in(&w.factions))
            || claimed.is_some_and(|(v, _)| ecaz_in(v));
        (about_ecaz && special).then_some(rule!("2.11.21"))
    }

    /// Duke Vidal: revived for 5 (original 2.11.22) or 6 (revised 2.11.17) whatever the tanks
    /// hold, and set aside.
    fn leader_revival(&self, r: &mut Replay, f: Faction, l: Leader) -> Option<LeaderRevival> {
        if f != EC || l != Leader::Vidal {
            return None;
        }
        let (cost, rule) = if r.ecaz_original() {
            (5, rule!("2.11.22"))
        } else {
            (6, rule!("2.11.17"))
        };
        Some(LeaderRevival {
            prices: vec![Spice::new(cost)],
            rule,
            unlimited: None,
            ghola: false,
            any_time: true,
            set_aside: true,
        })
    }

    /// 2.11.23 original, 2.11.18 revised: Ecaz revives leaders once five of its leaders, Duke
    /// Vidal counted, are in the tanks.
    fn leader_revival_allowed(&self, r: &Replay, f: Faction) -> Option<(bool, Rule, String)> {
        if f != EC {
            return None;
        }
        let in_tanks = Leader::of(EC)
            .filter(|l| matches!(r.st.leader(*l), LeaderState::Tanks { .. }))
            .count();
        let rule = if r.ecaz_original() {
            rule!("2.11.23")
        } else {
            rule!("2.11.18")
        };
        Some((
            in_tanks >= 5,
            rule,
            format!(
                "Ecaz revives a leader once five of its leaders, Duke Vidal counted, are in the tanks; {in_tanks} are"
            ),
        ))
    }

    /// Ambassadors hit by the storm or an explosion go back to the supply (2.11.09 original); in
    /// the revised text they are forces, and whatever sends them to the tanks sends them in
    /// front of the shield instead (2.11.14 revised).
    fn board_hit(&self, r: &mut Replay, t: Territory, piece: Option<Piece>, cause: Hit) {
        if r.ecaz_original() {
            if matches!(cause, Hit::Worm) {
                return;
            }
            for k in r.st.tokens.iter_mut() {
                if k.owner == EC
                    && let TokenPlace::Board(p) = k.place
                    && p.territory() == t
                    && piece.is_none_or(|x| x == p)
                {
                    k.place = TokenPlace::Supply;
                    k.face_up = true;
                }
            }
        } else {
            revised::immunity(r);
        }
    }

    fn after_event(&self, r: &mut Replay, ev: &Event) {
        if !r.ecaz_original() {
            revised::after_event(r, ev);
        }
    }

    /// The revised Fremen ambassador: Ecaz's forces in its territory are not eaten by worms
    /// (2.11.16.04 revised).
    fn worm_shelter(&self, r: &mut Replay, t: Territory, shelter: &mut super::WormShelter) {
        let fremen_here = !r.ecaz_original()
            && r.st.tokens.iter().any(|k| {
                k.owner == EC
                    && k.face_up
                    && k.kind == TokenKind::Ambassador(Faction::Fremen)
                    && k.territory() == Some(t)
            });
        if fremen_here {
            shelter.spared.insert(EC);
            shelter.rules.push((EC, rule!("2.11.16.04")));
        }
    }

    /// 2.11.13 revised: at the end of Ecaz's own action, face-up ambassadors beyond one in a
    /// territory go back.
    fn action_ended(&self, r: &mut Replay, f: Faction) {
        if f == EC && !r.ecaz_original() {
            revised::one_per_territory(r);
        }
    }

    fn coexist_rule(&self, r: &Replay, f: Faction) -> Option<Rule> {
        (f == EC && !r.ecaz_original()).then_some(rule!("2.11.06"))
    }

    fn move_range_from(&self, r: &Replay, f: Faction, from: Territory) -> Option<super::MoveRange> {
        (f == EC && !r.ecaz_original())
            .then(|| revised::ixian_range(r, from))
            .flatten()
    }

    fn shipping_charge(&self, r: &Replay, f: Faction, t: Territory, n: u8) -> Option<(u8, Rule)> {
        (f == EC && !r.ecaz_original())
            .then(|| revised::richese_charge(r, t, n))
            .flatten()
    }

    fn occupancy_exempt(&self, r: &Replay, f: Faction, t: Territory) -> Option<Rule> {
        (f == EC && !r.ecaz_original() && revised::co_occupied(r, t)).then_some(rule!("2.11.06"))
    }

    /// A leader that fought for Ecaz: Duke Vidal, who served Ecaz until his battle (2.11.16.11
    /// original), is set aside at Leader Return.
    fn leader_returns(&self, l: Leader) -> Faction {
        let _ = l;
        EC
    }

    fn traitor_forbidden(&self, r: &mut Replay, holder: Faction, l: Leader) {
        r.ecaz_traitor_check(holder, l);
    }

    /// 2.11.19 original: in Battling Co-Occupied the ally's forces are dialled.
    fn dial_pool(&self, r: &Replay, f: Faction, t: Territory) -> Option<Faction> {
        r.cooccupy_dial_pool(f, t)
    }

    /// 2.11.19 original: half of Ecaz's forces there (rounded up) are added to the number dialed,
    /// at full strength without spice.
    fn dial_bonus(
        &self,
        r: &Replay,
        plan: &crate::battle::Plan,
        t: Territory,
    ) -> Option<(crate::battle::Halves, Rule)> {
        if !r.ecaz_original() {
            return r.ambassador_dial_bonus(plan, t);
        }
        if !r.t.ecaz.cooccupy {
            return None;
        }
        let a = r.st.ally(EC)?;
        if plan.faction != EC && plan.faction != a {
            return None;
        }
        let n = r.st.in_territory(EC, t).fighting();
        Some((
            crate::battle::Halves::whole(u32::from(n.div_ceil(2))),
            rule!("2.11.19"),
        ))
    }

    /// 2.11.19 original: after a battle of Ecaz or its ally where the other shares the territory.
    /// With Battling Co-Occupied, half of Ecaz's forces (rounded down) stay when their side wins,
    /// the rest go to the tanks; without it, the partner's forces all stay when their side wins.
    /// When it loses, the partner's forces all go to the tanks.
    fn after_battle_result(
        &self,
        r: &mut Replay,
        b: &crate::replay::battle::Battle,
        o: &crate::battle::Outcome,
    ) {
        let cooccupy = std::mem::take(&mut r.t.ecaz.cooccupy);
        r.return_borrowed_leader();
        let t = b.place.territory;
        let Some(i) = (0..2).find(|&i| r.occupy_partner(b.sides[i]).is_some()) else {
            return;
        };
        let Some(partner) = r.occupy_partner(b.sides[i]) else {
            return;
        };
        if r.st.in_territory(partner, t).is_empty() && r.st.in_territory(EC, t).is_empty() {
            return;
        }
        let won = o.winner == Some(i);
        let wipe = |r: &mut Replay, f: Faction| {
            for &p in t.pieces() {
                r.st.wipe_piece(f, p);
            }
        };
        if !won {
            wipe(r, partner);
            if cooccupy {
                wipe(r, EC);
            }
            return;
        }
        if cooccupy {
            // Ecaz keeps half its forces, rounded down.
            let n = r.st.in_territory(EC, t).fighting();
            let mut lose = Forces::new(n - n / 2, 0);
            for &p in t.pieces() {
                if lose.is_empty() {
                    break;
                }
                let got = r.st.take_from_piece(EC, p, lose, Side::Fighter);
                lose.normal -= got.normal.min(lose.normal);
                r.st.faction_mut(EC).tanks.add(got.forces());
            }
        }
    }

    /// 2.11.19 original: what Ecaz and its ally lose when one of them fights beside the other.
    fn battle_loss(
        &self,
        r: &Replay,
        b: &crate::replay::battle::Battle,
        o: &crate::battle::Outcome,
        f: Faction,
    ) -> Option<(u8, Rule)> {
        let t = b.place.territory;
        let i = (0..2).find(|&i| r.occupy_partner(b.sides[i]).is_some())?;
        let side = b.sides[i];
        let partner = r.occupy_partner(side)?;
        if f != side && f != partner {
            return None;
        }
        let won = o.winner == Some(i);
        let all = |g: Faction| r.st.in_territory(g, t).fighting();
        let rule = rule!("2.11.19");
        if !r.t.ecaz.cooccupy {
            // The partner's forces follow the battle; the fighter's are the general rule's.
            return (f == partner).then(|| (if won { 0 } else { all(partner) }, rule));
        }
        let pool = r.st.ally(EC)?;
        if !won {
            return Some((all(f), rule));
        }
        let dialed = match o.losses[i] {
            crate::battle::Loss::Dialed(d) => d.total,
            _ => 0,
        };
        let ecaz = all(EC) - all(EC) / 2;
        let due = match (f == pool, f == EC) {
            (true, true) => dialed + ecaz,
            (true, false) => dialed,
            (false, true) => ecaz,
            (false, false) => 0,
        };
        Some((due, rule))
    }

    /// Duke Vidal, who served Ecaz until his battle, is set aside once he has fought
    /// (2.11.16.11 original).
    fn after_leader_return(&self, r: &mut Replay) {
        let l = Leader::Vidal;
        if r.ecaz.vidal_until_battle
            && r.t.battle.fought_in[l.index()].is_some()
            && r.st.leader(l) == LeaderState::Pool(EC)
        {
            r.st.leaders[l.index()] = LeaderState::SetAside;
            r.ecaz.vidal_until_battle = false;
        }
    }

    /// Duke Vidal lent to a new ally for the turn (2.11.16.11 original) is set aside at its end.
    fn end_of_turn(&self, r: &mut Replay) {
        if let Some((g, turn)) = r.ecaz.vidal_lent
            && turn == r.st.turn
        {
            r.ecaz.vidal_lent = None;
            let l = Leader::Vidal;
            if r.st.leader(l) == LeaderState::Pool(g) {
                r.st.leaders[l.index()] = LeaderState::SetAside;
            }
        }
    }
}
