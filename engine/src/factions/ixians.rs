//! The Ixians (000 2.07): Cyborgs and Suboids, the pocket cards, the Hidden Mobile Stronghold
//! (placed after the first storm, moved, harvesting, closed to others' shipments), the supply
//! chain and technology in bidding, and their alliance ability.
//!
//! Read against 000 chapter 2 section 7, item by item (2.07.00: Basic games use 2.07.01-2.07.21,
//! Advanced ones add 2.07.22 and 2.07.23). The Cyborgs and the Suboids are the faction's two kinds
//! of force ([`CYBORG`], [`SUBOID`]: starred and plain); the Hidden Mobile Stronghold is a
//! territory of the board whose place is the game's state (`GameState::hms`), so shipping,
//! movement, battles, control and victory treat it as any stronghold, and this module only
//! places and moves it.

use dune::{Faction, Rule, Spice, rule};

use super::{
    Aspect, FactionRules, ForceKind, ForceKinds, KindRules, MoveRange, Sheet, SheetItem, SheetRules,
};
use crate::battle::Plan;
use crate::board::{Card, Piece, Territory, board};
use crate::dgn::{Event, ForceCount, KaramaUse, Place, Sealed, Side};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::replay::movement::Entry;
use crate::state::{Edition, Phase};

pub(crate) struct Ixians;

const IX: Faction = Faction::Ixians;

/// 2.07.14 Suboids: half a force in battle, whatever spice supports them (2.07.23).
pub(crate) const SUBOID: KindRules = KindRules {
    name: "Suboid",
    worth: 1,
    spiced: false,
    rule: rule!("2.07.14"),
    ..KindRules::FORCE
};

/// 2.07.09 Cyborgs: two forces in battle, 3 spice to revive (2.07.10) and one force towards the
/// limit (2.07.11), two territories' move (2.07.12), 3 spice collected (2.07.13).
pub(crate) const CYBORG: KindRules = KindRules {
    name: "Cyborg",
    worth: 4,
    revival: 3,
    moves: 2,
    collects: 3,
    rule: rule!("2.07.09"),
    ..KindRules::FORCE
};

/// 2.07.01 10 spice, 2.07.02 six forces on the Hidden Mobile Stronghold and 14 in reserve,
/// 2.07.05 free revival 1, 2.07.09 and 2.07.14 seven Cyborgs and thirteen Suboids (in the Basic
/// game too).
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(10),
    free_revival: 1,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: ForceKinds {
        plain: SUBOID,
        starred: Some((7, CYBORG)),
        flipped: None,
    },
    start: None,
    rules: SheetRules::GENERAL,
};

/// 2.07.02: on the Hidden Mobile Stronghold, 3 Cyborgs and 3 Suboids.
const START: ForceCount = ForceCount {
    total: 6,
    starred: 3,
    side: Side::Unspecified,
};

/// How far the Hidden Mobile Stronghold moves (2.07.18) and with the Karama power (1.14.07).
const HMS_RANGE: u8 = 3;
const KARAMA_RANGE: u8 = 2;

pub(crate) const SUPPLY_CHAIN: Ability = Ability(rule!("2.07.07"));
pub(crate) const HMS_MOVE: Ability = Ability(rule!("2.07.18"));
pub(crate) const HARVESTER: Ability = Ability(rule!("2.07.19"));
pub(crate) const ALLY_TECHNOLOGY: Ability = Ability(rule!("2.07.21"));
pub(crate) const TECHNOLOGY: Ability = Ability(rule!("2.07.22"));

/// The Ixians' abilities a Karama stops (000 prints no marks: docs/notation.md, Decisions).
static KARAMA: [AbilityInfo; 5] = [
    AbilityInfo::new(
        SUPPLY_CHAIN,
        IX,
        PREVENT,
        Some(Phase::Bidding),
        false,
        true,
        "supply chain",
    ),
    AbilityInfo::new(
        HMS_MOVE,
        IX,
        PREVENT,
        None,
        false,
        true,
        "moving the Hidden Mobile Stronghold",
    ),
    AbilityInfo::new(
        HARVESTER,
        IX,
        CANCEL,
        None,
        false,
        true,
        "the Hidden Mobile Stronghold's harvester",
    ),
    AbilityInfo::new(
        ALLY_TECHNOLOGY,
        IX,
        CANCEL,
        Some(Phase::Bidding),
        true,
        true,
        "the ally's card exchange",
    ),
    AbilityInfo::new(
        TECHNOLOGY,
        IX,
        CANCEL,
        Some(Phase::Bidding),
        false,
        true,
        "technology",
    ),
];

/// What the Ixians did this turn.
#[derive(Default)]
pub(crate) struct Turn {
    /// The Hidden Mobile Stronghold moved by 2.07.18 this turn.
    moved: bool,
    /// The phase whose Harvester was used (once per phase, 2.07.19).
    harvested: Option<Phase>,
    supply: bool,
    /// Technology's exchange of the card up for bid (2.07.22, the original text).
    tech: bool,
    /// The ally's redraw this turn (2.07.21, the revised text's once per turn).
    ally_tech: bool,
    /// The Ixians' own redraw (2.07.22, the revised text's once per turn).
    redraw: bool,
    /// Suboids already exchanged after the last battle (2.07.15).
    swapped: bool,
}

/// What the Ixians did in setup.
#[derive(Default)]
pub(crate) struct Setup {
    /// `POCKET` was written (2.07.03).
    pocket: bool,
    /// The pocket cards no starting hand has taken yet (audit mode).
    left: Option<Vec<Option<Card>>>,
    deployed: bool,
}

impl FactionRules for Ixians {
    fn faction(&self) -> Faction {
        IX
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    fn sheet_rule(&self, item: SheetItem) -> Option<Rule> {
        Some(match item {
            SheetItem::Spice => rule!("2.07.01"),
            SheetItem::Forces => rule!("2.07.02"),
            SheetItem::FreeRevival => rule!("2.07.05"),
        })
    }

    fn cite(&self, kind: ForceKind, aspect: Aspect) -> Option<Rule> {
        match (kind, aspect) {
            (ForceKind::Starred, Aspect::Revival) => Some(rule!("2.07.10")),
            (ForceKind::Starred, Aspect::Moves) => Some(rule!("2.07.12")),
            (ForceKind::Starred, Aspect::Collects) => Some(rule!("2.07.13")),
            (ForceKind::Starred, Aspect::Worth) => Some(rule!("2.07.09")),
            (_, Aspect::Worth) => Some(rule!("2.07.14")),
            _ => None,
        }
    }

    /// 2.07.02: the six starting forces are on the Hidden Mobile Stronghold, off the map until
    /// it is placed after the first storm (2.07.04).
    fn begin_setup(&self, r: &mut Replay) {
        if let Some(p) = Territory::HiddenMobileStronghold.piece(None) {
            r.st.place_from_reserves(IX, p, START, false);
        }
    }

    fn place(&self, r: &mut Replay, _t: Territory, _piece: Piece, _forces: ForceCount) -> bool {
        r.v_full(
            rule!("2.07.02"),
            "the Ixians' starting forces are on the Hidden Mobile Stronghold (3 Cyborgs and 3 Suboids), placed automatically; HMS IX places the stronghold after the first storm",
        );
        true
    }

    fn finish_setup(&self, r: &mut Replay) {
        if !r.setup.ixians.deployed {
            r.v_full(
                rule!("2.07.04"),
                "the Ixians place their Hidden Mobile Stronghold after the first storm (HMS IX territory/sector), which the log does not show",
            );
        }
    }

    /// Starting cards (0.14) come from the pocket cards the Ixians did not keep (2.07.03): each
    /// player's first card is one of them (the Harkonnen's second comes from the deck).
    fn starting_cards(&self, r: &mut Replay, f: Faction, ids: &[Option<Card>]) {
        if !r.setup.ixians.pocket {
            return;
        }
        let Some(Some(first)) = ids.first() else {
            return;
        };
        let Some(left) = r.setup.ixians.left.as_mut() else {
            return;
        };
        match left
            .iter()
            .position(|c| *c == Some(*first))
            .or_else(|| left.iter().position(Option::is_none))
        {
            Some(i) => {
                left.remove(i);
            }
            None => {
                let whose = if f == IX {
                    "the Ixians keep one of the cards they drew"
                } else {
                    "the other players draw their starting card from the pocket cards the Ixians did not keep"
                };
                r.v_full(
                    rule!("2.07.03"),
                    format!(
                        "{f}'s starting card {first} is not among the pocket cards left: {whose}"
                    ),
                );
            }
        }
    }

    /// 2.07.20: nobody but the Ixians ships into the Hidden Mobile Stronghold.
    fn entry_check(&self, r: &mut Replay, f: Faction, t: Territory, how: Entry) {
        if t == Territory::HiddenMobileStronghold && f != IX && how != Entry::CarthagCard {
            r.v_full(
                rule!("2.07.20"),
                format!("{f} cannot ship or send forces into the Ixians' Hidden Mobile Stronghold: no other faction may (it may move in)"),
            );
        }
    }

    /// 2.07.16: Suboids move two territories only with a Cyborg (the Cyborgs' own two
    /// territories, 2.07.12, are their kind's).
    fn move_range(&self, _r: &mut Replay, moved: ForceCount) -> Option<MoveRange> {
        let suboids = moved.normal() > 0;
        match (suboids, moved.starred > 0) {
            (true, true) => Some(MoveRange {
                range: 2,
                rule: rule!("2.07.16"),
                why: "as Suboids with a Cyborg",
                prevented: None,
            }),
            (true, false) => Some(MoveRange {
                range: 1,
                rule: rule!("2.07.16"),
                why: "as Suboids without a Cyborg",
                prevented: None,
            }),
            _ => None,
        }
    }

    /// What the Ixians' forces are worth: Suboids always half (2.07.23 in the Advanced game, where
    /// spice is at stake; 2.07.14), Cyborgs two forces (2.07.09).
    fn wheel_rule(&self, plan: &Plan, _opponent: Faction) -> Option<Rule> {
        Some(if plan.dial.normal() > 0 && !plan.spice.is_zero() {
            rule!("2.07.23")
        } else if plan.dial.normal() > 0 {
            rule!("2.07.14")
        } else {
            rule!("2.07.09")
        })
    }

    /// Their rules are numbered in the full rulebook (000).
    fn book(&self) -> dune::Book {
        dune::Book::Full
    }

    /// 1.14.07: move the Hidden Mobile Stronghold two territories during their own shipment and
    /// movement action.
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::MoveHms { .. }).then_some((Phase::Movement, rule!("1.14.07")))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::MoveHms { path, harvest } = usage {
            r.hms_karama(path, *harvest);
        }
    }
}

impl Replay {
    /// `POCKET IX{…}` (2.07.03): before the starting cards are drawn, the Ixians draw one card
    /// per faction in the game and keep one; the others draw theirs from the rest.
    pub(crate) fn pocket(&mut self, f: Faction, cards: &Sealed<Vec<Option<Card>>>) {
        if f != IX {
            self.v_full(
                rule!("2.07.03"),
                format!("only the Ixians draw pocket cards, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        if self.setup.ixians.pocket {
            self.v_full(rule!("2.07.03"), "the pocket cards are drawn once");
            return;
        }
        self.setup.ixians.pocket = true;
        if !self.setup.cards.is_empty() {
            self.v_full(
                rule!("2.07.03"),
                "the Ixians draw their pocket cards before the starting cards are drawn (POCKET before TC)",
            );
        }
        let Some(list) = self.sealed(cards).cloned() else {
            return;
        };
        let n = self.st.in_play.len();
        if list.len() != n {
            self.v_full(
                rule!("2.07.03"),
                format!(
                    "the Ixians draw one pocket card for each of the {n} factions in the game, not {}",
                    list.len()
                ),
            );
        }
        self.setup.ixians.left = Some(list);
    }

    /// `IX supply top|bottom{card}` (2.07.07): before the cards are dealt, the Ixians see one
    /// card more than are dealt and put one back on the deck; the dealer deals the rest (2.07.08).
    pub(crate) fn supply_chain(&mut self, f: Faction, card: &Sealed<Option<Card>>) {
        if f != IX {
            self.v_full(
                rule!("2.07.07"),
                format!("only the Ixians look at the cards before they are dealt, not {f}"),
            );
            return;
        }
        if self.t.bid.auctions > 0 || self.t.bid.peeked.is_some() {
            self.v_full(
                rule!("2.07.07"),
                "the supply chain comes before the cards are dealt for auction, before any auction or look at a card",
            );
        }
        if self.t.ixians.supply {
            self.v_full(
                rule!("2.07.07"),
                "the supply chain is used once per Bidding phase",
            );
            return;
        }
        self.t.ixians.supply = true;
        if self.karama_forbids(SUPPLY_CHAIN, "the Ixians' supply chain") {
            return;
        }
        if let Some(Some(c)) = self.sealed(card).copied() {
            self.check_copies(c);
            // 2.07.08: the dealer deals the cards the Ixians saw, less the one put back.
            self.t.bid.put_back = Some((c, rule!("2.07.08")));
        }
    }

    /// `IX tech{card}` (2.07.22 original, Advanced): once per Bidding phase, before the bidding
    /// on a card begins and before the Atreides see it, a card from the hand takes its place, and
    /// the card up for bid goes to the hand. The revised text's Technology is the redraw.
    pub(crate) fn technology(&mut self, f: Faction, card: &Sealed<Option<Card>>) {
        let (rule, ability) = (rule!("2.07.22"), TECHNOLOGY);
        if f != IX {
            self.v_full(
                rule,
                format!("only the Ixians exchange a card up for bid, not {f}"),
            );
            return;
        }
        if self.st.options.edition == Edition::Revised {
            self.v_full(
                rule,
                "in the revised text (this game's) Technology discards a card just bought to draw another (A IX redraw); the exchange of the card up for bid is the original text's ([Edition \"original\"])",
            );
            return;
        }
        if !self.st.options.advanced {
            self.v_full(
                rule!("2.07.00"),
                "Technology (2.07.22) is an Advanced ability: the Basic game uses 2.07.01-2.07.21",
            );
            return;
        }
        if self.t.ixians.tech {
            self.v_full(rule, "Technology's exchange is used once per Bidding phase");
            return;
        }
        self.t.ixians.tech = true;
        if self.t.bid.over {
            self.v_full(rule, "there is no card left up for bid this turn");
            return;
        }
        if self.t.bid.peeked == Some(self.t.bid.auctions + 1) {
            self.v_full(
                rule!("2.07.22"),
                "the card up for bid is exchanged before the Atreides look at it",
            );
        }
        if self.karama_forbids(ability, &format!("{f} exchange the card up for bid")) {
            return;
        }
        let given = self.sealed(card).copied().flatten();
        match given {
            Some(c) => {
                self.take_card(f, c, rule);
            }
            None => {
                let hand = &mut self.st.faction_mut(f).hand;
                match hand.iter().position(Option::is_none) {
                    Some(i) => {
                        hand.remove(i);
                    }
                    None if hand.is_empty() => {
                        self.v_full(rule, format!("{f} holds no card to exchange"));
                        return;
                    }
                    None => {
                        hand.pop();
                    }
                }
            }
        }
        // The card that was up for bid goes to the hand, face down.
        self.st.faction_mut(f).hand.push(None);
    }

    /// `F redraw{card}`: the card just bought face down is discarded and the top card of the
    /// deck drawn. The revised text: the Ixians' Technology, once per turn (2.07.22, Advanced),
    /// and their ally's, once per turn (2.07.21). The original text: the ally's alone, after any
    /// purchase (2.07.21).
    pub(crate) fn redraw(&mut self, f: Faction, card: &Sealed<Option<Card>>) {
        let ally = self.st.ally(IX) == Some(f) && f != IX;
        let revised = self.st.options.edition == Edition::Revised;
        let (rule, ability) = if ally {
            (rule!("2.07.21"), ALLY_TECHNOLOGY)
        } else {
            (rule!("2.07.22"), TECHNOLOGY)
        };
        if f != IX && !ally {
            self.v_full(
                rule!("2.07.21"),
                format!("only the Ixians' ally (and, in the revised text, the Ixians) discard a card just bought to draw another, not {f}"),
            );
            return;
        }
        if !ally && !revised {
            self.v_full(
                rule,
                "in the original text (this game's [Edition \"original\"]) Technology exchanges the card up for bid (A IX tech); only the Ixians' ally discards a card just bought to draw another",
            );
            return;
        }
        if !ally && !self.st.options.advanced {
            self.v_full(
                rule!("2.07.00"),
                "Technology (2.07.22) is an Advanced ability: the Basic game uses 2.07.01-2.07.21",
            );
            return;
        }
        if self.t.bid.last_bought != Some(f) {
            self.v_full(
                rule,
                format!("{f} discards the card it has just bought, right after buying it"),
            );
            return;
        }
        self.t.bid.last_bought = None;
        if revised {
            let used = if ally {
                &mut self.t.ixians.ally_tech
            } else {
                &mut self.t.ixians.redraw
            };
            if *used {
                let who = if ally {
                    "the Ixians' ally"
                } else {
                    "the Ixians"
                };
                self.v_full(
                    rule,
                    format!("{who} discard a card just bought to draw another once per turn"),
                );
                return;
            }
            *used = true;
        }
        if self.karama_forbids(ability, &format!("{f} discards the card just bought")) {
            return;
        }
        if let Some(bought) = self.st.faction_mut(f).hand.pop()
            && let Some(c) = bought
        {
            self.place_card(f, c, false);
        }
        let ids: Vec<Option<Card>> = vec![self.sealed(card).copied().flatten()];
        self.deal_cards(f, 1, &ids);
    }

    /// `IX swap n` (2.07.15): after the battle's losses, surviving Suboids in the territory are
    /// exchanged for Cyborgs lost in that battle.
    pub(crate) fn shenanigans(&mut self, f: Faction, n: u8) {
        if f != IX {
            self.v_full(
                rule!("2.07.15"),
                format!("only the Ixians exchange Suboids for Cyborgs, not {f}"),
            );
            return;
        }
        let Some(last) = self.t.battle.last.clone() else {
            self.v_full(
                rule!("2.07.15"),
                "Suboids are exchanged for Cyborgs right after a battle of the Ixians",
            );
            return;
        };
        let Some(&(_, lost)) = last.lost.iter().find(|(g, _)| *g == IX) else {
            self.v_full(rule!("2.07.15"), "the Ixians did not fight this battle");
            return;
        };
        if self.t.ixians.swapped {
            self.v_full(
                rule!("2.07.15"),
                "the Ixians' exchange after this battle is already made",
            );
            return;
        }
        self.t.ixians.swapped = true;
        let t = last.territory;
        let suboids = self.st.in_territory(IX, t).normal;
        let cyborgs = lost.starred.min(self.st.faction(IX).tanks.starred);
        if n > cyborgs {
            self.v_full(
                rule!("2.07.15"),
                format!("the Ixians lost {cyborgs} Cyborgs in this battle and can take back no more, not {n}"),
            );
        }
        if n > suboids {
            self.v_full(
                rule!("2.07.15"),
                format!(
                    "the Ixians have {suboids} surviving Suboids in {} to exchange, not {n}",
                    t.name()
                ),
            );
        }
        let k = n.min(cyborgs).min(suboids);
        let mut left = k;
        let mut landing = None;
        for &p in t.pieces() {
            let s = self.st.stack_mut(IX, p);
            let take = s.normal.min(left);
            s.normal -= take;
            left -= take;
            if take > 0 {
                landing = Some(p);
            }
        }
        let Some(p) = landing else { return };
        let st = self.st.faction_mut(IX);
        st.tanks.normal = st.tanks.normal.saturating_add(k);
        st.tanks.starred -= k;
        self.st.stack_mut(IX, p).starred += k;
    }

    /// The Hidden Mobile Stronghold placed or moved (`HMS IX place` in setup, `S IX hms …`,
    /// `P IX hms …`).
    pub(crate) fn hms_statement(
        &mut self,
        ev: &Event,
        f: Faction,
        path: &[Place],
        harvest: Option<Option<Spice>>,
    ) {
        if f != IX {
            self.v_full(
                rule!("2.07.20"),
                format!("only the Ixians place and move their Hidden Mobile Stronghold, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        match self.st.phase {
            Phase::Setup => self.deploy_hms(path),
            // 2.07.18 is printed twice: before the storm moves (original) or in War Continues
            // at the Mentat Pause (revised, the default; rulings.md 28).
            Phase::Storm if self.st.options.edition == Edition::Original => {
                self.move_hms(path, harvest)
            }
            Phase::Mentat if self.st.options.edition == Edition::Revised => {
                self.move_hms(path, harvest)
            }
            _ => {
                let when = match self.st.options.edition {
                    Edition::Revised => {
                        "at the Mentat Pause, when the war continues (the revised text, this game's; [Edition \"original\"] moves it before the storm)"
                    }
                    Edition::Original => {
                        "in the Storm phase, before the storm moves (the original text, as this game's [Edition \"original\"] says)"
                    }
                };
                self.v_full(
                    rule!("2.07.18"),
                    format!("the Ixians move the Hidden Mobile Stronghold {when}"),
                );
            }
        }
        let _ = ev;
    }

    /// 2.07.04: after the first storm, pointing at a sector of a non-stronghold territory.
    fn deploy_hms(&mut self, path: &[Place]) {
        if self.setup.ixians.deployed {
            self.v_full(
                rule!("2.07.04"),
                "the Hidden Mobile Stronghold is placed once",
            );
            return;
        }
        self.setup.ixians.deployed = true;
        if !self.setup.storm_done {
            self.v_full(
                rule!("2.07.04"),
                "the Hidden Mobile Stronghold is placed after the first storm (after STORM0)",
            );
        }
        if path.len() > 1 {
            self.v_full(
                rule!("2.07.04"),
                "the Hidden Mobile Stronghold is placed, not moved, in setup: name one place",
            );
        }
        let Some(&place) = path.last() else { return };
        if let Some(p) = self.hms_target(place, rule!("2.07.04")) {
            self.st.hms = Some(p);
        }
    }

    /// 2.07.18: up to three territories, never into, out of or through the storm, pointing at a
    /// sector of a non-stronghold territory, while the Ixians occupy it; once per turn.
    fn move_hms(&mut self, path: &[Place], harvest: Option<Option<Spice>>) {
        let rule = rule!("2.07.18");
        if self.st.phase == Phase::Storm {
            if self.st.turn <= 1 {
                self.v_full(rule, "the Hidden Mobile Stronghold is placed after the first storm; it moves from turn 2 on");
                return;
            }
            if self.t.storm.moved || self.t.storm.pending.is_some() {
                self.v_full(
                    rule,
                    "the Hidden Mobile Stronghold moves before the storm moves (write it before the storm's line)",
                );
            }
        } else if self.t.mentat.as_ref().is_some_and(|m| m.winner.is_some()) {
            self.v_full(
                rule,
                "the Hidden Mobile Stronghold moves when the war continues; this turn has a winner",
            );
            return;
        }
        if self.t.ixians.moved {
            self.v_full(rule, "the Hidden Mobile Stronghold moves once per turn");
            return;
        }
        self.t.ixians.moved = true;
        if !self.hms_occupied(rule) {
            return;
        }
        if self.karama_forbids(HMS_MOVE, "the Ixians move the Hidden Mobile Stronghold") {
            return;
        }
        self.travel_hms(path, HMS_RANGE, rule, harvest);
    }

    /// The Ixians' Karama power (1.14.07): during their own shipment and movement action, the
    /// Hidden Mobile Stronghold moves two territories, besides their shipment and move.
    pub(crate) fn hms_karama(&mut self, path: &[Place], harvest: Option<Option<Spice>>) {
        let rule = rule!("1.14.07");
        if self.t.mv.current != Some(IX) {
            self.v_full(
                rule,
                "the Ixians use this power during their own shipment and movement action (after their first M IX line)",
            );
            return;
        }
        if !self.hms_occupied(rule) {
            return;
        }
        self.travel_hms(path, KARAMA_RANGE, rule, harvest);
    }

    /// The Ixians have forces in their stronghold (they move it only then, 2.07.18, 1.14.07).
    fn hms_occupied(&mut self, rule: Rule) -> bool {
        if self.st.hms.is_none() {
            self.v_full(
                rule!("2.07.04"),
                "the Hidden Mobile Stronghold is not on the map",
            );
            return false;
        }
        if self
            .st
            .in_territory(IX, Territory::HiddenMobileStronghold)
            .fighting()
            == 0
        {
            self.v_full(
                rule,
                "the Ixians move the Hidden Mobile Stronghold only while their forces occupy it",
            );
            return false;
        }
        true
    }

    /// Where the stronghold may point (2.07.04, 2.07.18): a sector of a non-stronghold territory.
    fn hms_target(&mut self, place: Place, rule: Rule) -> Option<Piece> {
        let t = place.territory;
        if t.is_stronghold() || t.info().sectors.is_empty() {
            self.v_full(
                rule,
                format!(
                    "the Hidden Mobile Stronghold points at a sector of a non-stronghold territory, not {}",
                    t.name()
                ),
            );
            return None;
        }
        match place.sector {
            Some(s) => t.piece(Some(s)),
            None => match t.single_sector() {
                Some(s) => t.piece(Some(s)),
                None => {
                    let first = t.sectors().next().map_or(1, |s| s.notation());
                    self.v_full(
                        rule,
                        format!(
                            "{} lies in several sectors: say which one the Hidden Mobile Stronghold points at, e.g. {}/{first}",
                            t.name(),
                            t.code()
                        ),
                    );
                    t.pieces().first().copied()
                }
            },
        }
    }

    /// Moves the stronghold along `path` (territories passed, then where it points), at most
    /// `range` territories and never into, out of or through the storm; then the Harvester.
    fn travel_hms(
        &mut self,
        path: &[Place],
        range: u8,
        rule: Rule,
        harvest: Option<Option<Spice>>,
    ) {
        let Some(from) = self.st.hms else { return };
        let Some(&last) = path.last() else { return };
        let Some(dest) = self.hms_target(last, rule) else {
            return;
        };
        let storm = self.st.storm;
        let b = board();
        match b.path_cost(&[from], dest, storm, |_| false) {
            None => {
                self.v_full(
                    rule,
                    format!(
                        "the Hidden Mobile Stronghold cannot move from {} to {}: it moves not into, out of or through the storm",
                        from,
                        dest
                    ),
                );
                return;
            }
            Some(d) if d > range => {
                let clear = b.path_cost(&[from], dest, None, |_| false);
                let why = if clear.is_some_and(|c| c <= range) {
                    " (the short way crosses the storm)"
                } else {
                    ""
                };
                self.v_full(
                    rule,
                    format!(
                        "the Hidden Mobile Stronghold moves up to {range} territories; {from} to {dest} takes {d}{why}"
                    ),
                );
            }
            Some(_) => {}
        }
        // A path written out: each step crosses one border, none is wholly in the storm.
        let mut passed: Vec<Territory> = Vec::new();
        let mut prev = from.territory();
        for step in path.iter().map(|p| p.territory) {
            if step != prev && !prev.neighbours().contains(&step) {
                self.v_full(
                    rule,
                    format!("{} does not border {}", prev.name(), step.name()),
                );
                break;
            }
            if step != last.territory {
                if step.pieces().iter().all(|&p| p.in_storm(storm)) {
                    self.v_full(
                        rule,
                        format!(
                            "the Hidden Mobile Stronghold cannot pass through {}: it is in the storm",
                            step.name()
                        ),
                    );
                }
                passed.push(step);
            }
            prev = step;
        }
        if path.len() > usize::from(range) {
            self.v_full(
                rule,
                format!(
                    "the path written crosses {} territories; the Hidden Mobile Stronghold moves up to {range}",
                    path.len()
                ),
            );
        }
        self.st.hms = Some(dest);
        if let Some(logged) = harvest {
            self.hms_harvest(from, dest, &passed, logged);
        }
    }

    /// 2.07.19 Harvester: once per phase, when the stronghold moves into, from or through a
    /// territory with spice, 2 spice per Ixian force in it, taken from that spice: where it
    /// points now, where it pointed, then the territories it passed (docs/notation.md, Decisions).
    fn hms_harvest(&mut self, from: Piece, to: Piece, passed: &[Territory], logged: Option<Spice>) {
        let rule = rule!("2.07.19");
        let phase = self.st.phase;
        if self.t.ixians.harvested == Some(phase) {
            self.v_full(rule, "the Harvester collects once per phase");
            return;
        }
        self.t.ixians.harvested = Some(phase);
        if self.karama_forbids(HARVESTER, "the Ixians' Harvester") {
            return;
        }
        let forces = self
            .st
            .in_territory(IX, Territory::HiddenMobileStronghold)
            .fighting();
        let mut want = Spice::new(2 * u32::from(forces));
        let mut pieces = vec![to, from];
        for t in passed {
            pieces.extend(t.pieces().iter().copied());
        }
        let available: Spice = pieces.iter().map(|p| self.st.spice_at(*p)).sum();
        if available.is_zero() {
            self.v_full(
                rule,
                "the Harvester collects where the Hidden Mobile Stronghold moves into, from or through spice; there is none",
            );
            return;
        }
        let mut got = Spice::ZERO;
        for p in pieces {
            let taken = self.st.spice[p.index()].take(want);
            want = want.saturating_sub(taken);
            got += taken;
        }
        if let Some(n) = logged
            && n != got
        {
            self.v_full(
                rule,
                format!(
                    "the Harvester collects {got} spice (2 for each of the {forces} Ixian forces in the stronghold, up to the spice there), not {n}"
                ),
            );
        }
        self.st.faction_mut(IX).gain(got);
    }
}

/// The kinds' counts in reserve are a sheet's: 4 Cyborgs and 10 Suboids (2.07.02).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Forces;

    #[test]
    fn the_ixians_start_with_six_on_the_stronghold_and_fourteen_in_reserve() {
        assert_eq!(
            SHEET.kinds.starred_count(false),
            7,
            "Cyborgs in the Basic game too"
        );
        let reserve = Forces::new(20 - 7, 7);
        let after = Forces::new(
            reserve.normal - START.normal(),
            reserve.starred - START.starred,
        );
        assert_eq!((after.normal, after.starred), (10, 4));
    }
}
