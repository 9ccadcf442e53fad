//! Moritani (000 2.12): terror tokens laid on the board and sprung on whoever comes near, the
//! bounty board of traitors, Duke Vidal and the killing of leaders.
//!
//! The full rulebook prints two texts of this chapter run together (as it does Ecaz's); the
//! revised one is the default, `[Edition "original"]` plays the published expansion's
//! (docs/notation.md, Decisions 72). Item by item (2.12.xx):
//! - 00 basic/advanced (the bounty abilities 18-20 are advanced); 01 12 spice; 02 six forces in
//!   any unoccupied territory once every other faction has placed (`PLACE MO terr 6`), fourteen
//!   in reserve; 03 the bounty board, one random traitor card of every faction in play
//!   (`BOUNTY MO{…}`, sealed); 04 Moritani's traitor is drawn from it (`TR MO{leader}`); 05 the
//!   terror tokens behind the shield (six, original; seven, revised); 06 free revival 2;
//! - 07 Terrorize: in War Continues one token placed face down in a stronghold without one, or
//!   moved to one (original: `TERROR MO place ARK{Atomics}`, `TERROR MO move ARK>CAR`); at the end
//!   of Revival up to three of plot, plan and scheme, anywhere (revised: `plot`, `plan`,
//!   `scheme`);
//! - 08 triggering: when another faction (not the ally) enters a stronghold with a token,
//!   advisors included (original: `TERROR MO trigger ARK token …`); at the start of a battle
//!   Moritani (or its ally, 17) fights, the token in that territory (revised, Organized Strike:
//!   `TERROR MO strike ARK token …`); 09 Aftermath: revealed tokens lie face up in front of the
//!   shield; 10 and 12 storms, worms and explosions do not touch them; 11 revealed tokens leave
//!   play (they lie in front of the shield: no rule brings them back but the revised Scheme);
//! - 13 each token's effect; 14 Terror Moves: tokens travel free with Moritani's own move or
//!   shipment (original: `TERROR MO carry A>B`); Enemy of my Enemy: an alliance offered instead
//!   of a trigger (revised: `TERROR MO offer F yes|no`); 15 Duke Vidal revived as Moritani's
//!   leader revival, and set aside (original); 16 the bounty board draw at the Mentat Pause
//!   (original: `BOUNTY MO draw{leader}`); Duke Vidal joins Moritani after Shipment and Movement
//!   when it faces two stronghold battles (revised); 17 the ally's Organized Strike, and Duke
//!   Vidal set aside at the Mentat Pause; 18 Alive and Dead (`BOUNTY MO alive|dead leader`), the
//!   ally keeping a card (`BOUNTY MO keep F card`); 19-20 Assassinate Leaders (original:
//!   `BOUNTY MO assassinate leader`), lost by a normal traitor call.

use dune::{Faction, FactionSet, Rule, Spice, rule};

use super::{FactionRules, Hit, LeaderRevival, Sheet, SheetRules};
use crate::board::{Card, Leader, Piece, Territory};
use crate::dgn::{
    BountyAction, Event, ForceCount, Payee, Place, Sealed, Side, TerrorAction, TerrorEffect,
};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL};
use crate::replay::movement::Entry;
use crate::state::{Edition, LeaderState, Phase};
use crate::tokens::{Terror, Token, TokenKind, TokenPlace};

pub(crate) struct Moritani;

pub(crate) const MO: Faction = Faction::Moritani;

/// 2.12.01 12 spice, 2.12.02 six forces placed and fourteen in reserve, 2.12.06 free revival 2.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(12),
    free_revival: 2,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::kinds::ForceKinds::PLAIN,
    start: None,
    rules: SheetRules {
        traitors: rule!("2.12.04"),
        ..SheetRules::GENERAL
    },
};

/// Forces Moritani places at setup (2.12.02).
const START_FORCES: u8 = 6;

pub(crate) const TRIGGER: Ability = Ability(rule!("2.12.08"));

/// 000 prints no Karama marks: Mentat lets a Karama cancel a terror token's trigger, the one use
/// other players most need to answer (docs/notation.md, Decisions).
static KARAMA: [AbilityInfo; 1] = [AbilityInfo::new(
    TRIGGER,
    MO,
    CANCEL,
    None,
    false,
    true,
    "triggering a terror token",
)];

/// Moritani's data for the whole game.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoritaniData {
    /// The bounty board, when the log gives it (audit mode): cards still on it.
    pub(crate) board: Option<Vec<Option<Leader>>>,
    /// The starting forces have been placed (2.12.02).
    pub(crate) placed: bool,
    /// The territory of the Atomics Aftermath token (2.12.13.02).
    pub(crate) aftermath: Option<Territory>,
    /// Factions whose leader Moritani has assassinated (2.12.19 original: once each).
    pub(crate) assassinated: FactionSet,
    /// Assassinate Leaders is lost (a traitor revealed the normal way, 2.12.20 original).
    pub(crate) assassinate_lost: bool,
    /// A traitor card revealed by Assassinate Leaders, to set aside and replace in War
    /// Continues (2.12.19 original).
    pub(crate) redraw: bool,
    /// The Extortion token waits in front of the shield for War Continues (2.12.13.03
    /// original), and whether a player has paid to keep it off the board.
    pub(crate) extortion: Option<bool>,
}

/// Moritani's data for one turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoritaniTurn {
    /// Terrorize actions taken this turn (2.12.07).
    pub(crate) terrorized: u8,
    /// Entries already answered by a terror token (their index in the turn's entries).
    pub(crate) answered: Vec<usize>,
    /// The current battle's Organized Strike has been made (2.12.08 revised).
    pub(crate) struck: bool,
    /// Hostage (2.12.13.01 revised): the leader held and its faction, and who profits.
    pub(crate) hostage: Option<(Leader, Faction, Faction)>,
    /// Robbery (2.12.13.04 revised): the spice set aside, whose it is and who profits.
    pub(crate) robbery: Option<(Faction, Spice, Faction)>,
    /// Extortion (2.12.13.03 revised): the opponent who may pay 3 instead of the bank's 6.
    pub(crate) extortion: Option<(Faction, Faction)>,
    /// The last battle's loser and whether Assassinate Leaders may answer it (2.12.19).
    pub(crate) lost_battle: Option<(Faction, Leader)>,
    /// The last battle's killed leaders and who was paid for them (Alive, 2.12.18.01).
    pub(crate) killed: Vec<(Leader, Option<Faction>, Spice)>,
}

impl Replay {
    /// The text Moritani's chapter is played by.
    pub(crate) fn moritani_edition(&self) -> Edition {
        self.st.options.edition_of(MO)
    }

    fn moritani_original(&self) -> bool {
        self.moritani_edition() == Edition::Original
    }

    /// Only Moritani writes `TERROR` and `BOUNTY` lines.
    fn is_moritani(&mut self, f: Faction, rule: Rule, what: &str) -> bool {
        if f != MO {
            self.v_full(rule, format!("{what} are Moritani's, not {f}'s"));
            return false;
        }
        self.in_play_or_report(f)
    }

    fn terror_tokens_in(&self, t: Territory) -> Vec<usize> {
        self.st
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, k)| k.owner == MO && k.is_terror() && k.territory() == Some(t))
            .map(|(i, _)| i)
            .collect()
    }

    /// A terror token in the supply (behind the shield): the one named, or any when the log
    /// seals it.
    fn token_in_supply(&self, token: Option<Terror>) -> Option<usize> {
        let supply = |k: &Token| k.owner == MO && k.is_terror() && k.place == TokenPlace::Supply;
        match token {
            Some(x) => self
                .st
                .tokens
                .iter()
                .position(|k| supply(k) && k.kind == TokenKind::Terror(Some(x)))
                .or_else(|| {
                    self.st
                        .tokens
                        .iter()
                        .position(|k| supply(k) && k.kind == TokenKind::Terror(None))
                }),
            None => self.st.tokens.iter().position(supply),
        }
    }

    fn terror_token(&self, x: Terror) -> Option<usize> {
        self.st
            .tokens
            .iter()
            .position(|k| k.owner == MO && k.kind == TokenKind::Terror(Some(x)))
    }

    /// `TERROR MO …`
    pub(crate) fn terror_statement(&mut self, ev: &Event, f: Faction, action: &TerrorAction) {
        if !self.is_moritani(f, rule!("2.12.05"), "terror tokens") {
            return;
        }
        let _ = ev;
        match action {
            TerrorAction::Place { to, token } => self.terrorize_place(*to, token),
            TerrorAction::Move { from, to } => self.terrorize_move(*from, *to),
            TerrorAction::Scheme(x) => self.scheme(*x),
            TerrorAction::Trigger {
                at,
                token,
                strike,
                beneficiary,
                effect,
            } => self.trigger_terror(*at, *token, *strike, *beneficiary, effect),
            TerrorAction::Carry { from, to, token } => self.carry_terror(*from, *to, token),
            TerrorAction::Offer { to, accepted } => self.enemy_of_my_enemy(*to, *accepted),
            TerrorAction::Pay { by } => self.extortion_paid(*by),
        }
    }

    /// One Terrorize action: when, and how many (2.12.07).
    fn terrorize_turn(&mut self, what: &str) -> bool {
        if self.moritani_original() {
            if self.st.phase != Phase::Mentat {
                self.v_full(
                    rule!("2.12.07"),
                    format!("Moritani {what} in War Continues, at the Mentat Pause (not in the {} phase)", self.st.phase),
                );
                return false;
            }
            if self.winner.is_some() || self.t.mentat.as_ref().is_some_and(|m| m.winner.is_some()) {
                self.v_full(
                    rule!("2.12.07"),
                    "the game is won: there is no War Continues",
                );
                return false;
            }
            if self.t.moritani.terrorized >= 1 {
                self.v_full(
                    rule!("2.12.07"),
                    "Moritani places or moves one terror token per War Continues",
                );
                return false;
            }
        } else {
            if self.st.phase != Phase::Revival {
                self.v_full(
                    rule!("2.12.07"),
                    format!("Moritani takes its Terrorize actions at the end of the Revival phase (not in the {} phase)", self.st.phase),
                );
                return false;
            }
            if self.t.moritani.terrorized >= 3 {
                self.v_full(
                    rule!("2.12.07"),
                    "Moritani takes up to three Terrorize actions a turn",
                );
                return false;
            }
        }
        self.t.moritani.terrorized += 1;
        true
    }

    /// Where a token may go by Terrorize (2.12.07): a stronghold without one, storm or not
    /// (original); any territory (revised); never the Hidden Mobile Stronghold, nor the Shield
    /// Wall, a rock territory (000 4.02.07).
    fn terror_destination(&mut self, to: Place, rule: Rule) -> Option<Piece> {
        let t = to.territory;
        if t == Territory::ShieldWall {
            self.v_full(
                rule!("4.02.07"),
                "terror tokens cannot be placed or moved onto the Shield Wall",
            );
            return None;
        }
        if self.moritani_original() {
            if !t.is_stronghold() {
                self.v_full(
                    rule,
                    format!(
                        "Terrorize places terror tokens in strongholds, not in {}",
                        t.name()
                    ),
                );
                return None;
            }
            if !self.terror_tokens_in(t).is_empty() {
                self.v_full(rule, format!("{} already holds a terror token", t.name()));
                return None;
            }
        }
        to.sector
            .and_then(|s| t.piece(Some(s)))
            .or_else(|| t.piece(t.single_sector()))
            .or_else(|| t.pieces().first().copied())
    }

    /// `TERROR MO place terr{token}` (2.12.07 original; Plot, 2.12.07.01 revised).
    fn terrorize_place(&mut self, to: Place, token: &Sealed<Option<Terror>>) {
        let rule = if self.moritani_original() {
            rule!("2.12.07")
        } else {
            rule!("2.12.07.01")
        };
        if !self.terrorize_turn("places a terror token") {
            return;
        }
        let Some(p) = self.terror_destination(to, rule) else {
            return;
        };
        let named = self.sealed(token).copied().flatten();
        if named == Some(Terror::DukeVidal) && self.moritani_original() {
            self.v_full(
                rule!("2.12.05"),
                "the Duke Vidal terror token is the revised text's seventh ([Edition \"revised\"])",
            );
            return;
        }
        let Some(i) = self.token_in_supply(named) else {
            let what = named.map_or("a terror token".to_string(), |x| format!("the {x} token"));
            let removed = named
                .and_then(|x| self.terror_token(x))
                .is_some_and(|j| self.st.tokens[j].place == TokenPlace::Removed);
            if removed {
                self.v_full(
                    rule!("2.12.11"),
                    format!("{what} was revealed and removed from the game"),
                );
                return;
            }
            self.v_full(rule, format!("Moritani has not {what} behind its shield"));
            return;
        };
        self.lay_terror(i, p, named);
    }

    /// A token goes face down onto the board; when the log does not say which (a sealed or
    /// published log), nobody reading it knows, and the one taken from the supply is unknown too.
    fn lay_terror(&mut self, i: usize, p: Piece, named: Option<Terror>) {
        let k = &mut self.st.tokens[i];
        k.place = TokenPlace::Board(p);
        k.face_up = false;
        k.kind = TokenKind::Terror(named);
    }

    /// A token revealed as `x`: any other token thought to be `x` was not (the log left some
    /// identities out).
    fn reveal_terror(&mut self, i: usize, x: Terror) {
        for (j, k) in self.st.tokens.iter_mut().enumerate() {
            if j != i && k.owner == MO && k.kind == TokenKind::Terror(Some(x)) {
                k.kind = TokenKind::Terror(None);
            }
        }
        self.st.tokens[i].kind = TokenKind::Terror(Some(x));
        self.st.tokens[i].face_up = true;
    }

    /// `TERROR MO move terr>terr` (2.12.07 original; Plan, 2.12.07.02 revised).
    fn terrorize_move(&mut self, from: Territory, to: Place) {
        let rule = if self.moritani_original() {
            rule!("2.12.07")
        } else {
            rule!("2.12.07.02")
        };
        if !self.terrorize_turn("moves a terror token") {
            return;
        }
        let Some(&i) = self.terror_tokens_in(from).first() else {
            self.v_full(rule, format!("there is no terror token in {}", from.name()));
            return;
        };
        if let Some(p) = self.terror_destination(to, rule) {
            self.st.tokens[i].place = TokenPlace::Board(p);
        }
    }

    /// `TERROR MO scheme token` (2.12.07.03 revised): a token from in front of the shield back
    /// behind it.
    fn scheme(&mut self, x: Terror) {
        if self.moritani_original() {
            self.v_full(
                rule!("2.12.07"),
                "Scheme is the revised text's Terrorize action ([Edition \"revised\"])",
            );
            return;
        }
        if !self.terrorize_turn("schemes") {
            return;
        }
        match self.terror_token(x) {
            Some(i) if self.st.tokens[i].place == TokenPlace::Front => {
                self.st.tokens[i].place = TokenPlace::Supply;
                self.st.tokens[i].face_up = false;
            }
            _ => self.v_full(
                rule!("2.12.07.03"),
                format!("the {x} token is not in front of Moritani's shield"),
            ),
        }
    }

    /// The latest arrival into `t` that a token answers (2.12.08 original): not by Moritani or
    /// its ally; advisors count.
    fn terror_entry(&self, t: Territory) -> Result<(usize, Faction), String> {
        let Some((i, e)) = self
            .t
            .entries
            .iter()
            .enumerate()
            .rev()
            .find(|(_, e)| e.territory == t && e.faction != MO)
        else {
            return Err(format!(
                "no other faction has entered {} this turn",
                t.name()
            ));
        };
        if self.t.moritani.answered.contains(&i) {
            return Err(format!(
                "{}'s arrival in {} has already been answered",
                e.faction,
                t.name()
            ));
        }
        if self.st.ally(MO) == Some(e.faction) {
            return Err(format!(
                "{} is Moritani's ally: its arrival does not trigger a terror token",
                e.faction
            ));
        }
        Ok((i, e.faction))
    }

    /// `TERROR MO trigger|strike terr token [for F] [effect]` (2.12.08, 2.12.13, 2.12.17).
    fn trigger_terror(
        &mut self,
        t: Territory,
        x: Terror,
        strike: bool,
        beneficiary: Option<Faction>,
        effect: &TerrorEffect,
    ) {
        let original = self.moritani_original();
        if strike == original {
            let (yes, no) = if original {
                ("trigger", "strike")
            } else {
                ("strike", "trigger")
            };
            self.v_full(
                rule!("2.12.08"),
                format!(
                    "in the {} text a terror token is sprung with `{yes}`, not `{no}`",
                    self.moritani_edition()
                ),
            );
            return;
        }
        if x == Terror::DukeVidal && original {
            self.v_full(
                rule!("2.12.05"),
                "the Duke Vidal terror token is the revised text's seventh ([Edition \"revised\"])",
            );
            return;
        }
        let here = self.terror_tokens_in(t);
        // The token named, if it is there; else any face-down one (its face sealed in the log).
        let Some(&i) = here
            .iter()
            .find(|&&i| self.st.tokens[i].kind == TokenKind::Terror(Some(x)))
            .or_else(|| {
                here.iter()
                    .find(|&&i| self.st.tokens[i].kind == TokenKind::Terror(None))
            })
        else {
            let why = if here.is_empty() {
                format!("there is no terror token in {}", t.name())
            } else {
                format!("the terror token in {} is not {x}", t.name())
            };
            self.v_full(rule!("2.12.08"), why);
            return;
        };
        // Who the token is sprung on, and who profits.
        let (target, profits) = if original {
            match self.terror_entry(t) {
                Ok((entry, g)) => {
                    self.t.moritani.answered.push(entry);
                    (g, MO)
                }
                Err(why) => {
                    self.v_full(rule!("2.12.08"), why);
                    return;
                }
            }
        } else {
            let Some(b) = self.t.battle.current.as_ref() else {
                self.v_full(
                    rule!("2.12.08"),
                    "Organized Strike springs a token at the start of a battle Moritani or its ally fights (`X territory: F v F` first)",
                );
                return;
            };
            let sides = b.sides;
            let ally = self.st.ally(MO);
            let (side, rule) = match beneficiary {
                Some(a) if Some(a) == ally => (b.side_of(a), rule!("2.12.17")),
                Some(a) if a != MO => {
                    self.v_full(
                        rule!("2.12.17"),
                        format!("Moritani strikes for its ally only, and {a} is not"),
                    );
                    return;
                }
                _ => (b.side_of(MO), rule!("2.12.08")),
            };
            let Some(side) = side else {
                self.v_full(
                    rule,
                    "Organized Strike is used in a battle Moritani (or, for its ally, the ally) fights",
                );
                return;
            };
            if b.place.territory != t {
                self.v_full(
                    rule!("2.12.08"),
                    format!(
                        "Organized Strike springs a token in the battle's territory ({}), not {}",
                        b.place.territory.name(),
                        t.name()
                    ),
                );
                return;
            }
            if b.plans.iter().any(Option::is_some) {
                self.v_full(
                    rule!("2.12.08"),
                    "Organized Strike comes at the start of the battle, before the battle plans",
                );
                return;
            }
            if self.t.moritani.struck {
                self.v_full(rule!("2.12.08"), "one terror token per battle");
                return;
            }
            self.t.moritani.struck = true;
            (sides[1 - side], sides[side])
        };
        if self.karama_forbids(TRIGGER, &format!("Moritani springs the {x} token")) {
            return;
        }
        self.reveal_terror(i, x);
        let mut after = self.terror_effect(x, target, profits, t, effect);
        // The original text removes a revealed token from the game (2.12.11), the Extortion
        // token aside, which waits for War Continues (2.12.13.03); the revised one keeps it in
        // front of the shield for Scheme (Aftermath, 2.12.09).
        if self.moritani_original() && after == TokenPlace::Front && x != Terror::Extortion {
            after = TokenPlace::Removed;
        }
        self.st.tokens[i].place = after;
    }

    /// A token's effect on `target`, profiting `profits` (Moritani, or its ally by the revised
    /// Organized Strike); returns where the token goes after it (2.12.09, 2.12.13).
    fn terror_effect(
        &mut self,
        x: Terror,
        target: Faction,
        profits: Faction,
        t: Territory,
        effect: &TerrorEffect,
    ) -> TokenPlace {
        let original = self.moritani_original();
        let rule = x.rule();
        match (x, effect) {
            (Terror::Assassination, TerrorEffect::Leader(l)) => {
                if self.st.leader(*l) != LeaderState::Pool(target) {
                    self.v_full(rule, format!("{l} is not one of {target}'s active leaders"));
                    return TokenPlace::Front;
                }
                if original {
                    self.kill_leader(*l);
                    let paid = Spice::new(u32::from(l.strength()));
                    self.bank_pays(profits, paid);
                } else {
                    // Hostage: in front of its faction's shield until the battle is over.
                    self.st.leaders[l.index()] = LeaderState::SetAside;
                    self.t.moritani.hostage = Some((*l, target, profits));
                }
            }
            (Terror::Atomics, TerrorEffect::None | TerrorEffect::Discard(_)) => {
                return self.terror_atomics(t, effect);
            }
            (Terror::Extortion, TerrorEffect::None) => {
                if original {
                    // From the bank, in front of the shield.
                    self.st.faction_mut(MO).bribes += Spice::new(5);
                    self.st.bank_out += 5;
                    self.moritani.extortion = Some(false);
                    return TokenPlace::Front;
                }
                self.bank_pays(profits, Spice::new(6));
                self.t.moritani.extortion = Some((target, profits));
                return TokenPlace::Supply;
            }
            (Terror::Robbery, TerrorEffect::Spice) if original => {
                let half = Spice::new(self.spice(target).amount().div_ceil(2));
                self.pay(target, Payee::Faction(profits), half);
            }
            (Terror::Robbery, TerrorEffect::TopCard(card)) if original => {
                let id = self.sealed(card).copied().flatten();
                self.deal_cards(profits, 1, &[id]);
                let limit = self.hand_limit(profits);
                if self.st.faction(profits).hand.len() > usize::from(limit) {
                    // A card of Moritani's choice goes: the log does not say which.
                    self.st.faction_mut(profits).hand.pop();
                    self.st.treachery_discard.extend(id);
                }
            }
            (Terror::Robbery, TerrorEffect::None) if !original => {
                let half = Spice::new(self.spice(target).amount().div_ceil(2));
                let st = self.st.faction_mut(target);
                st.spice = st.spice.saturating_sub(half);
                // Set aside until the battle: held by the bank meanwhile.
                self.st.bank_out -= i64::from(half.amount());
                self.t.moritani.robbery = Some((target, half, profits));
            }
            (Terror::Sabotage, TerrorEffect::Sabotage { taken, given }) => {
                if let Some(c) = taken {
                    if original {
                        self.play_card(target, *c, rule, false);
                    } else {
                        self.take_card(target, *c, rule);
                        self.st.faction_mut(profits).hand.push(Some(*c));
                    }
                } else if !self.st.faction(target).hand.is_empty() {
                    self.v_full(
                        rule,
                        format!("{target} holds treachery cards: the Sabotage token takes one (name it: `take card`)"),
                    );
                }
                if let Some(g) = given
                    && self.take_card(profits, *g, rule)
                {
                    self.st.faction_mut(target).hand.push(Some(*g));
                }
            }
            (Terror::SneakAttack, TerrorEffect::Forces(c)) => {
                if c.total > 5 {
                    self.v_full(
                        rule,
                        format!(
                            "the {} token sends up to 5 forces, not {}",
                            if original { "Sneak Attack" } else { "Ambush" },
                            c.total
                        ),
                    );
                }
                self.terror_send(profits, *c, t, rule);
            }
            (Terror::DukeVidal, TerrorEffect::None) => {
                let l = Leader::Vidal;
                if matches!(self.st.leader(l), LeaderState::Tanks { .. }) {
                    self.st.leaders[l.index()] = LeaderState::SetAside;
                } else {
                    self.vidal_to(profits, rule);
                }
            }
            _ => {
                self.v_full(
                    rule,
                    format!("the {x} token's effect is {}", terror_words(x, original)),
                );
            }
        }
        TokenPlace::Front
    }

    /// Up to 5 forces from reserves into the token's territory, free, storm and occupancy
    /// limits permitting, even where the Atomics Aftermath lies (2.12.13.06).
    fn terror_send(&mut self, who: Faction, c: ForceCount, t: Territory, rule: Rule) {
        let Some(p) = t.piece(t.single_sector()).or_else(|| {
            t.pieces()
                .iter()
                .copied()
                .find(|p| !p.in_storm(self.st.storm))
        }) else {
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
        if !reserves.covers(crate::state::Forces::from_count(c)) {
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
    }

    /// Atomics (2.12.13.02): every force in the territory to the tanks, the Aftermath token
    /// there, Moritani's and its ally's hand limits one lower; the revised text also sends the
    /// territory's spice to the bank and the other tokens on the board home, ends the battle and
    /// sets the token aside.
    fn terror_atomics(&mut self, t: Territory, effect: &TerrorEffect) -> TokenPlace {
        let original = self.moritani_original();
        for f in self.st.in_play.iter() {
            for &p in t.pieces() {
                self.st.wipe_piece(f, p);
            }
        }
        self.hit_board(t, None, Hit::Atomics);
        self.moritani.aftermath = Some(t);
        if let TerrorEffect::Discard(list) = effect {
            for &(f, c) in list {
                self.play_card(f, c, rule!("2.12.13.02"), false);
            }
        }
        for f in [Some(MO), self.st.ally(MO)].into_iter().flatten() {
            let limit = self.hand_limit(f);
            let held = self.st.faction(f).hand.len();
            if held > usize::from(limit) {
                self.v_full(
                    rule!("2.12.13.02"),
                    format!("{f} holds {held} cards over its lowered hand limit of {limit}: a random card is discarded (`discard {f}:card`)"),
                );
            }
        }
        if original {
            return TokenPlace::Removed;
        }
        for &p in t.pieces() {
            self.st.spice[p.index()] = Spice::ZERO;
        }
        for k in self.st.tokens.iter_mut() {
            if k.owner == MO && k.is_terror() && matches!(k.place, TokenPlace::Board(_)) {
                k.place = TokenPlace::Supply;
                k.face_up = false;
            }
        }
        if let Some(b) = self.t.battle.current.as_mut()
            && b.place.territory == t
        {
            // The battle ends: nothing of it is resolved.
            b.void = true;
        }
        TokenPlace::SetAside
    }

    /// `TERROR MO carry …` (Terror Moves, 2.12.14 original): tokens travel with Moritani's own
    /// last move (same start and end) or shipment.
    fn carry_terror(&mut self, from: Option<Territory>, to: Place, token: &Sealed<Option<Terror>>) {
        if !self.moritani_original() {
            self.v_full(
                rule!("2.12.14"),
                "Terror Moves is the original text's ([Edition \"original\"])",
            );
            return;
        }
        let t = to.territory;
        let last = self
            .t
            .entries
            .iter()
            .rev()
            .find(|e| e.faction == MO)
            .copied();
        let matches = last.is_some_and(|e| e.territory == t && e.from == from);
        if !matches || self.st.phase != Phase::Movement {
            let what = match from {
                Some(a) => format!("a Moritani move from {} to {}", a.name(), t.name()),
                None => format!("a Moritani shipment to {}", t.name()),
            };
            self.v_full(
                rule!("2.12.14"),
                format!("terror tokens travel with Moritani's own move or shipment, the same way: the last one is not {what}"),
            );
            return;
        }
        if t == Territory::ShieldWall {
            self.v_full(
                rule!("4.02.07"),
                "terror tokens cannot be placed or moved onto the Shield Wall",
            );
            return;
        }
        let Some(p) = to
            .sector
            .and_then(|s| t.piece(Some(s)))
            .or_else(|| t.piece(t.single_sector()))
            .or_else(|| t.pieces().first().copied())
        else {
            return;
        };
        match from {
            Some(a) => {
                let here = self.terror_tokens_in(a);
                if here.is_empty() {
                    self.v_full(
                        rule!("2.12.14"),
                        format!("there is no terror token in {}", a.name()),
                    );
                }
                for i in here {
                    self.st.tokens[i].place = TokenPlace::Board(p);
                }
            }
            None => {
                let named = self.sealed(token).copied().flatten();
                match self.token_in_supply(named) {
                    Some(i) => self.lay_terror(i, p, named),
                    None => self.v_full(
                        rule!("2.12.14"),
                        "Moritani has no such terror token behind its shield",
                    ),
                }
            }
        }
    }

    /// `TERROR MO offer F yes|no` (Enemy of my Enemy, 2.12.14-2.12.15 revised).
    fn enemy_of_my_enemy(&mut self, to: Faction, accepted: bool) {
        if self.moritani_original() {
            self.v_full(
                rule!("2.12.14"),
                "Enemy of my Enemy is the revised text's ([Edition \"revised\"])",
            );
            return;
        }
        if to == Faction::Ecaz {
            self.v_full(
                rule!("2.12.14"),
                "Moritani cannot offer Ecaz an alliance this way",
            );
            return;
        }
        let Some(b) = self.t.battle.current.as_ref() else {
            self.v_full(
                rule!("2.12.14"),
                "the alliance is offered before a terror token is sprung on that faction, in its battle",
            );
            return;
        };
        let t = b.place.territory;
        if b.side_of(to).is_none() || self.terror_tokens_in(t).is_empty() {
            self.v_full(
                rule!("2.12.14"),
                format!("{to} would trigger no terror token in this battle"),
            );
            return;
        }
        if !accepted {
            return;
        }
        // 2.12.15 revised: allied, breaking any alliance either was in; the token goes home
        // unrevealed, and the battle is between allies no more.
        for f in [MO, to] {
            if let Some(a) = self.st.ally(f) {
                self.st.faction_mut(a).ally = None;
            }
        }
        self.st.faction_mut(MO).ally = Some(to);
        self.st.faction_mut(to).ally = Some(MO);
        if let Some(&i) = self.terror_tokens_in(t).first() {
            self.st.tokens[i].place = TokenPlace::Supply;
            self.st.tokens[i].face_up = false;
        }
        if let Some(b) = self.t.battle.current.as_mut()
            && b.side_of(MO).is_some()
        {
            b.void = true;
        }
    }

    /// `TERROR MO pay F` (Extortion, 2.12.13.03).
    fn extortion_paid(&mut self, by: Faction) {
        if !self.in_play_or_report(by) {
            return;
        }
        if self.moritani_original() {
            if self.moritani.extortion.is_none() || self.st.phase != Phase::Mentat {
                self.v_full(
                    rule!("2.12.13.03"),
                    "a player pays 3 for the Extortion token in War Continues, while it lies in front of Moritani's shield",
                );
                return;
            }
            if self.moritani.extortion == Some(true) {
                self.v_full(
                    rule!("2.12.13.03"),
                    "one player pays for the Extortion token",
                );
                return;
            }
            self.moritani.extortion = Some(true);
        } else {
            match self.t.moritani.extortion.take() {
                Some((opp, profits)) if opp == by => {
                    // The bank's 6 go back to it; the opponent pays 3 instead.
                    let st = self.st.faction_mut(profits);
                    let back = st.spice.min(Spice::new(6));
                    st.spice = st.spice.saturating_sub(back);
                    self.st.bank_out -= i64::from(back.amount());
                    self.pay(by, Payee::Faction(profits), Spice::new(3));
                    return;
                }
                _ => {
                    self.v_full(
                        rule!("2.12.13.03"),
                        format!("{by} is not the opponent the Extortion token was just sprung on"),
                    );
                    return;
                }
            }
        }
        if self.spice(by) < 3 {
            self.v_full(
                rule!("2.12.13.03"),
                format!("{by} must pay 3 spice but has {}", self.spice(by)),
            );
        }
        self.pay(by, Payee::Faction(MO), Spice::new(3));
    }

    /// `BOUNTY MO …`
    pub(crate) fn bounty_statement(&mut self, f: Faction, action: &BountyAction) {
        if !self.is_moritani(f, rule!("2.12.03"), "the bounty board and its traitors") {
            return;
        }
        let original = self.moritani_original();
        // Alive, Dead and Assassinate Leaders are Advanced abilities (2.12.00).
        let advanced_only = matches!(
            action,
            BountyAction::Alive(_) | BountyAction::Dead(_) | BountyAction::Assassinate(_)
        );
        if advanced_only && !self.st.options.advanced {
            let which = if original {
                "2.12.18 to 2.12.20"
            } else {
                "2.12.18"
            };
            self.v_full(
                rule!("2.12.00"),
                format!("the bounty abilities ({which}) are Advanced"),
            );
            return;
        }
        match action {
            BountyAction::Board(list) => self.bounty_board(list),
            BountyAction::Draw(leader) => self.bounty_draw(leader),
            BountyAction::Alive(l) => self.bounty_alive(*l),
            BountyAction::Dead(l) => self.bounty_dead(*l),
            BountyAction::Assassinate(l) if original => self.assassinate(*l),
            BountyAction::Assassinate(_) => self.v_full(
                rule!("2.12.19"),
                "Assassinate Leaders is the original text's ([Edition \"original\"])",
            ),
            BountyAction::Keep { ally, card } => self.ally_keeps(*ally, *card),
        }
    }

    /// `BOUNTY MO{…}` (2.12.03): one random traitor card of every faction in play, Moritani's
    /// own included, taken unseen before the traitors are dealt.
    fn bounty_board(&mut self, list: &Sealed<Vec<Option<Leader>>>) {
        if self.st.turn != 0 || !self.setup.traitors.is_empty() {
            self.v_full(
                rule!("2.12.03"),
                "the bounty board is made at the start of the traitor step of setup (before the TR lines)",
            );
        }
        let Some(v) = self.sealed(list).cloned() else {
            return;
        };
        let mut seen = FactionSet::EMPTY;
        for l in v.iter().flatten() {
            let g = l.faction();
            if !self.st.plays(g) || *l == Leader::Vidal || seen.contains(g) {
                self.v_full(
                    rule!("2.12.03"),
                    format!("the bounty board holds one traitor card of each faction in play; {l} does not fit it"),
                );
            }
            seen.insert(g);
        }
        if v.len() != self.st.in_play.len() {
            self.v_full(
                rule!("2.12.03"),
                format!(
                    "the bounty board holds one card per faction in play ({}), not {}",
                    self.st.in_play.len(),
                    v.len()
                ),
            );
        }
        self.moritani.board = Some(v);
    }

    /// Moritani's traitor comes from the bounty board (2.12.04): checked against the board when
    /// the log gives it.
    pub(crate) fn bounty_traitor_check(&mut self, holder: Faction, l: Leader) {
        if holder != MO {
            return;
        }
        if let Some(board) = &self.moritani.board
            && !board.contains(&Some(l))
            && !board.contains(&None)
        {
            self.v_full(
                rule!("2.12.04"),
                format!("Moritani's traitor comes from its bounty board, which does not hold {l}"),
            );
        }
    }

    /// `BOUNTY MO draw{leader}` (2.12.16 original at the Mentat Pause; after an assassination,
    /// 2.12.19).
    fn bounty_draw(&mut self, leader: &Sealed<Option<Leader>>) {
        let rule = if self.moritani.redraw {
            rule!("2.12.19")
        } else {
            rule!("2.12.16")
        };
        if !self.moritani_original() {
            self.v_full(
                rule!("2.12.16"),
                "the bounty board draw is the original text's ([Edition \"original\"])",
            );
            return;
        }
        if self.st.phase != Phase::Mentat {
            self.v_full(
                rule,
                format!(
                    "Moritani draws from its bounty board in the Mentat Pause, not in the {} phase",
                    self.st.phase
                ),
            );
            return;
        }
        self.moritani.redraw = false;
        let new = self.sealed(leader).copied().flatten();
        // The unrevealed traitor held goes back to the board after the draw.
        let old: Vec<Option<Leader>> = self.st.faction(MO).traitors.clone().unwrap_or_default();
        if let Some(l) = new {
            if let Some(board) = &self.moritani.board
                && !board.contains(&Some(l))
                && !board.contains(&None)
            {
                self.v_full(rule, format!("the bounty board does not hold {l}"));
            }
            for g in self.st.in_play.iter() {
                crate::factions::rules(g).traitor_forbidden(self, MO, l);
            }
        }
        if let Some(board) = self.moritani.board.as_mut() {
            if let Some(l) = new
                && let Some(k) = board.iter().position(|x| *x == Some(l))
            {
                board.remove(k);
            }
            board.extend(old.iter().copied());
        }
        self.st.faction_mut(MO).traitors = Some(vec![new]);
    }

    /// The traitor card Moritani reveals for a bounty: held, and then spent (2.12.18.00).
    fn reveal_traitor(&mut self, l: Leader, rule: Rule) -> bool {
        if !self.st.options.advanced {
            self.v_full(
                rule!("2.12.00"),
                "the bounty abilities (2.12.18 on) are Advanced",
            );
            return false;
        }
        if self.opts.audit
            && let Some(list) = &self.st.faction(MO).traitors
            && !list.contains(&Some(l))
            && !list.contains(&None)
        {
            self.v_full(rule, format!("Moritani's traitor cards do not include {l}"));
            return false;
        }
        if let Some(list) = self.st.faction_mut(MO).traitors.as_mut() {
            if let Some(k) = list.iter().position(|x| *x == Some(l)) {
                list.remove(k);
            } else if let Some(k) = list.iter().position(Option::is_none) {
                list.remove(k);
            }
        }
        true
    }

    /// `BOUNTY MO alive leader` (2.12.18.01): the leader on Moritani's traitor card died in the
    /// last battle; Moritani takes the spice paid for it.
    fn bounty_alive(&mut self, l: Leader) {
        let Some(&(_, paid_to, amount)) = self.t.moritani.killed.iter().find(|(k, _, _)| *k == l)
        else {
            self.v_full(
                rule!("2.12.18.01"),
                format!("{l} did not die in the last battle"),
            );
            return;
        };
        if !self.reveal_traitor(l, rule!("2.12.18.01")) {
            return;
        }
        if let Some(g) = paid_to {
            self.pay(g, Payee::Faction(MO), amount);
        }
        self.face_down_in_tanks(l);
    }

    /// `BOUNTY MO dead leader` (2.12.18.02): in Spice Collection, the leader in the tanks.
    fn bounty_dead(&mut self, l: Leader) {
        if self.st.phase != Phase::Collection {
            self.v_full(
                rule!("2.12.18.02"),
                format!(
                    "Dead is used in the Spice Collection phase, not the {} phase",
                    self.st.phase
                ),
            );
            return;
        }
        if !matches!(self.st.leader(l), LeaderState::Tanks { .. }) {
            self.v_full(rule!("2.12.18.02"), format!("{l} is not in the tanks"));
            return;
        }
        if !self.reveal_traitor(l, rule!("2.12.18.02")) {
            return;
        }
        self.bank_pays(MO, Spice::new(u32::from(l.strength())));
        self.face_down_in_tanks(l);
    }

    fn face_down_in_tanks(&mut self, l: Leader) {
        self.st.died_once[l.index()] = true;
        self.st.leaders[l.index()] = LeaderState::Tanks { face_up: false };
    }

    /// `BOUNTY MO assassinate leader` (2.12.19 original).
    fn assassinate(&mut self, l: Leader) {
        if self.moritani.assassinate_lost {
            self.v_full(
                rule!("2.12.20"),
                "Moritani revealed a traitor the normal way and lost Assassinate Leaders",
            );
            return;
        }
        let Some((opp, opposed)) = self.t.moritani.lost_battle.take() else {
            self.v_full(
                rule!("2.12.19"),
                "Assassinate Leaders follows a battle Moritani lost in which the opposing leader survived and no traitor was called",
            );
            return;
        };
        if l.faction() != opp || l == opposed {
            self.v_full(
                rule!("2.12.19"),
                format!("Moritani assassinates another {opp} leader than the one it opposed ({opposed}), not {l}"),
            );
            return;
        }
        if self.moritani.assassinated.contains(opp) {
            self.v_full(
                rule!("2.12.19"),
                format!(
                    "Moritani has already assassinated one of {opp}'s leaders (once per faction)"
                ),
            );
            return;
        }
        if !self.reveal_traitor(l, rule!("2.12.19")) {
            return;
        }
        self.moritani.assassinated.insert(opp);
        self.moritani.redraw = true;
        if !matches!(self.st.leader(l), LeaderState::Tanks { .. }) {
            self.kill_leader(l);
            self.bank_pays(MO, Spice::new(u32::from(l.strength())));
        }
    }

    /// `BOUNTY MO keep F card` (2.12.18, alliance): Moritani's ally lost a battle that had a
    /// winner and keeps one card it played that a winner could keep.
    fn ally_keeps(&mut self, ally: Faction, card: Card) {
        if self.st.ally(MO) != Some(ally) {
            self.v_full(rule!("2.12.18"), format!("{ally} is not Moritani's ally"));
            return;
        }
        let lost = self
            .t
            .battle
            .last
            .as_ref()
            .is_some_and(|r| r.loser == Some(ally) && r.winner.is_some());
        let keepable = !matches!(
            card.kind(),
            crate::board::CardKind::Leader | crate::board::CardKind::SpecialBattle
        );
        let Some(k) = self.st.treachery_discard.iter().rposition(|c| *c == card) else {
            self.v_full(
                rule!("2.12.18"),
                format!("{card} was not discarded in the last battle"),
            );
            return;
        };
        if !lost || !keepable {
            self.v_full(
                rule!("2.12.18"),
                format!("{ally} keeps a card it played in a battle it lost that had a winner, one a winner could keep; not {card} here"),
            );
            return;
        }
        self.st.treachery_discard.remove(k);
        self.st.faction_mut(ally).hand.push(Some(card));
    }
}

/// What a terror token's effect needs in DGN.
fn terror_words(x: Terror, original: bool) -> &'static str {
    match (x, original) {
        (Terror::Assassination, _) => "an active leader of the opponent (name it)",
        (Terror::Atomics, _) => {
            "everything in the territory to the tanks (nothing to write, or `discard F:card` for a hand over its limit)"
        }
        (Terror::Extortion, _) => "spice for Moritani (nothing to write)",
        (Terror::Robbery, true) => "half the opponent's spice (`spice`) or the top card (`card`)",
        (Terror::Robbery, false) => "half the opponent's spice set aside (nothing to write)",
        (Terror::Sabotage, _) => "a card taken from the opponent (`take card [give card]`)",
        (Terror::SneakAttack, _) => "up to 5 forces sent from reserves (a number)",
        (Terror::DukeVidal, _) => "Duke Vidal for Moritani (nothing to write)",
    }
}

impl FactionRules for Moritani {
    fn faction(&self) -> Faction {
        MO
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

    /// 2.12.05: the terror tokens behind the shield (six in the original text, seven revised).
    fn begin_setup(&self, r: &mut Replay) {
        let n = if r.moritani_original() { 6 } else { 7 };
        for &x in &Terror::ALL[..n] {
            r.st.tokens.push(Token {
                kind: TokenKind::Terror(Some(x)),
                owner: MO,
                place: TokenPlace::Supply,
                face_up: false,
            });
        }
    }

    /// 2.12.02: six forces in any unoccupied territory, after every other faction has placed.
    fn place(
        &self,
        r: &mut Replay,
        t: Territory,
        piece: Piece,
        forces: crate::dgn::ForceCount,
    ) -> bool {
        if r.moritani.placed {
            r.v_full(rule!("2.12.02"), "Moritani places its starting forces once");
            return true;
        }
        r.moritani.placed = true;
        if forces.total != START_FORCES || forces.starred > 0 {
            r.v_full(
                rule!("2.12.02"),
                format!("Moritani places 6 starting forces, not {}", forces.total),
            );
        }
        let others = r.st.present(t);
        if !others.is_empty() {
            r.v_full(
                rule!("2.12.02"),
                format!(
                    "Moritani places its forces in an unoccupied territory; {} holds {}",
                    t.name(),
                    Replay::list(&others)
                ),
            );
        }
        let fremen_pending = r.st.plays(Faction::Fremen) && !r.setup.fremen_place_seen;
        let bg_pending =
            r.st.plays(Faction::BeneGesserit) && r.st.options.advanced && !r.setup.bg_placed;
        if fremen_pending || bg_pending {
            r.v_full(
                rule!("2.12.02"),
                "Moritani places its forces after every other faction has placed its own",
            );
        }
        r.st.place_from_reserves(MO, piece, forces, false);
        true
    }

    fn finish_setup(&self, r: &mut Replay) {
        if !r.moritani.placed {
            r.v_full(
                rule!("2.12.02"),
                "Moritani's six starting forces are not placed (`PLACE MO territory 6`)",
            );
        }
    }

    /// The Atomics Aftermath: no forces ever ship into its territory, the Fremen's send
    /// included (2.12.13.02).
    fn entry_forbidden(
        &self,
        r: &Replay,
        f: Faction,
        t: Territory,
        how: Entry,
    ) -> Option<(Rule, String)> {
        (r.moritani.aftermath == Some(t) && how != Entry::CarthagCard).then(|| {
            (
                rule!("2.12.13.02"),
                format!(
                    "{f} cannot ship or send forces into {}: the Atomics Aftermath token lies there",
                    t.name()
                ),
            )
        })
    }

    /// Atomics lowers Moritani's and its ally's hand limits by one from then on (2.12.13.02).
    fn hand_limit(&self, r: &Replay, f: Faction, limit: u8) -> Option<(u8, Rule)> {
        (r.moritani.aftermath.is_some() && (f == MO || r.st.ally(MO) == Some(f)))
            .then(|| (limit.saturating_sub(1), rule!("2.12.13.02")))
    }

    /// Duke Vidal revived as Moritani's leader revival whatever the tanks hold, and set aside
    /// (2.12.15 original).
    fn leader_revival(&self, r: &mut Replay, f: Faction, l: Leader) -> Option<LeaderRevival> {
        (f == MO && l == Leader::Vidal && r.moritani_original()).then_some(LeaderRevival {
            prices: vec![Spice::new(u32::from(l.strength()))],
            rule: rule!("2.12.15"),
            unlimited: None,
            ghola: false,
            any_time: true,
            set_aside: true,
        })
    }

    fn traitor_forbidden(&self, r: &mut Replay, holder: Faction, l: Leader) {
        r.bounty_traitor_check(holder, l);
    }

    /// Duke Vidal joins Moritani when it faces two stronghold battles, none with Ecaz, at the end
    /// of Shipment and Movement (2.12.16 revised).
    fn begin_battle_phase(&self, r: &mut Replay) {
        if r.moritani_original() {
            return;
        }
        let due = r.battles_due();
        let n = due
            .iter()
            .filter(|(t, a, b)| {
                t.is_stronghold()
                    && (*a == MO || *b == MO)
                    && *a != Faction::Ecaz
                    && *b != Faction::Ecaz
            })
            .count();
        let l = Leader::Vidal;
        if n >= 2 && !matches!(r.st.leader(l), LeaderState::Tanks { .. }) {
            r.st.leaders[l.index()] = LeaderState::Pool(MO);
        }
    }

    /// After a battle: the revised Hostage and Robbery settle (2.12.13.01, 2.12.13.04); what
    /// Alive and Assassinate Leaders may answer is noted (2.12.18.01, 2.12.19).
    fn after_battle_result(
        &self,
        r: &mut Replay,
        b: &crate::replay::battle::Battle,
        o: &crate::battle::Outcome,
    ) {
        r.t.moritani.struck = false;
        let winner = o.winner.map(|i| b.sides[i.min(1)]);
        if let Some((l, owner, profits)) = r.t.moritani.hostage.take() {
            if winner == Some(profits) {
                r.kill_leader(l);
                r.bank_pays(profits, Spice::new(u32::from(l.strength())));
            } else {
                r.st.leaders[l.index()] = LeaderState::Pool(owner);
            }
        }
        if let Some((owner, half, profits)) = r.t.moritani.robbery.take() {
            let to = if winner == Some(profits) {
                profits
            } else {
                owner
            };
            // Back out of the bank, where it waited set aside.
            r.bank_pays(to, half);
        }
        r.t.moritani.extortion = None;
        // Who was paid for which leader (Alive).
        r.t.moritani.killed = o
            .killed
            .iter()
            .map(|&l| {
                let paid = if o.leader_spice.is_zero() {
                    None
                } else {
                    winner
                };
                (l, paid, Spice::new(u32::from(l.strength())))
            })
            .collect();
        // Assassinate Leaders: Moritani lost, the opposing leader survived, no traitor.
        r.t.moritani.lost_battle = None;
        if let Some(i) = b.side_of(MO)
            && o.winner == Some(1 - i)
            && o.decision != crate::battle::Decision::Traitor
        {
            let opp = b.sides[1 - i];
            if let Some(p) = b.plans[1 - i]
                && let crate::dgn::PlanLeader::Leader(l) = p.leader
                && !o.killed.contains(&l)
            {
                r.t.moritani.lost_battle = Some((opp, l));
            }
        }
        // 2.12.20: a traitor revealed the normal way costs Assassinate Leaders.
        if let Some(i) = b.side_of(MO)
            && b.betrayed[1 - i].is_some()
            && r.moritani_original()
        {
            r.moritani.assassinate_lost = true;
        }
    }

    /// The Mentat Pause: Duke Vidal set aside (2.12.17); the Extortion token comes home unless a
    /// player paid (2.12.13.03 original); a card revealed by Assassinate Leaders is replaced
    /// (2.12.19 original).
    fn end_of_turn(&self, r: &mut Replay) {
        let won = r.t.mentat.as_ref().is_some_and(|m| m.winner.is_some());
        let l = Leader::Vidal;
        if r.st.leader(l) == LeaderState::Pool(MO) {
            r.st.leaders[l.index()] = LeaderState::SetAside;
        }
        if won {
            return;
        }
        if let Some(paid) = r.moritani.extortion.take()
            && let Some(i) = r.terror_token(Terror::Extortion)
        {
            if paid {
                r.st.tokens[i].place = TokenPlace::Removed;
            } else {
                r.st.tokens[i].place = TokenPlace::Supply;
                r.st.tokens[i].face_up = false;
            }
        }
        if r.moritani.redraw {
            r.v_full(
                rule!("2.12.19"),
                "after an assassination Moritani sets the revealed card aside and draws a new traitor in War Continues (`BOUNTY MO draw{…}`)",
            );
            r.moritani.redraw = false;
        }
    }
}
