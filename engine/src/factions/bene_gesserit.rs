//! The Bene Gesserit (001 2.02): the prediction, spiritual advisors, the Voice (in their own
//! battle and their ally's), CHOAM Charity of at least 2, advisors and fighters (2.02.10-2.02.21)
//! and worthless cards as Karama.

use dune::{Faction, Rule, Spice, WinType, rule};

use super::{Charity, FactionRules, Sheet, SheetRules};
use crate::battle::Plan;
use crate::board::{Card, CardKind, Piece, Territory};
use crate::dgn::{ForceCount, Place, Pos, Sealed, Side};
use crate::replay::battle::Voice;
use crate::replay::battle::plan::VoiceCmd;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL, PREVENT};
use crate::replay::victory::{ClaimCheck, ClaimFailure};
use crate::replay::{Replay, WinResult};
use crate::state::{Phase, Stack};

pub(crate) struct BeneGesserit;

const BG: Faction = Faction::BeneGesserit;

/// 2.02.01 5 spice, 2.02.02 one force in the Polar Sink (Basic) or 2.02.08 one advisor anywhere
/// (Advanced), 2.02.04 free revival 1; their tokens have two sides (2.02.10).
pub(crate) const SHEET: Sheet = Sheet {
    spice: Spice::new(5),
    free_revival: 1,
    hand_limit: 4,
    starting_cards: 1,
    traitors: 1,
    kinds: super::ForceKinds {
        plain: super::KindRules::FORCE,
        starred: None,
        flipped: Some(ADVISOR),
    },
    start: None,
    rules: SheetRules::GENERAL,
};

/// 2.02.10-2.02.12: an advisor is a token on its second side; it does not fight, occupy or
/// collect.
const ADVISOR: super::KindRules = super::KindRules {
    name: "advisor",
    worth: 0,
    collects: 0,
    fights: false,
    rule: rule!("2.02.12"),
    ..super::KindRules::FORCE
};

pub(crate) const SPIRIT: Ability = Ability(rule!("2.02.05"));
pub(crate) const VOICE: Ability = Ability(rule!("2.02.06"));
pub(crate) const ALLY_VOICE: Ability = Ability(rule!("2.02.07"));
pub(crate) const CHARITY: Ability = Ability(rule!("2.02.09"));
pub(crate) const TAKE_UP_ARMS: Ability = Ability(rule!("2.02.16"));
pub(crate) const WARTIME: Ability = Ability(rule!("2.02.17"));
pub(crate) const WORTHLESS_KARAMA: Ability = Ability(rule!("2.02.22"));

static KARAMA: [AbilityInfo; 7] = [
    AbilityInfo::new(
        SPIRIT,
        BG,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "spiritual advisor",
    ),
    AbilityInfo::new(VOICE, BG, CANCEL, Some(Phase::Battle), false, true, "Voice"),
    AbilityInfo::new(
        ALLY_VOICE,
        BG,
        CANCEL,
        Some(Phase::Battle),
        true,
        true,
        "Voice in the ally's battle",
    ),
    AbilityInfo::new(
        CHARITY,
        BG,
        PREVENT,
        Some(Phase::Charity),
        false,
        true,
        "CHOAM Charity of at least 2",
    ),
    AbilityInfo::new(
        TAKE_UP_ARMS,
        BG,
        PREVENT,
        Some(Phase::Movement),
        false,
        true,
        "Take Up Arms",
    ),
    AbilityInfo::new(
        WARTIME,
        BG,
        CANCEL,
        Some(Phase::Movement),
        false,
        true,
        "Wartime",
    ),
    AbilityInfo::new(
        WORTHLESS_KARAMA,
        BG,
        CANCEL,
        None,
        false,
        false,
        "worthless card as a Karama",
    ),
];

impl FactionRules for BeneGesserit {
    fn faction(&self) -> Faction {
        BG
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    /// 2.02.02: in the Basic game the one force goes to the Polar Sink by itself.
    fn begin_setup(&self, r: &mut Replay) {
        if !r.st.options.advanced {
            if let Some(p) = Territory::PolarSink.piece(None) {
                r.st.place_from_reserves(BG, p, ForceCount::plain(1), false);
            }
            r.setup.bg_placed = true;
        }
    }

    /// 2.02.08 (Advanced): one advisor anywhere, after the Fremen; 2.02.02 (Basic): the Polar
    /// Sink's force is placed by itself.
    fn place(&self, r: &mut Replay, t: Territory, piece: Piece, forces: ForceCount) -> bool {
        let f = BG;
        if r.st.options.advanced {
            if r.setup.bg_placed {
                r.v(
                    rule!("2.02.08"),
                    "the Bene Gesserit place one advisor at setup, once",
                );
                return true;
            }
            if r.st.plays(Faction::Fremen) && !r.setup.fremen_place_seen {
                r.v(
                    rule!("2.02.08"),
                    "the Bene Gesserit advisor is placed after the Fremen have placed their forces",
                );
            }
            if forces.total != 1 {
                r.v(
                    rule!("2.02.08"),
                    format!(
                        "the Bene Gesserit place 1 advisor at setup, not {}",
                        forces.total
                    ),
                );
            }
            let alone = r.st.present(t).iter().all(|&g| g == f);
            let side = if alone { Side::Fighter } else { Side::Advisor };
            if forces.side != Side::Unspecified && forces.side != side {
                let why = if alone {
                    "it is alone there, so it flips to a fighter"
                } else {
                    "it shares the territory, so it stays an advisor"
                };
                r.v(
                    rule!("2.02.08"),
                    format!(
                        "the Bene Gesserit token in {} is logged as {forces}, but {why}",
                        t.name()
                    ),
                );
            }
            r.st.place_from_reserves(
                f,
                piece,
                crate::dgn::ForceCount {
                    total: 1,
                    starred: 0,
                    side,
                },
                false,
            );
            r.setup.bg_placed = true;
        } else {
            // Basic: the Polar Sink token is placed automatically (2.02.02).
            if t != Territory::PolarSink || forces.total != 1 {
                r.v(
                    rule!("2.02.02"),
                    "in the Basic game the Bene Gesserit start with 1 force in the Polar Sink",
                );
            }
        }
        true
    }

    fn finish_setup(&self, r: &mut Replay) {
        if !r.setup.bg_placed {
            r.v(
                rule!("2.02.08"),
                "the Bene Gesserit starting advisor is not placed (PLACE BG …)",
            );
        }
    }

    /// 2.02.09: at least 2 spice of CHOAM Charity, whatever they hold (unless a Karama prevents
    /// it: then the general rule, 1.03.01).
    fn charity(&self, r: &mut Replay, spice: Spice) -> Option<Charity> {
        let blocked = r.karama_take(CHARITY);
        match blocked {
            None => Some(Charity::Due(Spice::new(2), rule!("2.02.09"))),
            Some(b) if spice > 1 => {
                let msg = format!(
                    "BG has {spice} spice and cannot claim CHOAM Charity: {}",
                    b.describe()
                );
                r.v(b.rule(), msg);
                Some(Charity::Refused)
            }
            Some(_) => None,
        }
    }

    /// A cancelled spiritual advisor was about the previous shipment (2.02.05).
    fn before_shipment(&self, r: &mut Replay) {
        r.karama_lapse(SPIRIT);
    }

    /// 2.02.13: the Bene Gesserit ship fighters, never into a territory with their advisors.
    fn shipment_check(&self, r: &mut Replay, t: Territory, c: ForceCount) {
        if c.side == Side::Advisor {
            r.v(rule!("2.02.13"), "the Bene Gesserit ship fighters, not advisors (advisors come only as spiritual advisors)");
        }
        if r.st.options.advanced && r.st.in_territory(BG, t).advisors > 0 {
            r.v(
                rule!("2.02.13"),
                format!(
                    "the Bene Gesserit cannot ship fighters into {}, where their advisors are",
                    t.name()
                ),
            );
        }
    }

    /// Moved tokens take a side as they arrive (Advanced): Enlistment (2.02.14), Adaptive Force
    /// (2.02.20); advisors moved into an occupied territory may Take Up Arms next (2.02.16).
    fn arrive(
        &self,
        r: &mut Replay,
        t: Territory,
        moved: &mut Stack,
        advisors: bool,
        had_advisors: bool,
    ) {
        let f = BG;
        if !r.st.options.advanced {
            return;
        }
        let others_there = r.st.present(t).iter().any(|&g| g != f);
        let here = r.st.in_territory(f, t);
        let to_fighters = if advisors {
            !others_there || here.fighting() > 0
        } else {
            false
        };
        let to_advisors = !advisors && here.advisors > 0 && here.fighting() == 0;
        if to_fighters {
            // Enlistment (2.02.14) or Adaptive Force (2.02.20).
            moved.normal = moved.normal.saturating_add(moved.advisors);
            moved.advisors = 0;
        } else if to_advisors {
            // Adaptive Force (2.02.20).
            moved.advisors = moved.advisors.saturating_add(moved.normal);
            moved.normal = 0;
        }
        if advisors && moved.advisors > 0 && !had_advisors {
            r.t.mv.take_up_arms = Some(t);
        }
    }

    /// 2.02.22 (Advanced): any worthless card serves as a Karama.
    fn karama_card(&self, r: &mut Replay, card: Card) -> bool {
        r.st.options.advanced && card.kind() == CardKind::Worthless
    }

    fn victory_rule(&self, kind: WinType, _winners: &[Faction]) -> Option<Rule> {
        (kind == WinType::BgPrediction).then_some(rule!("2.02.03"))
    }

    /// 2.02.03: a log that gets a victory wrong where the prediction is in question.
    fn victory_claim_rule(
        &self,
        _r: &Replay,
        claimed: Option<(&[Faction], WinType)>,
        computed: Option<&WinResult>,
    ) -> Option<Rule> {
        let prediction = claimed.is_some_and(|c| c.1 == WinType::BgPrediction)
            || computed.is_some_and(|w| w.kind == WinType::BgPrediction);
        prediction.then_some(rule!("2.02.03"))
    }

    /// 2.02.03: a claimed prediction victory: the Bene Gesserit alone, the predicted turn, and
    /// the predicted faction meeting the stronghold requirement (alone or allied) now.
    fn victory_claim(
        &self,
        r: &Replay,
        claim: (&[Faction], WinType),
        control: &[(dune::Stronghold, Faction)],
        _computed: Option<&WinResult>,
    ) -> ClaimCheck {
        let (factions, kind) = claim;
        if kind != WinType::BgPrediction {
            return ClaimCheck::NotMine;
        }
        let fail = |why: String| ClaimCheck::Fails(ClaimFailure::new(rule!("2.02.03"), why));
        if factions != [BG] {
            return fail(format!(
                "the prediction is won by the Bene Gesserit alone, even allied; the log names {}",
                Replay::list(factions)
            ));
        }
        let qualifiers = r.stronghold_qualifiers(control);
        match r.setup.prediction {
            Some((f, turn)) if turn != r.st.turn => fail(format!(
                "the Bene Gesserit predicted {f} in turn {turn}, and this is turn {}",
                r.st.turn
            )),
            Some((f, turn)) if !qualifiers.iter().any(|q| q.factions.contains(&f)) => {
                fail(format!(
                    "the Bene Gesserit predicted {f} in turn {turn}, and {f} does not meet the stronghold requirement now (3 strongholds, 4 with an ally; 1.09.02)"
                ))
            }
            Some(_) => ClaimCheck::Holds,
            // A published log: the sealed prediction is revealed by the claim, which can be
            // true only when some faction qualifies.
            None if qualifiers.is_empty() => fail(
                "no faction meets the stronghold requirement this turn, so no prediction comes true"
                    .into(),
            ),
            None => ClaimCheck::Holds,
        }
    }

    /// 2.02.03 (rulings.md 7): the predicted faction meets the requirements in the predicted
    /// turn (alone or allied): the Bene Gesserit win alone, before any stronghold victory.
    fn has_special_victory(&self) -> bool {
        true
    }

    fn special_victory(
        &self,
        r: &Replay,
        check: &super::victory::VictoryCheck,
    ) -> Option<WinResult> {
        let turn = r.st.turn;
        let (p, pt) = r.setup.prediction?;
        (pt == turn && r.st.plays(p) && (check.qualifies)(p)).then(|| WinResult {
            factions: vec![BG],
            kind: WinType::BgPrediction,
            turn,
        })
    }

    /// 2.02.03: in a published log (`{#}`) the prediction is unknown until revealed: a claimed
    /// prediction win is the reveal, accepted when some faction qualifies this turn.
    fn revealed_victory(
        &self,
        r: &Replay,
        claim: (&[Faction], WinType),
        computed: Option<&WinResult>,
    ) -> Option<WinResult> {
        let (factions, kind) = claim;
        (kind == WinType::BgPrediction
            && factions == [BG]
            && r.setup.prediction.is_none()
            && computed.is_some_and(|w| {
                w.kind == WinType::SoloStronghold || w.kind == WinType::AlliedStronghold
            }))
        .then(|| WinResult {
            factions: vec![BG],
            kind: WinType::BgPrediction,
            turn: r.st.turn,
        })
    }

    /// A Karama cancelling the Voice after it was used (2.02.06, 2.02.07): the command binds
    /// nobody, so the plan is not checked against it.
    fn karama_now(&self, r: &mut Replay, rule: Rule) {
        if (rule == VOICE.0 || rule == ALLY_VOICE.0)
            && let Some(b) = r.t.battle.current.as_mut()
            && b.voice.as_ref().is_some_and(|v| v.by == BG)
        {
            b.voice = None;
        }
    }

    /// 1.14.06: no once-a-game power; worthless cards serve as Karama instead.
    fn no_karama_power(&self) -> Option<Rule> {
        Some(rule!("1.14.06"))
    }
}

impl Replay {
    /// `PRED BG{F turn}` (2.02.03): the Bene Gesserit predict another faction's win and its turn.
    pub(crate) fn prediction(
        &mut self,
        faction: Faction,
        prediction: &Sealed<Option<(Faction, u32)>>,
    ) {
        if faction != BG {
            self.v(
                rule!("2.02.03"),
                format!("only the Bene Gesserit predict; {faction} cannot"),
            );
            return;
        }
        if !self.in_play_or_report(faction) {
            return;
        }
        if let Some(Some((f, turn))) = self.sealed(prediction).cloned() {
            if f == BG || !self.st.plays(f) {
                self.v(
                    rule!("2.02.03"),
                    format!("the Bene Gesserit must predict another faction in play, not {f}"),
                );
            }
            if turn < 1 || turn > self.st.options.max_turns {
                self.v(
                    rule!("2.02.03"),
                    format!(
                        "the predicted turn {turn} is outside 1-{}",
                        self.st.options.max_turns
                    ),
                );
            }
            self.setup.prediction = Some((f, turn));
        }
    }

    pub(crate) fn spirit(&mut self, f: Faction, to: Place, c: ForceCount) {
        if f != BG {
            self.v(
                rule!("2.02.05"),
                format!("only the Bene Gesserit send spiritual advisors, not {f}"),
            );
            return;
        }
        if self.karama_forbids(
            SPIRIT,
            &format!("the Bene Gesserit send a spiritual advisor to {to}"),
        ) {
            return;
        }
        let Some(rec) = self
            .t
            .mv
            .last_ship
            .as_mut()
            .filter(|r| r.faction != f && !r.responded)
        else {
            self.v(rule!("2.02.05"), "the Bene Gesserit send a spiritual advisor only right after another faction's shipment from off-planet, once per shipment");
            return;
        };
        rec.responded = true;
        let ship_piece = rec.piece;
        if c.total != 1 {
            self.v(
                rule!("2.02.05"),
                format!(
                    "the Bene Gesserit send 1 force per shipment, not {}",
                    c.total
                ),
            );
        }
        if self.st.faction(f).reserves.is_empty() {
            self.v(
                rule!("2.02.05"),
                "the Bene Gesserit have no forces in reserve",
            );
            return;
        }
        let one = ForceCount {
            total: 1,
            starred: 0,
            side: Side::Fighter,
        };
        if to.territory == Territory::PolarSink {
            if let Some(p) = Territory::PolarSink.piece(None) {
                self.st.place_from_reserves(f, p, one, false);
            }
            return;
        }
        if !self.st.options.advanced {
            self.v(rule!("2.02.11"), "sending an advisor with the shipment is an Advanced ability; in the Basic game the spiritual advisor goes to the Polar Sink");
            return;
        }
        let same = to.territory == ship_piece.territory()
            && to.sector.is_none_or(|s| Some(s) == ship_piece.sector());
        if !same {
            self.v(rule!("2.02.11"), format!("the advisor goes to the same territory and sector as the shipment ({ship_piece}), not {to}"));
            return;
        }
        if self.st.in_territory(f, to.territory).fighting() > 0 {
            self.v(
                rule!("2.02.11"),
                format!(
                    "the Bene Gesserit have fighters in {}, so they cannot send an advisor there",
                    to.territory.name()
                ),
            );
            return;
        }
        self.st.place_from_reserves(
            f,
            ship_piece,
            ForceCount {
                side: Side::Advisor,
                ..one
            },
            true,
        );
        // An arrival terror tokens answer (000 2.12.08, advisors included), not the one the
        // Bene Gesserit's own Intrusion answers.
        self.t.entries.push(crate::replay::Entered {
            faction: f,
            territory: ship_piece.territory(),
            advisors: true,
            phase: self.st.phase,
            from: None,
        });
    }

    pub(crate) fn flip(&mut self, f: Faction, place: Place, to: Side) {
        if f != BG || !self.st.options.advanced {
            self.v(
                rule!("2.02.10"),
                "only the Bene Gesserit flip advisors and fighters, in an Advanced game",
            );
            return;
        }
        let t = place.territory;
        let storm = self.st.storm;
        match to {
            Side::Fighter => {
                let take_up_arms = self.t.mv.take_up_arms == Some(t);
                let wartime = !self.t.mv.started;
                if !take_up_arms && !wartime {
                    self.v(rule!("2.02.17"), "advisors flip to fighters before anyone's shipment and movement (Wartime) or right after moving into an occupied territory (Take Up Arms)");
                    return;
                }
                if let Some(a) = self.st.ally(f)
                    && self.st.in_territory(a, t).total() > 0
                {
                    self.v(
                        rule!("2.02.18"),
                        format!("advisors cannot flip to fighters with an ally ({a}) present"),
                    );
                    return;
                }
                let stopped = if take_up_arms {
                    self.karama_forbids(
                        TAKE_UP_ARMS,
                        &format!("the Bene Gesserit take up arms in {}", t.name()),
                    )
                } else {
                    self.karama_forbids(
                        WARTIME,
                        &format!(
                            "the Bene Gesserit flip their advisors in {} (Wartime)",
                            t.name()
                        ),
                    )
                };
                if stopped {
                    return;
                }
                if take_up_arms && self.st.stronghold_full_for(t, f) {
                    self.v(
                        rule!("2.02.16"),
                        format!(
                            "advisors cannot take up arms in {}: two other factions are there",
                            t.name()
                        ),
                    );
                    return;
                }
                let mut flipped = false;
                for &p in t.pieces() {
                    if place.sector.is_some_and(|s| Some(s) != p.sector()) {
                        continue;
                    }
                    let s = self.st.stack(f, p);
                    if s.advisors == 0 {
                        continue;
                    }
                    if p.in_storm(storm) {
                        self.v(
                            rule!("2.02.19"),
                            format!("advisors in {p} are under the storm and cannot flip"),
                        );
                        continue;
                    }
                    let st = self.st.stack_mut(f, p);
                    st.normal = st.normal.saturating_add(st.advisors);
                    st.advisors = 0;
                    flipped = true;
                }
                if !flipped && self.st.in_territory(f, t).advisors == 0 {
                    self.v(
                        rule!("2.02.17"),
                        format!("the Bene Gesserit have no advisors in {}", t.name()),
                    );
                }
            }
            _ => {
                let intrusion = self
                    .t
                    .mv
                    .last_entry
                    .is_some_and(|(g, x)| x == t && g != f && self.st.ally(f) != Some(g));
                if !intrusion {
                    self.v(rule!("2.02.15"), "fighters flip to advisors only when a non-allied faction's forces have just entered their territory (Intrusion)");
                    return;
                }
                for &p in t.pieces() {
                    let st = self.st.stack_mut(f, p);
                    st.advisors = st.advisors.saturating_add(st.normal);
                    st.normal = 0;
                }
            }
        }
    }

    pub(crate) fn voice(
        &mut self,
        pos: Pos,
        f: Faction,
        target: Faction,
        positive: bool,
        command: &str,
    ) {
        let Some((side, for_ally)) = self.battle_ability(
            f,
            BG,
            "the Voice",
            [rule!("2.02.06"), rule!("2.02.07")],
            [VOICE, ALLY_VOICE],
        ) else {
            return;
        };
        let rule = if for_ally {
            rule!("2.02.07")
        } else {
            rule!("2.02.06")
        };
        let Some(b) = self.t.battle.current.as_mut() else {
            return;
        };
        let opponent = b.sides[1 - side];
        if target != opponent {
            self.v(
                rule,
                format!("the Voice commands the opponent in this battle, {opponent}, not {target}"),
            );
            return;
        }
        if b.plans[1 - side].is_some() {
            self.v(
                rule!("2.02.06"),
                format!(
                    "the Voice comes before the battle wheel; {target}'s plan is already logged"
                ),
            );
        }
        if VoiceCmd::read(command) == Some(VoiceCmd::Card(Card::PoisonDart)) {
            // 000 3.03.14: the Poison Dart cannot be the target of the Voice.
            self.v(
                rule!("3.03.14"),
                "the Poison Dart cannot be the target of the Voice",
            );
            return;
        }
        if VoiceCmd::read(command).is_none() {
            self.v(rule!("2.02.06"), format!("`{command}` is not a Voice command: poison, proj, poisondef, projdef, worthless, CH, or a card by name"));
            return;
        }
        if let Some(b) = self.t.battle.current.as_mut() {
            b.voice = Some(Voice {
                by: f,
                target,
                positive,
                command: command.to_string(),
                pos,
            });
        }
    }

    /// Compliance with the Voice where the plan reveals it (2.02.06): a forbidden card played
    /// is always seen; a commanded card not played is seen when the hand is known (audit mode).
    pub(crate) fn check_voice(&mut self, plan: &Plan, hand: &[Option<Card>], has_leader: bool) {
        let Some(v) = self
            .t
            .battle
            .current
            .as_ref()
            .and_then(|b| b.voice.clone())
            .filter(|v| v.target == plan.faction)
        else {
            return;
        };
        let Some(cmd) = VoiceCmd::read(&v.command) else {
            return;
        };
        let rule = if self.st.ally(v.by).is_some_and(|a| {
            self.t
                .battle
                .current
                .as_ref()
                .is_some_and(|b| b.side_of(a).is_some() && b.side_of(v.by).is_none())
        }) {
            rule!("2.02.07")
        } else {
            rule!("2.02.06")
        };
        let played = cmd.in_plan(plan);
        if !v.positive && played {
            self.v_at(
                v.pos,
                rule,
                format!(
                    "{} was commanded by the Voice not to play {} but plays it",
                    plan.faction, v.command
                ),
            );
        }
        if v.positive && !played {
            let held = hand.iter().flatten().find(|&&c| cmd.in_hand(c, has_leader));
            if let Some(c) = held {
                self.v_at(
                    v.pos,
                    rule,
                    format!(
                        "{} was commanded by the Voice to play {} and holds {c}, but does not play it",
                        plan.faction, v.command
                    ),
                );
            }
        }
    }
}
