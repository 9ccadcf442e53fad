//! CHOAM (000 2.09). The full rulebook prints CHOAM's sheet twice (rulings.md 28): the
//! *original* list (2.09.00-2.09.21: Charity, Open Market with duplicates, the Inflation token,
//! the card trade with the ally) and the *revised* one (2.09.00-2.09.26: Overage Distribution with
//! the Earnings tokens, the Elite Mercenaries, lending the Auditor), each numbered by its own
//! place. The game's edition (`[Edition "original"]`, revised by default) picks the list, and every
//! violation cites the number of the list in play, saying which.
//!
//! Both lists share: 2 spice and twenty forces in reserve (2.09.01, 2.09.02), no free revival
//! (2.09.03), CHOAM's income before charity and the charity paid out of its spice (2.09.04), a
//! hand of five, worthless cards sold at the end of a phase and discarded for their Multipurpose
//! effects, revival at 1 spice a force, 2 spice for the ally at the end of CHOAM Charity, paying
//! for the ally's forces in battle, the Auditor and its Paid Intel, and half of every other
//! player's battle spice.
//!
//! The rulebook prints no Karama marks for the expansion factions, so no ability of CHOAM's is
//! in the table a Karama can cancel or prevent (docs/notation.md, Decisions).

use dune::{Faction, Rule, Spice, rule};

use super::{
    Charity, CharitySource, FactionRules, ForceKinds, KindRules, RevivalTerms, Sheet, SheetRules,
    StartRules,
};
use crate::board::{Card, CardKind, Leader, Territory};
use crate::dgn::{Event, KaramaUse, Payee, Payment, Place, Sealed, TradeStmt};
use crate::replay::Replay;
use crate::replay::karama::{Ability, AbilityInfo, CANCEL};
use crate::state::{Edition, LeaderState, Phase, RuleOptions, Stack};

pub(crate) struct Choam;

const CH: Faction = Faction::Choam;

/// Both sheets: 2.09.01 2 spice, 2.09.02 twenty forces in reserve, 2.09.03 no free revival; the
/// hand of five is 2.09.05 in the original list, and a force revives for 1 spice (2.09.08).
pub(crate) const SHEET_ORIGINAL: Sheet = Sheet {
    spice: Spice::new(2),
    free_revival: 0,
    hand_limit: 5,
    starting_cards: 1,
    traitors: 1,
    kinds: ForceKinds {
        plain: KindRules {
            revival: 1,
            rule: rule!("2.09.08"),
            ..KindRules::FORCE
        },
        starred: None,
        flipped: None,
    },
    start: None,
    rules: SheetRules {
        hand_limit: rule!("2.09.05"),
        ..SheetRules::GENERAL
    },
};

/// The revised sheet: the hand of five is 2.09.08; a plain force revives for 1 (2.09.12); nine of
/// the twenty forces are Elite Mercenaries (Higher Contracts, 2.09.11), worth two forces in
/// battle (2.09.13), revived for 2 spice (2.09.14). The book lists them among the Basic
/// abilities (2.09.00), so they are elite in both games. They are kept star side up, as the
/// Sardaukar are (docs/notation.md, Decisions): shipped at twice the rate (2.09.16).
pub(crate) const SHEET_REVISED: Sheet = Sheet {
    kinds: ForceKinds {
        plain: KindRules {
            revival: 1,
            rule: rule!("2.09.12"),
            ..KindRules::FORCE
        },
        starred: Some((9, ELITE)),
        flipped: None,
    },
    rules: SheetRules {
        hand_limit: rule!("2.09.08"),
        ..SheetRules::GENERAL
    },
    ..SHEET_ORIGINAL
};

/// An Elite Mercenary (2.09.11-2.09.16 revised).
const ELITE: KindRules = KindRules {
    name: "Elite Mercenary",
    worth: 4,
    revival: 2,
    advanced_only: false,
    rule: rule!("2.09.13"),
    ..KindRules::FORCE
};

/// The rule of each ability in the two lists (original, revised).
#[derive(Clone, Copy)]
pub(crate) struct Numbered(Rule, Rule);

impl Numbered {
    pub(crate) fn of(self, e: Edition) -> Rule {
        match e {
            Edition::Original => self.0,
            Edition::Revised => self.1,
        }
    }
}

pub(crate) const STARTING_SPICE: Numbered = Numbered(rule!("2.09.01"), rule!("2.09.01"));
pub(crate) const STARTING_FORCES: Numbered = Numbered(rule!("2.09.02"), rule!("2.09.02"));
pub(crate) const INCOME: Numbered = Numbered(rule!("2.09.04"), rule!("2.09.04"));
pub(crate) const OPEN_MARKET: Numbered = Numbered(rule!("2.09.06"), rule!("2.09.09"));
pub(crate) const MULTIPURPOSE: Numbered = Numbered(rule!("2.09.07"), rule!("2.09.10"));
pub(crate) const REVIVAL: Numbered = Numbered(rule!("2.09.08"), rule!("2.09.12"));
pub(crate) const ALLY_STIPEND: Numbered = Numbered(rule!("2.09.14"), rule!("2.09.17"));
pub(crate) const ALLY_FORCES: Numbered = Numbered(rule!("2.09.15"), rule!("2.09.19"));
pub(crate) const PAID_INTEL: Numbered = Numbered(rule!("2.09.17"), rule!("2.09.22"));
pub(crate) const REPLACEABLE: Numbered = Numbered(rule!("2.09.18"), rule!("2.09.23"));
pub(crate) const PROTECTIONS: Numbered = Numbered(rule!("2.09.19"), rule!("2.09.24"));
pub(crate) const FORCE_SPICE: Numbered = Numbered(rule!("2.09.20"), rule!("2.09.25"));

/// CHOAM's share of the others' battle spice, as a Karama names it: a payment to the faction,
/// cancelled as the Guild's shipment payments are (docs/notation.md, Decisions 64).
const SHARE_ORIGINAL: Ability = Ability(rule!("2.09.20"));
const SHARE_REVISED: Ability = Ability(rule!("2.09.25"));

static KARAMA: [AbilityInfo; 2] = [
    AbilityInfo::new(
        SHARE_ORIGINAL,
        CH,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "half of the others' battle spice (original sheet)",
    ),
    AbilityInfo::new(
        SHARE_REVISED,
        CH,
        CANCEL,
        Some(Phase::Battle),
        false,
        true,
        "half of the others' battle spice (revised sheet)",
    ),
];

/// The Inflation token of the original sheet (2.09.09-2.09.13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Inflation {
    /// Still behind CHOAM's shield.
    #[default]
    Unused,
    /// On the CHOAM Charity step of the phase track: which side is up, and whether it has
    /// turned once already (2.09.12).
    Track { double: bool, flipped: bool },
    /// Removed from the game (2.09.12).
    Gone,
}

/// An Earnings token of the revised sheet on the phase track (2.09.05-2.09.07).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Earnings {
    /// Its value when known (sealed until turned up).
    pub(crate) value: Option<u8>,
    pub(crate) face_up: bool,
    /// The turn of the Charity phase it acts in.
    pub(crate) turn: u32,
}

/// A Multipurpose effect in force (2.09.07, 2.09.10): which card, for whom, where, until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effect {
    pub(crate) card: Card,
    /// Who discarded the card (CHOAM, or its ally with the revised sheet, 2.09.18).
    pub(crate) by: Faction,
    /// The player it acts on, where the card names one.
    pub(crate) target: Option<Faction>,
    pub(crate) territory: Option<Territory>,
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
}

/// What CHOAM's sheet keeps track of between events.
#[derive(Clone, Debug, Default)]
pub struct ChoamState {
    /// The income taken at the start of this turn's CHOAM Charity (2.09.04), and its turn.
    pub(crate) income: Option<(u32, Spice)>,
    pub(crate) inflation: Inflation,
    pub(crate) earnings: Option<Earnings>,
    /// The turn CHOAM last traded a card with its ally (2.09.14 original).
    pub(crate) swapped: u32,
    /// The turn CHOAM's ally took its 2 spice (2.09.14 original, 2.09.17 revised).
    pub(crate) stipend: u32,
    pub(crate) effects: Vec<Effect>,
    /// The territory whose Elite Mercenaries the revised Karama power flipped, and its turn
    /// (1.14.09).
    pub(crate) flipped: Option<(u32, Territory)>,
    /// CHOAM's share of the last battle's wheel spice, and whether CHOAM fought in it.
    pub(crate) share: (Spice, bool),
    /// What CHOAM took of the battle being resolved.
    pub(crate) last_cut: Spice,
    /// The ally the Auditor is lent to (2.09.20 revised), until Leader Return.
    pub(crate) lent: Option<Faction>,
    /// The last battle the Auditor fought: the side it fought for, the opponent, whether it lived,
    /// and whether an audit was bought off already.
    pub(crate) audit: Option<Audit>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Audit {
    pub(crate) auditor_side: Faction,
    pub(crate) opponent: Faction,
    pub(crate) survived: bool,
    pub(crate) settled: bool,
}

impl FactionRules for Choam {
    fn faction(&self) -> Faction {
        CH
    }

    /// Its rules are numbered in the full rulebook (000).
    fn book(&self) -> dune::Book {
        dune::Book::Full
    }

    fn sheet(&self) -> &'static Sheet {
        &SHEET_REVISED
    }

    fn karama(&self) -> &'static [AbilityInfo] {
        &KARAMA
    }

    fn sheet_for(&self, o: &RuleOptions) -> &'static Sheet {
        match o.edition {
            Edition::Original => &SHEET_ORIGINAL,
            Edition::Revised => &SHEET_REVISED,
        }
    }

    /// 2.09.16 revised: Elite Mercenaries cost twice the current rate to ship.
    fn shipped_count(
        &self,
        r: &Replay,
        shipper: Faction,
        c: crate::dgn::ForceCount,
    ) -> Option<(u8, Rule)> {
        (shipper == CH && r.st.options.edition == Edition::Revised && c.starred > 0)
            .then(|| (c.total.saturating_add(c.starred), rule!("2.09.16")))
    }

    /// 2.09.13 revised: an Elite Mercenary counts two forces in battle.
    fn wheel_rule(&self, plan: &crate::battle::Plan, _opponent: Faction) -> Option<Rule> {
        (plan.dial.starred > 0).then_some(rule!("2.09.13"))
    }

    /// The revised Karama power (1.14.09) flipped CHOAM's Elite Mercenaries in this territory
    /// this turn: they fight as plain forces.
    fn wheel_conditions(
        &self,
        r: &Replay,
        t: Territory,
        plan: &crate::battle::Plan,
        c: &mut crate::battle::Conditions,
        side: usize,
    ) {
        if plan.dial.starred > 0 && r.st.choam.flipped == Some((r.st.turn, t)) {
            c.plain_starred[side.min(1)] = true;
        }
    }

    fn start_rules(&self, o: &RuleOptions) -> Option<StartRules> {
        Some(StartRules {
            spice: STARTING_SPICE.of(o.edition),
            forces: STARTING_FORCES.of(o.edition),
            starred: match o.edition {
                Edition::Original => STARTING_FORCES.of(o.edition),
                Edition::Revised => rule!("2.09.11"),
            },
            free_revival: rule!("2.09.03"),
        })
    }

    // ---- CHOAM Charity (2.09.04-2.09.07, 2.09.10-2.09.11) ----

    /// 2.09.04: before charity is collected CHOAM takes 2 spice from the bank per faction in the
    /// game, doubled or nothing by the Inflation token (2.09.10, 2.09.11), or the Earnings
    /// token's value per player once turned up (2.09.06, 2.09.07).
    fn begin_charity(&self, r: &mut Replay) {
        let turn = r.st.turn;
        if let Some(e) = r.st.choam.earnings.as_mut()
            && e.turn == turn
        {
            // Quarterlies (2.09.06): the token is turned up at the start of CHOAM Charity.
            e.face_up = true;
        }
        let Some(income) = r.choam_income() else {
            r.st.choam.income = None;
            return;
        };
        r.bank_pays(CH, income);
        r.st.choam.income = Some((turn, income));
    }

    /// CHOAM's own `C CH +n` line states its income (2.09.04): checked, never paid twice.
    fn charity(&self, _r: &mut Replay, _spice: Spice) -> Option<Charity> {
        Some(Charity::Income)
    }

    /// The charity another faction claims is paid out of CHOAM's spice (2.09.04), doubled or
    /// cancelled by the Inflation token (2.09.10, 2.09.11), at most the Earnings token's value
    /// (2.09.07).
    fn charity_source(
        &self,
        r: &mut Replay,
        claimant: Faction,
        due: Spice,
    ) -> Option<CharitySource> {
        if claimant == CH {
            return None;
        }
        let e = r.st.options.edition;
        let mut source = CharitySource {
            due,
            rule: None,
            payer: Payee::Faction(CH),
            payer_rule: INCOME.of(e),
        };
        match (e, r.st.choam.inflation) {
            (Edition::Original, Inflation::Track { double: true, .. }) => {
                source.due = due + due;
                source.rule = Some(rule!("2.09.10"));
            }
            (Edition::Original, Inflation::Track { double: false, .. }) => {
                source.due = Spice::ZERO;
                source.rule = Some(rule!("2.09.11"));
            }
            _ => {}
        }
        if e == Edition::Revised
            && let Some(Earnings {
                value: Some(v),
                face_up: true,
                turn,
            }) = r.st.choam.earnings
            && turn == r.st.turn
            && due > Spice::new(u32::from(v))
        {
            source.due = Spice::new(u32::from(v));
            source.rule = Some(rule!("2.09.07"));
        }
        Some(source)
    }

    // ---- the Mentat Pause: the Inflation token turns (2.09.12) ----

    fn begin_mentat(&self, r: &mut Replay) {
        if r.st.options.edition != Edition::Original {
            return;
        }
        r.st.choam.inflation = match r.st.choam.inflation {
            Inflation::Track {
                double,
                flipped: false,
            } => Inflation::Track {
                double: !double,
                flipped: true,
            },
            Inflation::Track { flipped: true, .. } => Inflation::Gone,
            other => other,
        };
    }

    /// 2.09.13: no bribes while the Inflation token shows its double side.
    fn bribe_forbidden(&self, r: &Replay) -> Option<(Rule, String)> {
        (r.st.options.edition == Edition::Original
            && matches!(r.st.choam.inflation, Inflation::Track { double: true, .. }))
        .then(|| {
            (
                rule!("2.09.13"),
                "no bribes can be made while CHOAM's Inflation token shows its double side (Corrupt Officials)".to_string(),
            )
        })
    }

    /// Kull Wahad, original (2.09.07.03): the player CHOAM named cannot play a Karama card this
    /// phase.
    fn karama_blocked(&self, r: &Replay, f: Faction) -> Option<(Rule, String)> {
        if r.st.options.edition != Edition::Original {
            return None;
        }
        let turn = r.st.turn;
        let phase = r.st.phase;
        r.st.choam
            .effects
            .iter()
            .find(|e| {
                e.card.code() == "KullWahad"
                    && e.target == Some(f)
                    && e.turn == turn
                    && e.phase == phase
            })
            .map(|e| {
                (
                    rule!("2.09.07.03"),
                    format!("{f} cannot play a Karama card this phase: {} discarded a Kull Wahad against it", e.by),
                )
            })
    }

    // ---- revival (2.09.08 original; 2.09.12-2.09.15 revised) ----

    fn revival_terms(&self, r: &Replay) -> Option<RevivalTerms> {
        let lalala = r.choam_effect(Card::LaLaLa, Phase::Revival).is_some();
        // The prices are the kinds' (2.09.08, 2.09.12, 2.09.14); the limits are these.
        Some(match r.st.options.edition {
            // No free revival, no limit, 1 spice a force.
            Edition::Original => RevivalTerms {
                limit: None,
                starred_limit: 0,
                starred_price_rule: REVIVAL.of(Edition::Original),
                rule: REVIVAL.of(Edition::Original),
                starred_rule: REVIVAL.of(Edition::Original),
                free_rule: rule!("2.09.03"),
            },
            // 1 spice a normal force, 2 an Elite Mercenary, at most three of them; the normal
            // limit of 3, one more after a La La La (2.09.10.05).
            Edition::Revised => RevivalTerms {
                limit: Some(if lalala { 4 } else { 3 }),
                starred_limit: 3,
                starred_price_rule: rule!("2.09.14"),
                rule: if lalala {
                    rule!("2.09.10.05")
                } else {
                    REVIVAL.of(Edition::Revised)
                },
                starred_rule: rule!("2.09.15"),
                free_rule: rule!("2.09.03"),
            },
        })
    }

    /// La La La, original (2.09.07.05): the player CHOAM names gets no free revival this phase.
    fn free_revival_removed(&self, r: &Replay, f: Faction) -> Option<Rule> {
        (r.st.options.edition == Edition::Original
            && r.choam_effects(Card::LaLaLa, Phase::Revival)
                .any(|e| e.target == Some(f)))
        .then_some(rule!("2.09.07.05"))
    }

    // ---- movement: Baliset, Kulon, Jubba Cloak (revised) ----

    fn move_blocked(&self, r: &Replay, mover: Faction, to: Territory) -> Option<(Rule, String)> {
        let e = r.st.options.edition;
        r.choam_effects(Card::Baliset, Phase::Movement)
            .find(|x| x.target == Some(mover) && x.territory == Some(to))
            .map(|x| {
                (
                    multipurpose_rule(e, 1),
                    format!(
                        "{mover} cannot move into {}: {} discarded a Baliset against it this phase (it may still ship in)",
                        to.name(),
                        x.by
                    ),
                )
            })
    }

    fn move_bonus(&self, r: &mut Replay, mover: Faction) -> Option<(u8, Rule)> {
        let turn = r.st.turn;
        let i = r.st.choam.effects.iter().position(|x| {
            x.card == Card::Kulon && x.by == mover && x.turn == turn && x.phase == Phase::Movement
        })?;
        // One of the faction's moves goes one territory further: this one.
        r.st.choam.effects.remove(i);
        Some((1, multipurpose_rule(r.st.options.edition, 4)))
    }

    fn move_through_storm(&self, r: &mut Replay, mover: Faction) -> Option<Rule> {
        if r.st.options.edition != Edition::Revised {
            return None;
        }
        let turn = r.st.turn;
        let i = r.st.choam.effects.iter().position(|x| {
            x.card == Card::JubbaCloak
                && x.by == mover
                && x.turn == turn
                && x.phase == Phase::Movement
        })?;
        r.st.choam.effects.remove(i);
        Some(rule!("2.09.10.02"))
    }

    /// Jubba Cloak, original (2.09.07.02): the storm takes nothing of CHOAM's in the territory
    /// named.
    fn storm_losses(
        &self,
        r: &mut Replay,
        piece: crate::board::Piece,
        _start: bool,
    ) -> Option<Stack> {
        let t = piece.territory();
        (r.st.options.edition == Edition::Original
            && r.choam_effects(Card::JubbaCloak, Phase::Storm)
                .any(|e| e.territory == Some(t)))
        .then(Stack::default)
    }

    fn storm_loss_rule(&self, r: &Replay) -> Option<Rule> {
        (r.st.options.edition == Edition::Original
            && r.choam_effects(Card::JubbaCloak, Phase::Storm)
                .next()
                .is_some())
        .then_some(rule!("2.09.07.02"))
    }

    // ---- battle: the ally's forces, CHOAM's half, the Auditor ----

    /// 2.09.20 original, 2.09.25 revised: half (rounded down) of the spice another player pays
    /// for its forces in battle goes to CHOAM; CHOAM's own goes to the bank, and a player who
    /// revealed a traitor keeps its spice, so CHOAM gets none of it (2.09.21, 2.09.26).
    fn battle_spice_share(
        &self,
        r: &Replay,
        payer: Faction,
        amount: Spice,
    ) -> Option<(Spice, Rule)> {
        let share = match r.st.options.edition {
            Edition::Original => SHARE_ORIGINAL,
            Edition::Revised => SHARE_REVISED,
        };
        // A Karama cancelling the share this Battle phase: the spice goes to the bank.
        (payer != CH && r.karama_block(share).is_none()).then(|| {
            (
                Spice::new(amount.amount() / 2),
                FORCE_SPICE.of(r.st.options.edition),
            )
        })
    }

    /// 2.09.15 original, 2.09.19 revised: CHOAM may pay for some or all of its ally's forces in
    /// battle.
    fn pays_ally_battle_spice(&self, r: &Replay, f: Faction) -> Option<(Rule, bool)> {
        Some((
            ALLY_FORCES.of(r.st.options.edition),
            r.st.ally(CH) == Some(f),
        ))
    }

    /// The Auditor may be revived as the one leader of the turn while other leaders live
    /// (Replaceable, 2.09.18, 2.09.23).
    fn leader_revival_anytime(&self, r: &Replay, l: Leader) -> Option<Rule> {
        (l == Leader::Auditor).then(|| REPLACEABLE.of(r.st.options.edition))
    }

    /// The Auditor cannot be captured by the Harkonnen (Protections, 2.09.19, 2.09.24).
    fn protected_leader(&self, r: &Replay, l: Leader) -> Option<Rule> {
        (l == Leader::Auditor).then(|| PROTECTIONS.of(r.st.options.edition))
    }

    /// The Auditor is an Advanced leader (2.09.00).
    fn leader_in_play(&self, r: &Replay, l: Leader) -> Option<Rule> {
        // 2.09.00: the Auditor (2.09.16 original, 2.09.21 revised) is in the Advanced range.
        (l == Leader::Auditor && !r.st.options.advanced).then_some(rule!("2.09.00"))
    }

    /// A lent Auditor comes home at Leader Return (2.09.20 revised).
    fn leader_home(&self, r: &mut Replay, l: Leader) -> Option<Faction> {
        if l != Leader::Auditor {
            return None;
        }
        r.st.choam.lent = None;
        Some(CH)
    }

    fn after_battle(&self, r: &mut Replay, b: &crate::replay::battle::Resolved) {
        r.st.choam.share = (r.st.choam.last_cut, b.sides.contains(&CH));
        r.st.choam.last_cut = Spice::ZERO;
        let auditor = b
            .leaders
            .iter()
            .position(|l| *l == crate::dgn::PlanLeader::Leader(Leader::Auditor));
        r.st.choam.audit = auditor.map(|i| Audit {
            auditor_side: b.sides[i],
            opponent: b.sides[1 - i],
            survived: !b.killed[i],
            settled: false,
        });
    }

    // ---- Karama (1.14.09) ----

    fn karama_power(&self, usage: &KaramaUse) -> Option<(Phase, Rule)> {
        match usage {
            // Original: at any time (checked in the power itself).
            KaramaUse::SellCards(_) => Some((Phase::Setup, rule!("1.14.09"))),
            // Revised: during Shipment and Movement.
            KaramaUse::Flip(_) => Some((Phase::Movement, rule!("1.14.09"))),
            _ => None,
        }
    }

    fn karama_any_phase(&self, usage: &KaramaUse) -> bool {
        matches!(usage, KaramaUse::SellCards(_))
    }

    fn use_karama_power(&self, r: &mut Replay, _ev: &Event, usage: &KaramaUse) {
        match usage {
            KaramaUse::SellCards(cards) => r.choam_karama_sell(cards),
            KaramaUse::Flip(place) => r.choam_karama_flip(*place),
            _ => {}
        }
    }
}

impl Replay {
    /// CHOAM's income this turn (2.09.04): 2 per faction in the game, doubled or nothing by the
    /// Inflation token (2.09.10, 2.09.11), the Earnings token's value per player once it is
    /// face up (2.09.07); `None` when the token's value is sealed from this replay.
    pub(crate) fn choam_income(&self) -> Option<Spice> {
        let players = self.st.in_play.len() as u32;
        let turn = self.st.turn;
        match self.st.options.edition {
            Edition::Original => Some(Spice::new(match self.st.choam.inflation {
                Inflation::Track { double: true, .. } => 4 * players,
                Inflation::Track { double: false, .. } => 0,
                _ => 2 * players,
            })),
            Edition::Revised => match self.st.choam.earnings {
                Some(e) if e.turn == turn && e.face_up => {
                    e.value.map(|v| Spice::new(u32::from(v) * players))
                }
                _ => Some(Spice::new(2 * players)),
            },
        }
    }

    /// The rule that decides this turn's income: the token that changed it (2.09.10, 2.09.11,
    /// 2.09.07), else 2.09.04.
    pub(crate) fn choam_income_rule(&self) -> Rule {
        let turn = self.st.turn;
        match (
            self.st.options.edition,
            self.st.choam.inflation,
            self.st.choam.earnings,
        ) {
            (Edition::Original, Inflation::Track { double: true, .. }, _) => rule!("2.09.10"),
            (Edition::Original, Inflation::Track { double: false, .. }, _) => rule!("2.09.11"),
            (Edition::Revised, _, Some(e)) if e.turn == turn && e.face_up => rule!("2.09.07"),
            _ => rule!("2.09.04"),
        }
    }

    pub(crate) fn choam_effects(&self, card: Card, phase: Phase) -> impl Iterator<Item = &Effect> {
        let turn = self.st.turn;
        self.st
            .choam
            .effects
            .iter()
            .filter(move |e| e.card == card && e.turn == turn && e.phase == phase)
    }

    pub(crate) fn choam_effect(&self, card: Card, phase: Phase) -> Option<&Effect> {
        self.choam_effects(card, phase).next()
    }

    /// Which sheet: "(original CHOAM sheet)" for messages under the original edition.
    fn sheet_note(&self) -> &'static str {
        match self.st.options.edition {
            Edition::Original => " (original CHOAM sheet)",
            Edition::Revised => "",
        }
    }

    pub(crate) fn choam_statement(&mut self, ev: &Event, s: &TradeStmt) {
        let e = self.st.options.edition;
        match s {
            TradeStmt::AllyStipend { faction, amount } => self.choam_stipend(*faction, *amount),
            TradeStmt::EarningsUp { faction, value } => {
                if !self.in_play_or_report(*faction) {
                    return;
                }
                let turn = self.st.turn;
                match self.st.choam.earnings {
                    _ if *faction != CH || e != Edition::Revised => self.v(
                        rule!("2.09.06"),
                        format!("only CHOAM turns up an Earnings token, with the revised sheet{}", self.sheet_note()),
                    ),
                    Some(x) if x.turn == turn => {
                        if let Some(v) = x.value
                            && v != *value
                        {
                            self.v(rule!("2.09.06"), format!("CHOAM's Earnings token was sealed as {v}, not {value}"));
                        }
                        let had = self.st.choam.income;
                        self.st.choam.earnings = Some(Earnings {
                            value: Some(*value),
                            face_up: true,
                            turn,
                        });
                        // The income the sealed token hid is taken now.
                        if had.is_none()
                            && let Some(income) = self.choam_income()
                        {
                            self.bank_pays(CH, income);
                            self.st.choam.income = Some((turn, income));
                        }
                    }
                    _ => self.v(
                        rule!("2.09.06"),
                        "CHOAM has no Earnings token on the CHOAM Charity step this turn (one is placed face down at the Mentat Pause before, 2.09.05)",
                    ),
                }
            }
            TradeStmt::Inflation { faction, double } => self.choam_inflation(*faction, *double),
            TradeStmt::Earnings { faction, value } => {
                if !self.in_play_or_report(*faction) {
                    return;
                }
                if *faction != CH || e != Edition::Revised {
                    self.v(
                        rule!("2.09.05"),
                        format!(
                            "only CHOAM places Earnings tokens, with the revised sheet{}",
                            self.sheet_note()
                        ),
                    );
                    return;
                }
                if self.st.phase != Phase::Mentat {
                    self.v(
                        rule!("2.09.05"),
                        "an Earnings token is placed during the Mentat Pause (War Continues)",
                    );
                }
                let value = self.sealed(value).copied().flatten();
                self.st.choam.earnings = Some(Earnings {
                    value,
                    face_up: false,
                    turn: self.st.turn + 1,
                });
            }
            TradeStmt::Sell {
                faction,
                cards,
                paid,
            } => self.open_market(*faction, cards, paid.as_ref()),
            TradeStmt::Multipurpose {
                faction,
                card,
                target,
                place,
            } => self.multipurpose(ev, *faction, *card, *target, *place),
            TradeStmt::Swap { sides } => self.choam_swap(sides),
            TradeStmt::Lend { faction, to } => self.lend_auditor(*faction, *to),
            TradeStmt::Audit { faction } => {
                let rule = PAID_INTEL.of(e);
                match self.st.choam.audit {
                    Some(a) if a.auditor_side == *faction => {}
                    _ => self.v(rule, format!("{faction} audits only after a battle in which the Auditor fought for it{}", self.sheet_note())),
                }
            }
            TradeStmt::Buyoff { faction, paid } => self.audit_buyoff(*faction, paid),
            TradeStmt::Share { faction, paid } => {
                if *faction != CH || !self.st.plays(CH) {
                    self.v_at(paid.pos, FORCE_SPICE.of(e), format!("only CHOAM takes a share of the spice paid for forces in battle, not {faction}"));
                    return;
                }
                let (share, own) = self.st.choam.share;
                if paid.amount != share {
                    let rule = if own && share.is_zero() {
                        rule!("2.09.26")
                    } else {
                        FORCE_SPICE.of(e)
                    };
                    let rule = if e == Edition::Original && rule == rule!("2.09.26") {
                        rule!("2.09.21")
                    } else {
                        rule
                    };
                    self.v_at(paid.pos, rule, format!("CHOAM takes {share} spice of the battle just fought (half, rounded down, of what the other side paid for its forces; none of its own), not {}", paid.amount));
                }
            }
            _ => {}
        }
    }

    /// `C F ally [+n]`: CHOAM's ally takes 2 spice from the bank at the end of CHOAM Charity,
    /// whether or not it claimed charity (2.09.14 original, 2.09.17 revised).
    fn choam_stipend(&mut self, f: Faction, amount: Option<Spice>) {
        let rule = ALLY_STIPEND.of(self.st.options.edition);
        if !self.in_play_or_report(f) {
            return;
        }
        if !self.st.plays(CH) || self.st.ally(CH) != Some(f) {
            self.v(rule, format!("{f} is not CHOAM's ally: only CHOAM's ally takes 2 spice at the end of CHOAM Charity{}", self.sheet_note()));
            return;
        }
        if self.st.choam.stipend == self.st.turn {
            self.v(
                rule,
                format!(
                    "CHOAM's ally takes its 2 spice once per turn{}",
                    self.sheet_note()
                ),
            );
            return;
        }
        self.st.choam.stipend = self.st.turn;
        let due = Spice::new(2);
        if let Some(a) = amount
            && a != due
        {
            self.v(
                rule,
                format!(
                    "CHOAM's ally takes 2 spice from the bank, not {a}{}",
                    self.sheet_note()
                ),
            );
        }
        self.bank_pays(f, due);
    }

    /// `P CH inflation double|cancel` (2.09.09): placed during War Continues, once.
    fn choam_inflation(&mut self, f: Faction, double: bool) {
        if !self.in_play_or_report(f) {
            return;
        }
        if f != CH || self.st.options.edition != Edition::Original {
            self.v(rule!("2.09.09"), "only CHOAM places the Inflation token, with the original sheet ([Edition \"original\"])");
            return;
        }
        if self.st.phase != Phase::Mentat {
            self.v(
                rule!("2.09.09"),
                "the Inflation token is placed during the Mentat Pause (War Continues)",
            );
        }
        match self.st.choam.inflation {
            Inflation::Unused => {
                self.st.choam.inflation = Inflation::Track {
                    double,
                    flipped: false,
                }
            }
            Inflation::Track { .. } => self.v(rule!("2.09.09"), "CHOAM's Inflation token is already on the phase track (it turns over before each War Continues and then leaves the game, 2.09.12)"),
            Inflation::Gone => self.v(rule!("2.09.12"), "CHOAM's Inflation token has left the game: it turned over once and was removed"),
        }
    }

    /// `SELL CH card,… [$n]`: Open Market (2.09.06 original: worthless cards for 2 each and the
    /// surplus of cards shown with the same name for 3 each; 2.09.09 revised: worthless cards for
    /// 2 each), from the bank.
    fn open_market(&mut self, f: Faction, cards: &[Card], paid: Option<&Payment>) {
        let e = self.st.options.edition;
        let rule = OPEN_MARKET.of(e);
        if !self.in_play_or_report(f) {
            return;
        }
        if f != CH {
            self.v(
                rule,
                format!("only CHOAM sells cards on the Open Market, not {f}"),
            );
            return;
        }
        let mut due = 0u32;
        for &c in cards {
            if c.kind() == CardKind::Worthless {
                due += 2;
            } else if e == Edition::Original {
                // A surplus copy: CHOAM shows another card of the same name and keeps it.
                let others = self
                    .st
                    .faction(CH)
                    .hand
                    .iter()
                    .filter(|h| **h == Some(c) || h.is_none())
                    .count();
                if others < 2 {
                    self.v(rule, format!("CHOAM sells {c} as a surplus copy, but does not show another {c} from its hand (only worthless cards and surplus copies of a card are sold, 2.09.06)"));
                }
                due += 3;
            } else {
                self.v(rule, format!("{c} is not a worthless card: CHOAM sells only worthless cards on the Open Market (2.09.09)"));
                due += 2;
            }
            self.play_card(CH, c, rule, false);
        }
        let due = Spice::new(due);
        if let Some(p) = paid {
            if p.amount != due {
                self.v_at(
                    p.pos,
                    rule,
                    format!(
                        "CHOAM receives {due} spice from the bank for {}, not {}",
                        names(cards),
                        p.amount
                    ),
                );
            }
            if let Some(x) = p.payee
                && x != Payee::Faction(CH)
            {
                self.v_at(
                    p.pos,
                    rule,
                    format!("the bank pays the Open Market's spice to CHOAM, not to {x}"),
                );
            }
        }
        self.bank_pays(CH, due);
    }

    /// `USE F card [F] [terr]`: a worthless card discarded for its Multipurpose effect (2.09.07
    /// original, 2.09.10 revised; the ally too with the revised sheet, 2.09.18).
    fn multipurpose(
        &mut self,
        _ev: &Event,
        f: Faction,
        card: Card,
        target: Option<Faction>,
        place: Option<Place>,
    ) {
        let e = self.st.options.edition;
        let base = MULTIPURPOSE.of(e);
        if !self.in_play_or_report(f) {
            return;
        }
        let ally_use = e == Edition::Revised && self.st.plays(CH) && self.st.ally(CH) == Some(f);
        if f != CH && !ally_use {
            let why = if e == Edition::Revised {
                " or its ally (2.09.18)"
            } else {
                ""
            };
            // The revised sheet names who else may (the ally, 2.09.18).
            let rule = if e == Edition::Revised {
                rule!("2.09.18")
            } else {
                base
            };
            self.v(rule, format!("only CHOAM{why} discards worthless cards for their Multipurpose effects, not {f}"));
            return;
        }
        let k = match card {
            Card::Baliset => 1,
            Card::JubbaCloak => 2,
            Card::Kulon => 4,
            Card::LaLaLa => 5,
            Card::TripToGamont => 6,
            _ if card.code() == "KullWahad" => 3,
            _ => {
                self.v(base, format!("{card} has no Multipurpose effect: the worthless cards do (Baliset, Jubba Cloak, Kull Wahad, Kulon, La La La, Trip to Gamont)"));
                return;
            }
        };
        let rule = multipurpose_rule(e, k);
        self.play_card(f, card, rule, false);
        let phase = self.st.phase;
        let turn = self.st.turn;
        let territory = place.map(|p| p.territory);
        let mut effect = Effect {
            card,
            by: f,
            target,
            territory,
            turn,
            phase,
        };
        let need_phase = |r: &mut Self, want: Phase, what: &str| {
            // Played before the first line of the Revival or Shipment and Movement phase it acts
            // in, the card opens that phase (as a statement of a later phase closes the ones
            // between).
            if r.st.turn > 0
                && r.st.phase < want
                && matches!(want, Phase::Revival | Phase::Movement)
            {
                r.enter(want);
            }
            if r.st.phase != want {
                r.v(
                    rule,
                    format!(
                        "{card} {what} in the {want} phase, not the {} phase",
                        r.st.phase
                    ),
                );
                false
            } else {
                true
            }
        };
        match (card, e) {
            (Card::Baliset, _) => {
                if !need_phase(self, Phase::Movement, "stops a move") {
                    return;
                }
                let (Some(g), Some(t)) = (target, territory) else {
                    self.v(rule, "Baliset names the player stopped and the territory: `USE CH Baliset AT TUK`");
                    return;
                };
                if self.st.in_territory(f, t).fighting() == 0 {
                    self.v(rule, format!("{f} does not occupy {}: Baliset keeps a player out of a territory its user occupies", t.name()));
                    return;
                }
                let _ = g;
            }
            (Card::JubbaCloak, Edition::Original) => {
                if !need_phase(self, Phase::Storm, "saves forces from the storm") {
                    return;
                }
                let Some(t) = territory else {
                    self.v(
                        rule,
                        "Jubba Cloak names the territory it protects: `USE CH JubbaCloak OG`",
                    );
                    return;
                };
                if self.st.in_territory(CH, t).is_empty() {
                    self.v(
                        rule,
                        format!("CHOAM has no forces in {} to protect", t.name()),
                    );
                }
            }
            (Card::JubbaCloak, Edition::Revised) => {
                if !need_phase(self, Phase::Movement, "lets a move pass through the storm") {
                    return;
                }
            }
            (Card::Kulon, _) => {
                if !need_phase(self, Phase::Movement, "lengthens a move") {
                    return;
                }
            }
            (Card::LaLaLa, Edition::Original) => {
                if !need_phase(self, Phase::Revival, "stops a free revival") {
                    return;
                }
                let Some(g) = target else {
                    self.v(
                        rule,
                        "La La La names the player whose free revival it stops: `USE CH LaLaLa FR`",
                    );
                    return;
                };
                if self.t.revival.forces.contains(g) {
                    self.v(rule, format!("{g} has already revived this phase"));
                }
            }
            (Card::LaLaLa, Edition::Revised) => {
                if !need_phase(self, Phase::Revival, "raises the revival limit") {
                    return;
                }
            }
            (Card::TripToGamont, Edition::Original) => {
                if !need_phase(self, Phase::Mentat, "sends a force home") {
                    return;
                }
                let (Some(g), Some(p)) = (target, place) else {
                    self.v(rule, "Trip to Gamont names the player and the territory: `USE CH TripToGamont AT ARK`");
                    return;
                };
                if g == f {
                    self.v(rule, "Trip to Gamont sends home a force of another player");
                    return;
                }
                self.trip_to_gamont(g, p, rule, false);
            }
            (Card::TripToGamont, Edition::Revised) => {
                let Some(p) = place else {
                    self.v(rule, "Trip to Gamont names the territory the force is sent to: `USE CH TripToGamont ARK`");
                    return;
                };
                if self.st.in_territory(f, p.territory).fighting() == 0 {
                    self.v(rule, format!("{f} does not occupy {}: Trip to Gamont sends a force into a territory its user occupies", p.territory.name()));
                    return;
                }
                self.trip_to_gamont(f, p, rule, true);
            }
            _ => {
                // Kull Wahad: original, stop a player's Karama this phase; revised, end the
                // user's alliance in the Spice Blow and Nexus phase.
                if e == Edition::Revised {
                    if !need_phase(self, Phase::SpiceBlow, "ends an alliance") {
                        return;
                    }
                    if let Some(a) = self.st.ally(f) {
                        self.st.faction_mut(f).ally = None;
                        self.st.faction_mut(a).ally = None;
                    } else {
                        self.v(rule, format!("{f} has no alliance to end"));
                    }
                } else if target.is_none() {
                    self.v(
                        rule,
                        "Kull Wahad names the player whose Karama it stops: `USE CH KullWahad AT`",
                    );
                    return;
                }
            }
        }
        effect.territory = territory;
        effect.phase = self.st.phase;
        self.st.choam.effects.push(effect);
    }

    /// Trip to Gamont: one force of `g` from the board to its reserves (original), or one of the
    /// user's forces from reserves into a territory it occupies (revised).
    fn trip_to_gamont(&mut self, g: Faction, p: Place, rule: Rule, send: bool) {
        let t = p.territory;
        if send {
            if self.st.faction(g).reserves.is_empty() {
                self.v(rule, format!("{g} has no forces in reserve to send"));
                return;
            }
            let piece = match p.sector.and_then(|s| t.piece(Some(s))) {
                Some(x) => x,
                None => match t
                    .pieces()
                    .iter()
                    .copied()
                    .find(|&x| self.st.stack(g, x).fighting() > 0)
                {
                    Some(x) => x,
                    None => return,
                },
            };
            self.st
                .place_from_reserves(g, piece, crate::dgn::ForceCount::plain(1), false);
            return;
        }
        let Some(piece) = t
            .pieces()
            .iter()
            .copied()
            .find(|&x| self.st.stack(g, x).total() > 0)
        else {
            self.v(rule, format!("{g} has no force in {}", t.name()));
            return;
        };
        let got = self.st.take_from_piece(
            g,
            piece,
            crate::state::Forces::new(1, 0),
            crate::dgn::Side::Unspecified,
        );
        let got = if got.is_empty() {
            self.st.take_from_piece(
                g,
                piece,
                crate::state::Forces::new(0, 1),
                crate::dgn::Side::Unspecified,
            )
        } else {
            got
        };
        self.st.faction_mut(g).reserves.add(got.forces());
    }

    /// `SWAP CH{card} F{card}` (2.09.14 original): once per turn, CHOAM and its ally each give
    /// the other one card.
    fn choam_swap(&mut self, sides: &[(Faction, Sealed<Option<Card>>); 2]) {
        let rule = rule!("2.09.14");
        let [(a, ac), (b, bc)] = sides;
        if !self.in_play_or_report(*a) || !self.in_play_or_report(*b) {
            return;
        }
        if self.st.options.edition != Edition::Original {
            self.v(rule, "the card trade with the ally is on the original CHOAM sheet only ([Edition \"original\"])");
            return;
        }
        if !(*a == CH || *b == CH) || self.st.ally(CH) != Some(if *a == CH { *b } else { *a }) {
            self.v(
                rule,
                "CHOAM trades a card with its ally, and only with its ally",
            );
            return;
        }
        if self.st.choam.swapped == self.st.turn {
            self.v(rule, "CHOAM trades a card with its ally once per turn");
            return;
        }
        self.st.choam.swapped = self.st.turn;
        let ac = self.sealed(ac).copied().flatten();
        let bc = self.sealed(bc).copied().flatten();
        for (f, c) in [(*a, ac), (*b, bc)] {
            if self.st.faction(f).hand.is_empty() {
                self.v(
                    rule,
                    format!("the trade goes both ways, and {f} has no card to give"),
                );
                return;
            }
            let _ = c;
        }
        let take = |r: &mut Self, f: Faction, c: Option<Card>| -> Option<Card> {
            match c {
                Some(c) => {
                    r.take_card(f, c, rule);
                    Some(c)
                }
                None => {
                    r.st.faction_mut(f).hand.pop();
                    None
                }
            }
        };
        let from_a = take(self, *a, ac);
        let from_b = take(self, *b, bc);
        self.st.faction_mut(*b).hand.push(from_a);
        self.st.faction_mut(*a).hand.push(from_b);
    }

    /// `M CH lend F` (2.09.20 revised): the Auditor joins the ally's leader pool for this turn's
    /// battles.
    fn lend_auditor(&mut self, f: Faction, to: Faction) {
        let rule = rule!("2.09.20");
        if !self.in_play_or_report(f) || !self.in_play_or_report(to) {
            return;
        }
        if f != CH || self.st.options.edition != Edition::Revised {
            self.v(rule, "only CHOAM lends the Auditor, with the revised sheet");
            return;
        }
        if self.st.ally(CH) != Some(to) {
            self.v(
                rule,
                format!("CHOAM lends the Auditor to its ally only, and {to} is not"),
            );
            return;
        }
        if self.st.leader(Leader::Auditor) != LeaderState::Pool(CH) {
            self.v(rule, "the Auditor is not in CHOAM's leader pool");
            return;
        }
        self.st.leaders[Leader::Auditor.index()] = LeaderState::Pool(to);
        self.st.choam.lent = Some(to);
    }

    /// `  F buyoff $n[>CH]`: the player the Auditor faced cancels the audit by paying its user
    /// 1 spice per card it would see (2.09.17 original: 2 if the Auditor lived, 1 if it died),
    /// or 2 for the exact spice count and 1 for the estimate (2.09.22 revised).
    fn audit_buyoff(&mut self, f: Faction, paid: &Payment) {
        let e = self.st.options.edition;
        let rule = PAID_INTEL.of(e);
        if !self.in_play_or_report(f) {
            return;
        }
        let Some(a) = self
            .st
            .choam
            .audit
            .filter(|a| a.opponent == f && !a.settled)
        else {
            self.v_at(paid.pos, rule, format!("{f} faced no Auditor in the battle just fought, so there is no audit to buy off{}", self.sheet_note()));
            return;
        };
        let cards = match e {
            Edition::Original => {
                let n = if a.survived { 2 } else { 1 };
                n.min(self.st.faction(f).hand.len() as u32)
            }
            Edition::Revised => {
                if a.survived {
                    2
                } else {
                    1
                }
            }
        };
        let due = Spice::new(cards);
        if paid.amount != due {
            let what = match (e, a.survived) {
                (Edition::Original, _) => {
                    format!("1 spice per card the audit would show ({cards})")
                }
                (Edition::Revised, true) => {
                    "2 spice (the exact spice count of an Auditor who lived)".to_string()
                }
                (Edition::Revised, false) => {
                    "1 spice (the estimate of an Auditor who died)".to_string()
                }
            };
            self.v_at(
                paid.pos,
                rule,
                format!("{f} buys off the audit for {what}, not {}", paid.amount),
            );
        }
        let to = Payee::Faction(a.auditor_side);
        if let Some(x) = paid.payee
            && x != to
        {
            self.v_at(
                paid.pos,
                rule,
                format!("the audit is bought off by paying {to}, not {x}"),
            );
        }
        if due > self.spice(f) {
            self.v_at(
                paid.pos,
                rule,
                format!("{f} must pay {due} spice but has {}", self.spice(f)),
            );
        }
        self.pay(f, to, due);
        if let Some(x) = self.st.choam.audit.as_mut() {
            x.settled = true;
        }
    }

    /// CHOAM's Karama, original (1.14.09): discard any cards for 3 spice each, at any time.
    fn choam_karama_sell(&mut self, cards: &[Card]) {
        if self.st.options.edition != Edition::Original {
            self.v(rule!("1.14.09"), "with the revised sheet CHOAM's Karama power flips its starred forces in one territory (K CH flip terr); selling cards for 3 each is the original power");
            return;
        }
        for &c in cards {
            self.play_card(CH, c, rule!("1.14.09"), false);
        }
        self.bank_pays(CH, Spice::new(3 * cards.len() as u32));
    }

    /// CHOAM's Karama, revised (1.14.09): during Shipment and Movement flip any or all of its
    /// starred forces in one territory (Elite Mercenaries become Mercenaries).
    fn choam_karama_flip(&mut self, place: Place) {
        let rule = rule!("1.14.09");
        if self.st.options.edition != Edition::Revised {
            self.v(rule, "with the original sheet CHOAM's Karama power sells cards for 3 each (K CH sell card,…); flipping starred forces is the revised power");
            return;
        }
        if self.st.phase != Phase::Movement {
            self.v(
                rule,
                format!(
                    "CHOAM flips its forces during Shipment and Movement, not the {} phase",
                    self.st.phase
                ),
            );
            return;
        }
        let t = place.territory;
        if self.st.in_territory(CH, t).starred == 0 {
            self.v(
                rule,
                format!("CHOAM has no starred forces in {} to flip", t.name()),
            );
            return;
        }
        // The tokens stay the starred ones (their count never changes); flipped to their
        // Mercenary side they fight as plain forces this turn (docs/notation.md, Decisions).
        self.st.choam.flipped = Some((self.st.turn, t));
    }
}

/// The Multipurpose effect of the k-th worthless card (2.09.07.0k original, 2.09.10.0k revised:
/// 1 Baliset, 2 Jubba Cloak, 3 Kull Wahad, 4 Kulon, 5 La La La, 6 Trip to Gamont).
pub(crate) fn multipurpose_rule(e: Edition, k: u8) -> Rule {
    match (e, k) {
        (Edition::Original, 1) => rule!("2.09.07.01"),
        (Edition::Original, 2) => rule!("2.09.07.02"),
        (Edition::Original, 3) => rule!("2.09.07.03"),
        (Edition::Original, 4) => rule!("2.09.07.04"),
        (Edition::Original, 5) => rule!("2.09.07.05"),
        (Edition::Original, 6) => rule!("2.09.07.06"),
        (Edition::Original, _) => rule!("2.09.07"),
        (Edition::Revised, 1) => rule!("2.09.10.01"),
        (Edition::Revised, 2) => rule!("2.09.10.02"),
        (Edition::Revised, 3) => rule!("2.09.10.03"),
        (Edition::Revised, 4) => rule!("2.09.10.04"),
        (Edition::Revised, 5) => rule!("2.09.10.05"),
        (Edition::Revised, 6) => rule!("2.09.10.06"),
        (Edition::Revised, _) => rule!("2.09.10"),
    }
}

fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
