//! The revised text of Ecaz's ambassadors (000 2.11.03-2.11.21 revised): ambassadors are forces
//! with a face.

use dune::Faction;

use crate::dgn::{AmbassadorAction, Event};
use crate::replay::Replay;

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

pub(crate) fn finish_setup(_r: &mut Replay) {}

pub(crate) fn immunity(_r: &mut Replay) {}

pub(crate) fn after_event(_r: &mut Replay) {}

impl Replay {
    pub(crate) fn revised_ambassador(&mut self, _ev: &Event, _action: &AmbassadorAction) {}
}
