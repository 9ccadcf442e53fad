//! Ecaz's ambassadors in the revised text (000 2.11.03-2.11.21 revised, `[Edition "revised"]`):
//! ambassadors are forces with a face.
//!
//! An ambassador on the board is one of the tokens in Ecaz's stack there (it counts as a force
//! for occupancy, battles, control, collection and everything a force does, 2.11.05), and a
//! [`Token`] names which one it is and which face is up. The faction's twenty forces are the
//! stack minus its ambassadors (`GameState::token_total`).
//!
//! - 2.11.03 all twelve ambassadors face up in front of the shield, one with the starting forces
//!   (`AMB EC place HK IB/10` at setup);
//! - 2.11.05 shipped, sent and moved with Ecaz's forces, face up (`AMB EC with HK` before the
//!   shipment or move that carries it: the count shipped or moved includes it);
//! - 2.11.06 co-occupied: where a face-up ambassador shows a faction whose forces are there,
//!   Ecaz's forces there share the territory peacefully: they neither fight, collect, control,
//!   block control or the occupancy limit, nor use ornithopters (the replay holds them aside as
//!   tokens that do not fight); 2.11.12 they fight again once that faction is gone;
//! - 2.11.07 face down at the end of Revival (`AMB EC flip ARK`): a plain force;
//! - 2.11.08-2.11.10 no ambassador shipped, sent or moved into a co-occupied territory whose
//!   occupancy limit others fill; leaving one only with the ambassador staying or all going;
//! - 2.11.11 Declare hostility (`AMB EC hostile ARK`): face down when its faction arrives;
//! - 2.11.13 one face-up ambassador per territory outside Ecaz's own actions (two with CHOAM's);
//! - 2.11.14 an ambassador that would go to the tanks goes back in front of the shield;
//! - 2.11.16 each ambassador's ability (`AMB EC use ARK …`); 2.11.19 the Ecaz ambassador makes
//!   Ecaz co-occupy with its ally; 2.11.21 ambassadors fight at full strength without spice.

use dune::{Faction, Rule, rule};

use super::EC;
use crate::board::{Piece, Territory};
use crate::dgn::{AmbassadorAction, AmbassadorEffect, Event, ForceCount, Side, Stmt};
use crate::factions::MoveRange;
use crate::replay::Replay;
use crate::state::{LeaderState, Phase};
use crate::tokens::{TokenKind, TokenPlace};

/// The twelve ambassadors of the revised text (2.11.03 revised).
pub(crate) const AMBASSADORS: [Faction; 12] = [
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
    Faction::Moritani,
];

/// The rule of a revised ambassador's ability (2.11.16.xx revised).
fn ability_rule(face: Faction) -> Rule {
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

/// 2.11.03 revised: one ambassador stands with the starting forces.
pub(crate) fn finish_setup(r: &mut Replay) {
    let placed =
        r.st.tokens
            .iter()
            .any(|k| k.owner == EC && matches!(k.place, TokenPlace::Board(_)));
    if !placed {
        r.v_full(
            rule!("2.11.03"),
            "one ambassador is placed face up with Ecaz's starting forces (`AMB EC place F IB/10`)",
        );
    }
}

/// Face-up ambassadors (token indexes) in a territory, with their faces.
fn face_up_in(r: &Replay, t: Territory) -> Vec<(usize, Faction)> {
    r.st.tokens
        .iter()
        .enumerate()
        .filter(|(_, k)| k.owner == EC && k.face_up && k.territory() == Some(t))
        .filter_map(|(i, k)| match k.kind {
            TokenKind::Ambassador(f) => Some((i, f)),
            TokenKind::Terror(_) => None,
        })
        .collect()
}

/// Ambassadors on one piece.
fn on_piece(r: &Replay, p: Piece) -> Vec<usize> {
    r.st.tokens
        .iter()
        .enumerate()
        .filter(|(_, k)| k.owner == EC && k.is_ambassador() && k.place == TokenPlace::Board(p))
        .map(|(i, _)| i)
        .collect()
}

/// Whom an ambassador showing `face` co-occupies with in `t`: that faction (or, for the Ecaz
/// ambassador, Ecaz's ally, 2.11.19 revised) when its forces are there.
fn matches(r: &Replay, face: Faction, t: Territory) -> bool {
    let g = if face == EC {
        match r.st.ally(EC) {
            Some(a) => a,
            None => return false,
        }
    } else {
        face
    };
    r.st.plays(g) && r.st.in_territory(g, t).total() > 0
}

/// Does Ecaz co-occupy `t` now (2.11.06 revised)?
pub(crate) fn co_occupied(r: &Replay, t: Territory) -> bool {
    t != Territory::PolarSink
        && face_up_in(r, t)
            .iter()
            .any(|&(_, face)| matches(r, face, t))
}

/// The Ixian ambassador: Ecaz's forces in its territory move two territories (2.11.16.07).
pub(crate) fn ixian_range(r: &Replay, from: Territory) -> Option<MoveRange> {
    face_up_in(r, from)
        .iter()
        .any(|&(_, f)| f == Faction::Ixians)
        .then_some(MoveRange {
            range: 2,
            rule: rule!("2.11.16.07"),
            why: "from the Ixian ambassador's territory",
            prevented: None,
        })
}

/// The Richese ambassador: three forces shipped to its territory as if one (2.11.16.10).
pub(crate) fn richese_charge(r: &Replay, t: Territory, n: u8) -> Option<(u8, Rule)> {
    (n <= 3 && face_up_in(r, t).iter().any(|&(_, f)| f == Faction::Richese))
        .then_some((n.min(1), rule!("2.11.16.10")))
}

/// Diplomatic immunity (2.11.14): an ambassador whose stack no longer holds it (the storm, a
/// worm, a battle, an explosion took its token) goes face up in front of Ecaz's shield, not to
/// the tanks.
pub(crate) fn immunity(r: &mut Replay) {
    let pieces: Vec<Piece> =
        r.st.tokens
            .iter()
            .filter(|k| k.owner == EC && k.is_ambassador())
            .filter_map(|k| match k.place {
                TokenPlace::Board(p) => Some(p),
                _ => None,
            })
            .collect();
    for p in pieces {
        let here = on_piece(r, p);
        let tokens = usize::from(r.st.stack(EC, p).total());
        if here.len() <= tokens {
            continue;
        }
        let lost = here.len() - tokens;
        for &i in here.iter().rev().take(lost) {
            r.st.tokens[i].place = TokenPlace::Supply;
            r.st.tokens[i].face_up = true;
        }
        // Their tokens went to the tanks with the forces: they are not forces.
        let tanks = &mut r.st.faction_mut(EC).tanks;
        let back = u8::try_from(lost).unwrap_or(u8::MAX).min(tanks.normal);
        tanks.normal -= back;
    }
}

/// After every statement: diplomatic immunity (2.11.14), one face-up ambassador per territory
/// outside Ecaz's own action (2.11.13), and who is co-occupied (2.11.06, 2.11.12).
pub(crate) fn after_event(r: &mut Replay, ev: &Event) {
    if let Stmt::Move { faction, from, .. } = &ev.stmt
        && *faction == EC
    {
        // Before the ambassadors the move carries leave (2.11.10).
        let leaving: Vec<Faction> = r.t.ecaz.carrying.iter().map(|(f, _)| *f).collect();
        r.clean_withdraw(from.territory, &leaving);
    }
    carry(r, ev);
    immunity(r);
    if r.t.mv.current != Some(EC) {
        one_per_territory(r);
    }
    sync(r);
}

/// 2.11.13 revised: face-up ambassadors beyond one in a territory (two with the CHOAM one,
/// 2.11.16.09; the Polar Sink aside) go back in front of the shield.
pub(crate) fn one_per_territory(r: &mut Replay) {
    for t in Territory::all() {
        if t == Territory::PolarSink {
            continue;
        }
        let mut up = face_up_in(r, t);
        // The earliest arrivals stay (the order Ecaz's log put them on the board).
        let rank = |f: Faction| r.ecaz.arrivals.iter().position(|&x| x == f);
        up.sort_by_key(|&(_, f)| rank(f));
        let allowed = if up.iter().any(|&(_, f)| f == Faction::Choam) {
            2
        } else {
            1
        };
        for &(i, _) in up.iter().skip(allowed) {
            if let TokenPlace::Board(p) = r.st.tokens[i].place {
                let s = r.st.stack_mut(EC, p);
                if s.advisors > 0 {
                    s.advisors -= 1;
                } else {
                    s.normal = s.normal.saturating_sub(1);
                }
            }
            r.st.tokens[i].place = TokenPlace::Supply;
        }
    }
}

/// Ecaz's tokens in a co-occupied territory do not fight (held as tokens that do not fight,
/// like advisors); elsewhere they do.
fn sync(r: &mut Replay) {
    if !r.st.plays(EC) {
        return;
    }
    for t in Territory::all() {
        let co = co_occupied(r, t);
        for &p in t.pieces() {
            let s = r.st.stack_mut(EC, p);
            if co {
                s.advisors = s.advisors.saturating_add(s.normal);
                s.normal = 0;
            } else {
                s.normal = s.normal.saturating_add(s.advisors);
                s.advisors = 0;
            }
        }
    }
}

/// `AMB EC with F…` announced the ambassadors the next Ecaz shipment, send or move carries
/// (2.11.05 revised): when that statement comes, they travel.
fn carry(r: &mut Replay, ev: &Event) {
    if r.t.ecaz.carrying.is_empty() {
        return;
    }
    let (from, to) = match &ev.stmt {
        Stmt::Ship { faction, to, .. } | Stmt::Send { faction, to, .. } if *faction == EC => {
            (None, *to)
        }
        Stmt::Move {
            faction, from, to, ..
        } if *faction == EC => (Some(*from), *to),
        // Written between the announcement and the move it is about.
        Stmt::Ambassador { .. } | Stmt::Check => return,
        Stmt::NoShip { faction } if *faction == EC => return,
        _ => {
            let left = std::mem::take(&mut r.t.ecaz.carrying);
            for (face, off) in left {
                if !off {
                    continue;
                }
                // Undo the count added to the reserves for a shipment that never came.
                let res = &mut r.st.faction_mut(EC).reserves;
                res.normal = res.normal.saturating_sub(1);
                for k in r.st.tokens.iter_mut() {
                    if k.owner == EC && k.kind == TokenKind::Ambassador(face) {
                        k.place = TokenPlace::Supply;
                    }
                }
            }
            r.v_full(
                rule!("2.11.05"),
                "the ambassadors announced (`AMB EC with …`) travel with Ecaz's next shipment or move, which does not follow",
            );
            return;
        }
    };
    let carried = std::mem::take(&mut r.t.ecaz.carrying);
    // A shipment carries ambassadors from in front of the shield, a move those in its territory.
    for &(face, off_board) in &carried {
        let here = r.st.tokens.iter().any(|k| {
            k.owner == EC
                && k.kind == TokenKind::Ambassador(face)
                && from.is_some_and(|f| k.territory() == Some(f.territory))
        });
        let fits = match from {
            None => off_board,
            Some(_) => here,
        };
        if !fits {
            let why = match from {
                None => "a shipment carries ambassadors from in front of Ecaz's shield",
                Some(_) => "a move carries the ambassadors of the territory it leaves",
            };
            r.v_full(
                rule!("2.11.05"),
                format!("the {face} ambassador cannot travel with it: {why}"),
            );
        }
    }
    let t = to.territory;
    let dest = to
        .sector
        .and_then(|s| t.piece(Some(s)))
        .or_else(|| t.piece(t.single_sector()))
        .or_else(|| t.pieces().first().copied());
    let Some(dest) = dest else { return };
    // 2.11.08 and 2.11.09 revised: not into a co-occupied territory whose occupancy limit the
    // others fill.
    let others_full = r.st.stronghold_full_for(t, EC);
    if others_full && co_occupied(r, t) {
        let rule = if from.is_some() {
            rule!("2.11.09")
        } else {
            rule!("2.11.08")
        };
        r.v_full(
            rule,
            format!(
                "no ambassador goes into {}: Ecaz co-occupies it and the other factions there fill its occupancy limit",
                t.name()
            ),
        );
    }
    for (face, _) in carried {
        if let Some(i) =
            r.st.tokens
                .iter()
                .position(|k| k.owner == EC && k.kind == TokenKind::Ambassador(face))
        {
            r.st.tokens[i].place = TokenPlace::Board(dest);
            r.st.tokens[i].face_up = true;
            r.ecaz.arrivals.retain(|&f| f != face);
            r.ecaz.arrivals.push(face);
        }
    }
}

impl Replay {
    /// `AMB EC …` in the revised text.
    pub(crate) fn revised_ambassador(&mut self, _ev: &Event, action: &AmbassadorAction) {
        match action {
            AmbassadorAction::Place { ambassador, to, .. } => self.revised_place(*ambassador, *to),
            AmbassadorAction::With(list) => self.ambassadors_with(list),
            AmbassadorAction::Flip(t) => self.flip_ambassador(*t),
            AmbassadorAction::Hostile(t) => self.declare_hostility(*t),
            AmbassadorAction::Use { at, effect } => self.use_ambassador(*at, effect),
            _ => self.v_full(
                rule!("2.11.05"),
                "in the revised text ambassadors travel as forces (`with`), turn face down (`flip`, `hostile`) and use their abilities (`use`); the original's `supply`, `trigger` and `cooccupy` are [Edition \"original\"]",
            ),
        }
    }

    /// `AMB EC place F terr` at setup: the ambassador with the starting forces (2.11.03 revised).
    fn revised_place(&mut self, face: Faction, to: crate::dgn::Place) {
        let start = super::start_piece();
        let piece = to
            .sector
            .and_then(|s| to.territory.piece(Some(s)))
            .or_else(|| to.territory.piece(to.territory.single_sector()));
        if self.st.turn != 0 || piece != start || piece.is_none() {
            self.v_full(
                rule!("2.11.03"),
                "in the revised text one ambassador is placed at setup, in the territory and sector of Ecaz's starting forces (IB/10); the others travel as forces",
            );
            return;
        }
        let already = self
            .st
            .tokens
            .iter()
            .any(|k| k.owner == EC && matches!(k.place, TokenPlace::Board(_)));
        if already {
            self.v_full(
                rule!("2.11.03"),
                "one ambassador stands with the starting forces",
            );
            return;
        }
        let (Some(p), Some(i)) = (piece, self.revised_token(face)) else {
            return;
        };
        self.st.tokens[i].place = TokenPlace::Board(p);
        self.st.tokens[i].face_up = true;
        self.st.stack_mut(EC, p).normal += 1;
    }

    fn revised_token(&mut self, face: Faction) -> Option<usize> {
        let i = self
            .st
            .tokens
            .iter()
            .position(|k| k.owner == EC && k.kind == TokenKind::Ambassador(face));
        if i.is_none() {
            self.v_full(rule!("2.11.03"), format!("Ecaz has no {face} ambassador"));
        }
        i
    }

    /// `AMB EC with F…` (2.11.05 revised): ambassadors that travel with Ecaz's next shipment,
    /// send or move, counted in its forces.
    fn ambassadors_with(&mut self, list: &[Faction]) {
        if self.st.phase != Phase::Movement {
            self.v_full(
                rule!("2.11.05"),
                "ambassadors travel with Ecaz's shipment or move, in Shipment and Movement",
            );
            return;
        }
        let mut carried = Vec::new();
        for &face in list {
            let Some(i) = self.revised_token(face) else {
                continue;
            };
            let off_board = self.st.tokens[i].place == TokenPlace::Supply;
            if !off_board && !matches!(self.st.tokens[i].place, TokenPlace::Board(_)) {
                self.v_full(
                    rule!("2.11.05"),
                    format!("the {face} ambassador is out of play"),
                );
                continue;
            }
            if off_board {
                // Shipped from in front of the shield: it comes with the reserves' count.
                self.st.faction_mut(EC).reserves.normal += 1;
                self.st.tokens[i].place = TokenPlace::Reserves;
            }
            carried.push((face, off_board));
        }
        self.t.ecaz.carrying = carried;
    }

    /// `AMB EC flip terr` (2.11.07 revised): at the end of Revival.
    fn flip_ambassador(&mut self, t: Territory) {
        if self.st.phase != Phase::Revival {
            self.v_full(
                rule!("2.11.07"),
                format!("Ecaz turns ambassadors face down at the end of the Revival phase, not in the {} phase", self.st.phase),
            );
            return;
        }
        match face_up_in(self, t).first() {
            Some(&(i, _)) => self.st.tokens[i].face_up = false,
            None => self.v_full(
                rule!("2.11.07"),
                format!("there is no face-up ambassador in {}", t.name()),
            ),
        }
    }

    /// `AMB EC hostile terr` (2.11.11 revised): the ambassador's own faction (not the ally, not
    /// advisors) has just entered its territory; Ecaz turns it face down if its co-occupying
    /// forces would not break the occupancy limit.
    fn declare_hostility(&mut self, t: Territory) {
        let up = face_up_in(self, t);
        let entry = self
            .t
            .entries
            .iter()
            .rev()
            .find(|e| e.territory == t && e.faction != EC)
            .copied();
        let target = up.iter().find(|&&(_, face)| {
            entry
                .is_some_and(|e| e.faction == face && !e.advisors && self.st.ally(EC) != Some(face))
        });
        let Some(&(i, face)) = target else {
            self.v_full(
                rule!("2.11.11"),
                format!("Declare hostility answers the arrival in {} of the faction an ambassador there shows (not the ally, not advisors)", t.name()),
            );
            return;
        };
        if t.is_stronghold() {
            let mut others = self.st.occupant_set(t);
            others.remove(EC);
            others.insert(face);
            if others.len() >= 2 {
                self.v_full(
                    rule!("2.11.11"),
                    format!("Ecaz's forces in {} would break the occupancy limit: it cannot declare hostility there", t.name()),
                );
                return;
            }
        }
        self.st.tokens[i].face_up = false;
    }

    /// `AMB EC use terr [effect]` (2.11.15-2.11.16 revised).
    fn use_ambassador(&mut self, t: Territory, effect: &AmbassadorEffect) {
        let up = face_up_in(self, t);
        // The ambassador whose ability the effect is.
        let wanted = |face: Faction| match effect {
            AmbassadorEffect::Ask { .. } => {
                matches!(face, Faction::Atreides | Faction::Harkonnen)
            }
            AmbassadorEffect::Send { .. } => face == Faction::BeneGesserit,
            AmbassadorEffect::Move { .. } => face == Faction::Fremen,
            AmbassadorEffect::Cross { .. } => face == Faction::SpacingGuild,
            AmbassadorEffect::Leader(_) => face == Faction::Tleilaxu,
            AmbassadorEffect::Ally { .. } => face == Faction::Ecaz,
            AmbassadorEffect::Vidal => face == Faction::Moritani,
            _ => false,
        };
        let Some(&(_, face)) = up.iter().find(|&&(_, f)| wanted(f)) else {
            self.v_full(
                rule!("2.11.15"),
                format!("no face-up ambassador in {} has that ability", t.name()),
            );
            return;
        };
        let rule = ability_rule(face);
        // Battle abilities: where the ambassador is battling, at Battle Plan (2.11.15).
        let battling = self.t.battle.current.as_ref().is_some_and(|b| {
            b.place.territory == t && b.side_of(EC).is_some() && b.plans.iter().all(Option::is_none)
        });
        match effect {
            AmbassadorEffect::Ask { .. }
            | AmbassadorEffect::Leader(_)
            | AmbassadorEffect::Vidal
                if !battling =>
            {
                self.v_full(
                    rule,
                    format!("the {face} ambassador's ability is used at Battle Plan, in a battle Ecaz fights in {}", t.name()),
                );
            }
            AmbassadorEffect::Ask { .. } => {}
            AmbassadorEffect::Leader(l) => {
                let ok = matches!(l.faction(), Faction::Ecaz | Faction::Tleilaxu)
                    && matches!(self.st.leader(*l), LeaderState::Tanks { .. });
                if !ok {
                    self.v_full(
                        rule,
                        format!("the Tleilaxu ambassador takes an Ecaz or Tleilaxu leader from the tanks, not {l}"),
                    );
                    return;
                }
                self.st.leaders[l.index()] = LeaderState::Pool(EC);
                self.t.ecaz.borrowed = Some(*l);
            }
            AmbassadorEffect::Vidal => self.vidal_to(EC, rule),
            AmbassadorEffect::Send { forces, to } => {
                let shipped = self
                    .t
                    .entries
                    .iter()
                    .rev()
                    .find(|e| e.territory == t)
                    .is_some_and(|e| {
                        e.faction != EC && e.from.is_none() && e.phase == Phase::Movement
                    });
                if !shipped || forces.total != 1 || to.territory != t {
                    self.v_full(
                        rule,
                        format!("the Bene Gesserit ambassador sends one force into {} when another faction has just shipped there", t.name()),
                    );
                    return;
                }
                self.send_from_reserves(EC, *forces, *to, rule);
            }
            AmbassadorEffect::Move { from, to, forces } => {
                let worm = self.t.blow.worm_territories.contains(&t);
                if !worm || from.territory != t {
                    self.v_full(
                        rule,
                        format!("the Fremen ambassador's forces move away from {} after a worm appears there", t.name()),
                    );
                    return;
                }
                self.revised_move(*from, *to, *forces, rule, Faction::Fremen);
            }
            AmbassadorEffect::Cross { to, forces } => {
                if self.st.phase != Phase::Movement || !self.use_shipment(EC, true) {
                    return;
                }
                let from = crate::dgn::Place {
                    territory: t,
                    sector: None,
                    pos: to.pos,
                };
                // The Guild ambassador goes with them when they count it.
                self.revised_move(from, *to, *forces, rule, Faction::SpacingGuild);
            }
            AmbassadorEffect::Ally { .. } => {
                let latest = self.t.entries.last().copied();
                let other = match latest {
                    Some(e) if e.territory == t && e.faction != EC => Some(e.faction),
                    Some(e) if e.territory == t => {
                        let here: Vec<Faction> = self
                            .st
                            .present(t)
                            .into_iter()
                            .filter(|&f| f != EC)
                            .collect();
                        (here.len() == 1).then(|| here[0])
                    }
                    _ => None,
                };
                let Some(g) = other else {
                    self.v_full(
                        rule,
                        format!("the Ecaz ambassador allies Ecaz with a faction that has just met it in {}", t.name()),
                    );
                    return;
                };
                if self.st.ally(EC).is_some() || self.st.ally(g).is_some() {
                    self.v_full(
                        rule,
                        format!(
                            "Ecaz allies with {g} through its ambassador only if neither is allied"
                        ),
                    );
                    return;
                }
                self.st.faction_mut(EC).ally = Some(g);
                self.st.faction_mut(g).ally = Some(EC);
            }
            _ => {}
        }
    }

    /// Ecaz forces moved by an ambassador's ability, storm and occupancy limits permitting.
    fn revised_move(
        &mut self,
        from: crate::dgn::Place,
        to: crate::dgn::Place,
        c: ForceCount,
        rule: Rule,
        used: Faction,
    ) {
        let t = to.territory;
        let Some(dest) = t
            .piece(to.sector.or_else(|| t.single_sector()))
            .or_else(|| t.pieces().first().copied())
        else {
            return;
        };
        if dest.in_storm(self.st.storm) {
            self.v_full(
                rule,
                format!("Ecaz's forces cannot go into the storm ({to})"),
            );
            return;
        }
        if self.st.stronghold_full_for(t, EC) {
            self.v_full(
                rule,
                format!(
                    "Ecaz cannot go into {}: two other factions are there",
                    t.name()
                ),
            );
            return;
        }
        let c = ForceCount {
            side: Side::Unspecified,
            ..c
        };
        if let Some(s) = self.take_forces(EC, from, c, rule) {
            let st = self.st.stack_mut(EC, dest);
            st.normal = st.normal.saturating_add(s.total());
            self.entered(EC, t, false);
            // The ambassadors stand in Ecaz's stacks (2.11.05 revised): those the tokens left
            // behind cannot hold go with the forces, the one used first, then the latest arrivals.
            let left = u32::from(self.st.in_territory(EC, from.territory).total());
            let mut here: Vec<usize> = self
                .st
                .tokens
                .iter()
                .enumerate()
                .filter(|(_, k)| {
                    k.owner == EC && k.is_ambassador() && k.territory() == Some(from.territory)
                })
                .map(|(i, _)| i)
                .collect();
            let rank = |i: usize| match self.st.tokens[i].kind {
                TokenKind::Ambassador(f) => self.ecaz.arrivals.iter().position(|&x| x == f),
                TokenKind::Terror(_) => None,
            };
            here.sort_by_key(|&i| {
                (
                    self.st.tokens[i].kind != TokenKind::Ambassador(used),
                    std::cmp::Reverse(rank(i)),
                )
            });
            let excess = (here.len() as u32).saturating_sub(left) as usize;
            for &i in here.iter().take(excess) {
                self.st.tokens[i].place = TokenPlace::Board(dest);
                if let TokenKind::Ambassador(f) = self.st.tokens[i].kind {
                    self.ecaz.arrivals.retain(|&x| x != f);
                    self.ecaz.arrivals.push(f);
                }
            }
        }
    }

    /// The ambassadors' battle worth (2.11.16.03 the Emperor one counts two, 2.11.21 revised
    /// Battle Hardened: ambassadors need no spice), for the side's dial: what they add.
    pub(crate) fn ambassador_dial_bonus(
        &self,
        plan: &crate::battle::Plan,
        t: Territory,
    ) -> Option<(crate::battle::Halves, Rule)> {
        if plan.faction != EC {
            return None;
        }
        let here: Vec<Faction> = self
            .st
            .tokens
            .iter()
            .filter(|k| k.owner == EC && k.territory() == Some(t))
            .filter_map(|k| match k.kind {
                TokenKind::Ambassador(f) => Some((f, k.face_up)),
                TokenKind::Terror(_) => None,
            })
            .filter(|(_, up)| *up)
            .map(|(f, _)| f)
            .collect();
        if here.is_empty() || plan.dial.total == 0 {
            return None;
        }
        let mut halves = 0;
        let mut rule = rule!("2.11.21");
        // Dialled first, the ambassadors need no spice (Advanced, 2.11.21 revised): each one
        // beyond the spice paid counts in full, not half.
        if self.st.options.advanced {
            let total = u32::from(plan.dial.total);
            let spiced = plan.spice.amount().min(total);
            let free = (spiced + here.len() as u32).min(total) - spiced;
            halves += free;
        }
        // The Emperor ambassador is worth two forces (2.11.16.03 revised).
        if here.contains(&Faction::Emperor) {
            halves += 2;
            rule = rule!("2.11.16.03");
        }
        (halves > 0).then_some((crate::battle::Halves(halves), rule))
    }

    /// After a battle: a leader the Tleilaxu ambassador took from the tanks goes back there
    /// (2.11.16.08 revised).
    pub(crate) fn return_borrowed_leader(&mut self) {
        if let Some(l) = self.t.ecaz.borrowed.take()
            && !matches!(self.st.leader(l), LeaderState::Tanks { .. })
        {
            self.st.leaders[l.index()] = LeaderState::Tanks { face_up: true };
        }
    }

    /// Clean withdraw (2.11.10 revised): leaving a co-occupied territory whose occupancy limit
    /// the others fill, Ecaz leaves its co-occupying ambassador or nothing.
    pub(crate) fn clean_withdraw(&mut self, from: Territory, leaving: &[Faction]) {
        if !from.is_stronghold() || !co_occupied(self, from) {
            return;
        }
        let mut others = self.st.occupant_set(from);
        others.remove(EC);
        if others.len() < 2 {
            return;
        }
        let staying: Vec<Faction> = face_up_in(self, from)
            .iter()
            .filter(|&&(_, face)| matches(self, face, from) && !leaving.contains(&face))
            .map(|&(_, face)| face)
            .collect();
        // Tokens left behind (the ambassadors the move carries are among those it took).
        let left = self.st.in_territory(EC, from).total();
        if left > 0 && staying.is_empty() {
            self.v_full(
                rule!("2.11.10"),
                format!(
                    "Ecaz leaves {} without its co-occupying ambassador while forces stay: the ambassador stays, or all go",
                    from.name()
                ),
            );
        }
    }
}
