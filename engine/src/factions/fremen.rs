//! The Fremen (001 2.04): natives without off-planet reserves, the send, two-territory moves,
//! worms (not devoured, Beast of Burden, placing further worms, protecting the ally), the storm
//! deck and half storm losses, Fedaykin, Battle Hardened, the ally's 3 free revivals and the
//! special victory.

use crate::battle::{Conditions, Plan};
use crate::dgn::KaramaUse;
use crate::replay::movement::Entry;
use dune::Stronghold;
use dune::{Faction, Rule, Spice, WinType, rule};

use super::{FactionRules, MoveRange, Sheet, SheetRules, WormShelter};
use crate::board::data::STORM_DECK;
use crate::board::{Piece, Territory};
use crate::dgn::{Assertion, Event, ForceCount, Place, Sealed, Side};
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::replay::storm::Pending;
use crate::replay::victory::{ClaimCheck, ClaimFailure};
use crate::replay::{Replay, WinResult};
use crate::state::{Forces, Phase, Stack};

pub(crate) struct Fremen;

const FR: Faction = Faction::Fremen;

/// 2.04.01 3 spice, 2.04.02 10 forces placed among [`START`] and 10 in reserve, 2.04.04 free
/// revival 3, 2.04.18 three Fedaykin.
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(3),
    free_revival: 3,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds {
        plain: FREMEN_FORCE,
        starred: Some((3, FEDAYKIN_KIND)),
        flipped: None,
    },
    start: None,
    rules: SheetRules::GENERAL,
};

/// 2.04.21 Battle Hardened (Advanced): the Fremen's forces count in full without spice.
const FREMEN_FORCE: super::KindRules = super::KindRules {
    spiced: false,
    rule: rule!("2.04.21"),
    ..super::KindRules::FORCE
};

/// 2.04.18 Fedaykin: worth two forces in battle (Advanced), Battle Hardened like the others.
const FEDAYKIN_KIND: super::KindRules = super::KindRules {
    name: "Fedaykin",
    worth: 4,
    advanced_only: true,
    rule: rule!("2.04.18"),
    ..FREMEN_FORCE
};

/// Where the Fremen place their 10 starting forces (2.04.02).
pub(crate) const START: [Territory; 3] = [
    Territory::SietchTabr,
    Territory::FalseWallSouth,
    Territory::FalseWallWest,
];

/// Forces the Fremen place at setup (2.04.02).
pub(crate) const START_FORCES: u8 = 10;

/// The Great Flat, centre of the Fremen send (2.04.05), and its reach in territories.
pub(crate) const SEND_CENTRE: Territory = Territory::TheGreatFlat;
pub(crate) const SEND_RANGE: u8 = 2;

pub(crate) const MOVE: Ability = Ability(rule!("2.04.06"));
pub(crate) const WORMPROOF: Ability = Ability(rule!("2.04.07"));
pub(crate) const PROTECT_ALLY: Ability = Ability(rule!("2.04.10"));
pub(crate) const ALLY_REVIVAL: Ability = Ability(rule!("2.04.11"));
pub(crate) const STORM_PEEK: Ability = Ability(rule!("2.04.14"));
pub(crate) const STORM_LOSSES: Ability = Ability(rule!("2.04.16"));
pub(crate) const MIGRATION: Ability = Ability(rule!("2.04.17"));
pub(crate) const FEDAYKIN: Ability = Ability(rule!("2.04.18"));
pub(crate) const BATTLE_HARDENED: Ability = Ability(rule!("2.04.21"));

static KARAMA: [AbilityInfo; 9] = [
    AbilityInfo::new(
        MOVE,
        FR,
        PREVENT,
        Some(Phase::Movement),
        false,
        true,
        "two-territory movement",
    ),
    AbilityInfo::new(
        WORMPROOF,
        FR,
        PREVENT,
        Some(Phase::SpiceBlow),
        false,
        true,
        "not being devoured by worms",
    ),
    AbilityInfo::new(
        PROTECT_ALLY,
        FR,
        CANCEL,
        Some(Phase::SpiceBlow),
        true,
        true,
        "protecting the ally from worms",
    ),
    AbilityInfo::new(
        ALLY_REVIVAL,
        FR,
        CANCEL,
        Some(Phase::Revival),
        true,
        true,
        "3 free revivals for the ally",
    ),
    AbilityInfo::new(
        STORM_PEEK,
        FR,
        CANCEL,
        Some(Phase::Storm),
        false,
        false,
        "looking at the storm card",
    ),
    AbilityInfo::new(
        STORM_LOSSES,
        FR,
        CANCEL,
        Some(Phase::Storm),
        false,
        true,
        "half storm losses",
    ),
    AbilityInfo::new(
        MIGRATION,
        FR,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "Storm Migration",
    ),
    AbilityInfo::new(
        FEDAYKIN,
        FR,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "Fedaykin",
    ),
    AbilityInfo::new(
        BATTLE_HARDENED,
        FR,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "Battle Hardened",
    ),
];

impl FactionRules for Fremen {
    fn faction(&self) -> Faction {
        FR
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.04.02: 10 forces as the Fremen like among Sietch Tabr, False Wall South and False Wall
    /// West.
    fn place(&self, r: &mut Replay, t: Territory, piece: Piece, forces: ForceCount) -> bool {
        let f = FR;
        if !START.contains(&t) {
            r.v(
                rule!("2.04.02"),
                format!(
                    "the Fremen start in Sietch Tabr, False Wall South and False Wall West, not {}",
                    t.name()
                ),
            );
        }
        if u32::from(r.setup.fremen_placed) + u32::from(forces.total) > u32::from(START_FORCES) {
            r.v(
                rule!("2.04.02"),
                format!(
                    "the Fremen place {START_FORCES} forces at setup; this placement makes {}",
                    u32::from(r.setup.fremen_placed) + u32::from(forces.total)
                ),
            );
        }
        if !r.st.faction(f).reserves.covers(Forces::from_count(forces)) {
            r.v(
                rule!("2.04.18"),
                format!(
                    "the Fremen have only {} Fedaykin",
                    r.st.faction(f).reserves.starred
                ),
            );
        }
        r.setup.fremen_place_seen = true;
        let got = r.st.place_from_reserves(f, piece, forces, false);
        r.setup.fremen_placed = r.setup.fremen_placed.saturating_add(got.total());
        true
    }

    fn finish_setup(&self, r: &mut Replay) {
        if r.setup.fremen_placed < START_FORCES {
            r.v(
                rule!("2.04.02"),
                format!(
                    "the Fremen placed {} of their 10 starting forces (PLACE FR …)",
                    r.setup.fremen_placed
                ),
            );
        }
    }

    /// 2.04.13 (Advanced): from turn 2 the storm moves by the Fremen's storm card.
    fn storm_deck(&self, r: &Replay) -> Option<Rule> {
        r.st.options.advanced.then_some(rule!("2.04.13"))
    }

    /// 2.04.16 (Advanced): half the Fremen's forces, rounded up, normal forces first; nothing in
    /// the sector the storm starts from. A Karama cancelling it makes the storm take them all.
    fn storm_losses(&self, r: &mut Replay, p: Piece, start: bool) -> Option<Stack> {
        if !r.st.options.advanced || r.karama_block(STORM_LOSSES).is_some() {
            return None;
        }
        if start {
            return Some(Stack::default());
        }
        let f = FR;
        let stack = r.st.stack(f, p);
        let lose = stack.total().div_ceil(2);
        let taken =
            r.st.take_from_piece(f, p, Forces::new(lose, 0), Side::Unspecified);
        let rest = lose - taken.total();
        let taken2 =
            r.st.take_from_piece(f, p, Forces::new(0, rest), Side::Unspecified);
        let mut all = taken;
        all.add(taken2);
        r.st.faction_mut(f).tanks.add(all.forces());
        Some(all)
    }

    fn storm_loss_rule(&self, r: &Replay) -> Option<Rule> {
        r.st.options.advanced.then(|| {
            r.karama_block(STORM_LOSSES)
                .map_or(rule!("2.04.16"), |b| b.rule())
        })
    }

    /// 2.04.07: worms do not devour the Fremen; 2.04.10: nor, unless the Fremen say otherwise,
    /// their ally.
    fn worm_shelter(&self, r: &mut Replay, t: Territory, shelter: &mut WormShelter) {
        if !r.t.blow.noprotect
            && let Some(a) = r.st.ally(FR)
        {
            shelter.spared.insert(a);
        }
        // A Karama preventing 2.04.07 lets this worm take the Fremen too.
        let block = if r.st.in_territory(FR, t).total() > 0 {
            r.karama_take(WORMPROOF)
        } else {
            None
        };
        if block.is_none() {
            shelter.spared.insert(FR);
        }
        shelter
            .rules
            .push((FR, block.map_or(rule!("2.04.07"), |b| b.rule())));
        if let Some(a) = r.st.ally(FR) {
            let rule = if r.t.blow.noprotect_karama {
                rule!("3.01.11.01")
            } else {
                rule!("2.04.10")
            };
            shelter.rules.push((a, rule));
        }
    }

    /// 2.04.15 (Advanced): the Fremen place the further worms of a blow.
    fn places_worms(&self, r: &Replay) -> Option<Rule> {
        r.st.options.advanced.then_some(rule!("2.04.15"))
    }

    /// 2.04.11: 3 free revivals for the ally, when the Fremen grant them this turn.
    fn free_revival(&self, r: &Replay, f: Faction, free: u8) -> u8 {
        if r.fremen_grant_applies(f) {
            free.max(3)
        } else {
            free
        }
    }

    /// The price the log shows would be right had the Fremen granted 3 free revivals (2.04.11).
    fn revival_price_rule(
        &self,
        r: &Replay,
        f: Faction,
        n: u8,
        free: u8,
        paid: Spice,
    ) -> Option<(Rule, String)> {
        let cost = Spice::new(2 * u32::from(n.saturating_sub(free)));
        let ungranted = f != FR
            && r.st.ally(f) == Some(FR)
            && !r.fremen_grant_applies(f)
            && free < 3
            && paid == 2 * u32::from(n.saturating_sub(3));
        ungranted.then(|| (rule!("2.04.11"), format!("{f} revives {n} forces paying {paid} as if the Fremen had granted it 3 free revivals, but no grant is logged this turn (`R FR grant`, before the revival): with {free} free it costs {cost}")))
    }

    fn starred_revival_rule(&self) -> Option<Rule> {
        Some(rule!("2.04.20"))
    }

    /// 2.04.03: no off-planet reserves.
    fn cannot_ship(&self) -> Option<(Rule, &'static str)> {
        Some((
            rule!("2.04.03"),
            "the Fremen have no off-planet reserves and cannot ship; they send (M FR send …)",
        ))
    }

    /// 2.04.06: two territories (unless a Karama prevents it).
    fn move_range(&self, r: &mut Replay, _moved: ForceCount) -> Option<MoveRange> {
        let prevented = r.karama_take(MOVE);
        Some(MoveRange {
            range: if prevented.is_none() { 2 } else { 1 },
            rule: rule!("2.04.06"),
            why: "as Fremen",
            prevented,
        })
    }

    /// A Karama cancelling the Fedaykin (2.04.18) or Battle Hardened (2.04.21) in this battle.
    fn battle_karama(
        &self,
        ability: Ability,
        _plan: &mut Plan,
        c: &mut Conditions,
        side: usize,
    ) -> bool {
        if ability == FEDAYKIN {
            c.plain_starred[side] = true;
        } else if ability == BATTLE_HARDENED {
            c.needs_spice[side] = true;
        } else {
            return false;
        }
        true
    }

    /// 2.04.09 with the Guild at the table: Sietch Tabr and Habbanya Sietch only theirs (or
    /// empty), no Harkonnen, Atreides or Emperor in Tuek's Sietch (their ally there does not
    /// count, 4.01.19); the allies share it (2.04.12). Without the Guild, the Fremen win when
    /// nobody has (1.09.05).
    fn has_special_victory(&self) -> bool {
        true
    }

    /// Richese (000 2.10.18) and any other faction whose chapter says so count in Tuek's Sietch
    /// too ([`super::FactionRules::bars_special_victory`]).
    fn special_victory(
        &self,
        r: &Replay,
        _check: &super::victory::VictoryCheck,
    ) -> Option<WinResult> {
        let turn = r.st.turn;
        if !r.st.plays(Faction::SpacingGuild) {
            return Some(r.with_ally(FR, WinType::SoloDefault, WinType::AlliedDefault, turn));
        }
        let only_fremen = [Territory::SietchTabr, Territory::HabbanyaSietch]
            .iter()
            .all(|&t| r.st.occupants(t).iter().all(|&o| o == FR));
        let fremen_ally = r.st.ally(FR);
        // Another faction's own rule may add it to the three (Richese, 000 2.10.18).
        let tueks_clear = r.st.occupants(Territory::TueksSietch).iter().all(|&o| {
            let named = matches!(o, Faction::Harkonnen | Faction::Atreides | Faction::Emperor)
                || super::rules(o).bars_special_victory(FR).is_some();
            !named || Some(o) == fremen_ally
        });
        (only_fremen && tueks_clear).then(|| {
            r.with_ally(
                FR,
                WinType::SoloFremenSpecial,
                WinType::AlliedFremenSpecial,
                turn,
            )
        })
    }

    fn victory_rule(&self, kind: WinType, _winners: &[Faction]) -> Option<Rule> {
        matches!(
            kind,
            WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial
        )
        .then_some(rule!("2.04.09"))
    }

    /// A claimed Fremen special victory against its criteria: the Guild in the game and nobody
    /// having won by the end of the last turn (2.04.09.00), only Fremen forces in Sietch Tabr and
    /// Habbanya Sietch (2.04.09.01), no Harkonnen, Atreides or Emperor forces but the Fremen's
    /// ally's in Tuek's Sietch (2.04.09.02, 4.01.19), the ally winning with them (2.04.12).
    fn victory_claim(
        &self,
        r: &Replay,
        claim: (&[Faction], WinType),
        _control: &[(dune::Stronghold, Faction)],
        computed: Option<&WinResult>,
    ) -> ClaimCheck {
        let (factions, kind) = claim;
        if !matches!(
            kind,
            WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial
        ) {
            return ClaimCheck::NotMine;
        }
        let fail = |rule: Rule, why: String| ClaimCheck::Fails(ClaimFailure::new(rule, why));
        if !r.st.plays(Faction::SpacingGuild) {
            return ClaimCheck::Fails(
                ClaimFailure::new(
                    rule!("2.04.09.00"),
                    "the Fremen special victory is for a game with the Spacing Guild; without the Guild the Fremen win by default (1.09.05)",
                )
                .also(&[rule!("1.09.05")]),
            );
        }
        let last = r.st.options.max_turns;
        if r.st.turn < last {
            return fail(
                rule!("2.04.09.00"),
                format!(
                    "it comes at the end of the last turn, and turn {} is not the last (the game lasts {last})",
                    r.st.turn
                ),
            );
        }
        if let Some(w) = computed.filter(|w| crate::replay::victory::won_in_play(w)) {
            return fail(
                rule!("2.04.09.00"),
                format!(
                    "it comes only when no faction has won, and {} {} at this Mentat Pause",
                    Replay::list(&w.factions),
                    crate::replay::victory::wins(&w.factions)
                ),
            );
        }
        for t in [Territory::SietchTabr, Territory::HabbanyaSietch] {
            let others: Vec<Faction> = r.st.occupants(t).into_iter().filter(|&o| o != FR).collect();
            if !others.is_empty() {
                return fail(
                    rule!("2.04.09.01"),
                    format!(
                        "only Fremen forces (or none) may occupy Sietch Tabr and Habbanya Sietch, and {} {} forces in {}",
                        Replay::list(&others),
                        if others.len() == 1 { "has" } else { "have" },
                        t.name()
                    ),
                );
            }
        }
        let ally = r.st.ally(FR);
        let spoilers: Vec<Faction> =
            r.st.occupants(Territory::TueksSietch)
                .into_iter()
                .filter(|&o| {
                    matches!(o, Faction::Harkonnen | Faction::Atreides | Faction::Emperor)
                        && Some(o) != ally
                })
                .collect();
        if !spoilers.is_empty() {
            return fail(
                rule!("2.04.09.02"),
                format!(
                    "no Harkonnen, Atreides or Emperor forces may occupy Tuek's Sietch (the Fremen's ally's excepted, 4.01.19), and {} {} forces there",
                    Replay::list(&spoilers),
                    if spoilers.len() == 1 { "has" } else { "have" }
                ),
            );
        }
        let due = r.with_ally(
            FR,
            WinType::SoloFremenSpecial,
            WinType::AlliedFremenSpecial,
            r.st.turn,
        );
        if due.factions != factions || due.kind != kind {
            let why = match ally {
                Some(a) => format!(
                    "the Fremen's ally {a} wins with them: {} ({})",
                    Replay::list(&due.factions),
                    due.kind.name()
                ),
                None => "the Fremen have no ally: the victory is theirs alone (SFS)".to_string(),
            };
            return fail(rule!("2.04.12"), why);
        }
        ClaimCheck::Holds
    }

    /// A missed special victory with their ally in Tuek's Sietch (4.01.19); the ally's share of
    /// it (2.04.12).
    fn victory_claim_rule(
        &self,
        r: &Replay,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Option<Rule> {
        let special =
            |k: WinType| matches!(k, WinType::SoloFremenSpecial | WinType::AlliedFremenSpecial);
        if computed.is_some_and(|w| special(w.kind))
            && !claimed.is_some_and(|c| special(c.1))
            && let Some(a) = r.st.ally(FR)
            && matches!(a, Faction::Harkonnen | Faction::Atreides | Faction::Emperor)
            && r.st.in_territory(a, Territory::TueksSietch).fighting() > 0
        {
            return Some(rule!("4.01.19"));
        }
        crate::replay::collect::ally_share(
            claimed,
            computed,
            WinType::SoloFremenSpecial,
            WinType::AlliedFremenSpecial,
        )
        .then_some(rule!("2.04.12"))
    }

    fn karama_now(&self, r: &mut Replay, rule: Rule) {
        if rule == PROTECT_ALLY.0 {
            r.karama_unprotect();
        } else if rule == ALLY_REVIVAL.0 {
            r.karama_revoke_grant();
        }
    }

    /// 1.14.03: a worm in any sand territory (after turn 1).
    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        matches!(usage, KaramaUse::Worm(_)).then_some((Phase::SpiceBlow, rule!("1.14.03")))
    }

    fn use_karama_power(&self, r: &mut Replay, ev: &Event, usage: &KaramaUse) {
        if let KaramaUse::Worm(place) = usage {
            if r.st.turn <= 1 {
                r.v(
                    rule!("1.14.03"),
                    "the Fremen Karama worm can be placed only after turn 1",
                );
            } else if !place.territory.is_sand() {
                r.v(
                    rule!("1.14.03"),
                    format!(
                        "the worm goes to a sand territory; {} is not",
                        place.territory.name()
                    ),
                );
            } else {
                r.karama_worm(place.territory, &ev.asserts);
            }
        }
    }
}

impl Replay {
    /// `S FR card n` (2.04.13): the storm card drawn last turn moves the storm.
    pub(crate) fn storm_card(
        &mut self,
        ev: &Event,
        faction: Faction,
        value: u32,
        to: Option<crate::board::Sector>,
    ) {
        let turn = self.st.turn;
        if faction != FR || !(self.st.options.advanced && self.st.plays(FR)) {
            self.v(rule!("2.04.13"), "only the Fremen's storm card moves the storm, and only in an Advanced game with the Fremen");
            return;
        }
        if turn <= 1 {
            self.v(
                rule!("2.04.13"),
                "the storm card is used from turn 2 on; turn 1's storm is the first storm",
            );
            return;
        }
        if self.t.storm.weather {
            self.v(
                rule!("3.01.23"),
                "Weather Control decides this storm; the storm card does not move it",
            );
            return;
        }
        if self.t.storm.moved || self.t.storm.pending.is_some() {
            self.v(rule!("1.01.02"), "the storm moves once per Storm phase");
            return;
        }
        if !STORM_DECK.iter().any(|&c| u32::from(c) == value) {
            self.v(
                rule!("2.04.13"),
                format!("the storm deck holds cards 1-6, not {value}"),
            );
        }
        if let Some((pos, sealed)) = self.sealed_storm_card.take()
            && sealed != value
        {
            self.v(rule!("2.04.13"), format!("the Fremen revealed storm card {value}, but the card sealed at line {} was {sealed}", pos.line));
        }
        let steps = (value).min(1000);
        self.t.storm.pending = Some(Pending {
            steps,
            pos: ev.pos,
            asserts: ev.asserts.clone(),
            to,
            rule: rule!("2.04.13"),
        });
    }

    /// `S FR draw{n}` (2.04.13): next turn's storm card, sealed.
    pub(crate) fn storm_draw(&mut self, ev: &Event, faction: Faction, value: &Sealed<Option<u32>>) {
        if faction != FR || !(self.st.options.advanced && self.st.plays(FR)) {
            self.v(
                rule!("2.04.13"),
                "only the Fremen draw storm cards, in an Advanced game",
            );
            return;
        }
        if self.t.storm.drawn {
            self.v(rule!("2.04.13"), "the Fremen draw one storm card per turn");
        }
        self.t.storm.drawn = true;
        self.sealed_storm_card = match self.sealed(value) {
            Some(Some(n)) => {
                if !STORM_DECK.iter().any(|&c| u32::from(c) == *n) {
                    self.v(
                        rule!("2.04.13"),
                        format!("the storm deck holds cards 1-6, not {n}"),
                    );
                }
                Some((ev.pos, *n))
            }
            _ => None,
        };
    }

    /// `B FR ride from>to forces` (2.04.08, Beast of Burden).
    pub(crate) fn ride(&mut self, faction: Faction, from: Place, to: Place, forces: ForceCount) {
        if faction != FR {
            self.v(
                rule!("2.04.08"),
                format!("only the Fremen ride the worm, not {faction}"),
            );
            return;
        }
        if !self.t.blow.worm_territories.contains(&from.territory) {
            self.v(rule!("2.04.08"), format!("no worm appeared in {} this phase: the Fremen can ride only from a worm's territory", from.territory.name()));
            return;
        }
        let Some(dest) = self.dest_piece(to, rule!("2.04.08")) else {
            return;
        };
        let mut ok = true;
        if dest.in_storm(self.st.storm) {
            self.v(
                rule!("1.01.04"),
                format!("the Fremen cannot ride into {}: it is in the storm", to),
            );
            ok = false;
        }
        if let Some(a) = self.st.ally(FR)
            && self.st.in_territory(a, to.territory).total() > 0
        {
            self.v(
                rule!("2.04.08"),
                format!(
                    "the Fremen ride to a territory without allied forces; {a} is in {}",
                    to.territory.name()
                ),
            );
            ok = false;
        }
        if self.st.stronghold_full_for(to.territory, FR) {
            let others = self.st.occupants(to.territory);
            self.v(
                rule!("1.06.05.09"),
                format!(
                    "the Fremen cannot ride into {}: {} are already there",
                    to.territory.name(),
                    Self::list(&others)
                ),
            );
            ok = false;
        }
        if ok && let Some(taken) = self.take_forces(FR, from, forces, rule!("2.04.08")) {
            self.st.stack_mut(FR, dest).add(taken);
            self.entered(FR, to.territory, false);
        }
    }

    /// `B FR noprotect` (2.04.10): worms may take the ally this phase.
    pub(crate) fn no_protect(&mut self, faction: Faction) {
        if faction != FR {
            self.v(
                rule!("2.04.10"),
                "only the Fremen decide whether worms spare their ally",
            );
        }
        self.t.blow.noprotect = true;
    }

    /// A Karama cancels the Fremen's protection of their ally (2.04.10) for this phase.
    pub(crate) fn karama_unprotect(&mut self) {
        self.t.blow.noprotect = true;
        self.t.blow.noprotect_karama = true;
    }

    /// A worm from the Fremen Karama power (1.14.03): counts as a worm and opens a Nexus.
    pub(crate) fn karama_worm(&mut self, t: Territory, asserts: &[Assertion]) {
        self.st.worms += 1;
        self.t.blow.nexus = true;
        self.devour(t, asserts, rule!("1.14.03"));
    }

    /// 2.04.11: the Fremen granted their ally 3 free revivals this turn.
    pub(crate) fn fremen_grant_applies(&self, f: Faction) -> bool {
        self.t.revival.granted && self.st.ally(f) == Some(FR)
    }

    /// `R FR grant` (2.04.11): the Fremen give their ally 3 free revivals this turn.
    pub(crate) fn grant(&mut self, f: Faction) {
        if f != FR {
            self.v(
                rule!("2.04.11"),
                format!("only the Fremen grant their ally 3 free revivals, not {f}"),
            );
            return;
        }
        if !self.in_play_or_report(f) {
            return;
        }
        let Some(a) = self.st.ally(f) else {
            self.v(
                rule!("2.04.11"),
                "the Fremen have no ally to grant 3 free revivals to",
            );
            return;
        };
        if self.t.revival.forces.contains(a) {
            self.v(rule!("2.04.11"), format!("{a} has already revived this turn: the Fremen grant comes before their ally's revival"));
        }
        if self.karama_forbids(ALLY_REVIVAL, "the Fremen grant their ally 3 free revivals") {
            return;
        }
        self.t.revival.granted = true;
    }

    /// A Fremen Karama cancel of 2.04.11: the ally revives with its own free revival.
    pub(crate) fn karama_revoke_grant(&mut self) {
        self.t.revival.granted = false;
    }

    pub(crate) fn send(&mut self, f: Faction, c: ForceCount, to: Place) {
        if f != FR {
            self.v(
                rule!("2.04.05"),
                format!("only the Fremen send reserves to the map; {f} ships"),
            );
            return;
        }
        if !self.use_shipment(f, false) {
            return;
        }
        let Some(dest) = self.dest_piece(to, rule!("1.06.03.03")) else {
            return;
        };
        let t = to.territory;
        let wall_card = t == Territory::ShieldWall
            && self.st.stronghold_card_holder(Stronghold::ShieldWall) == Some(f);
        if !wall_card {
            let d = SEND_CENTRE.distance(t);
            if d > SEND_RANGE {
                self.v(rule!("2.04.05"), format!("the Fremen send to the Great Flat or a territory within two of it; {} is {d} territories away", t.name()));
            }
        }
        self.check_entry(f, dest, c.total, Entry::FremenSend);
        let reserves = self.st.faction(f).reserves;
        if !reserves.covers(Forces::from_count(c)) {
            self.v(
                rule!("2.04.05"),
                format!("the Fremen send {c} but have only {reserves} in reserve"),
            );
        }
        let placed = self.st.place_from_reserves(f, dest, c, false);
        let mut kept = placed;
        if dest.in_storm(self.st.storm) {
            if self.st.options.advanced {
                self.karama_forbids(
                    MIGRATION,
                    &format!("the Fremen send {c} into the storm in {}", t.name()),
                );
                // 2.04.17 (rulings.md 25): half, rounded up, are lost.
                let lose = placed.total().div_ceil(2);
                let normal = lose.min(placed.normal);
                let gone = self.st.take_from_piece(
                    f,
                    dest,
                    Forces::new(normal, lose - normal),
                    Side::Unspecified,
                );
                self.st.faction_mut(f).tanks.add(gone.forces());
                kept.take(gone.forces());
                self.t.mv.action_losses.add_forces(t, f, gone);
                self.t.mv.migration = Some(t);
            } else {
                self.v(rule!("1.01.04"), format!("the Fremen cannot send into {}: it is in the storm (storm migration is Advanced)", t.name()));
            }
        }
        if wall_card && !kept.is_empty() {
            self.t.mv.shield_wall_sent.push((f, dest, kept));
        }
        self.entered(f, t, false);
    }
}
